#pragma once

#include "snapshot/TimeLag.h"

#include <QString>

namespace groupscope::lag {

// A duration the way an on-call engineer reads it at a glance, with at most two units:
// "850 ms", "12.4 s", "3m 20s", "2h 05m", "3d 04h". Negative durations get a minus sign.
QString durationText(double seconds);

// A time lag for a table cell: "0 s" when caught up, "≥ 3m 20s" for a lower bound,
// "≈ …" when extrapolated, "–" when unknown.
QString timeLagText(const TimeLag& timeLag);

} // namespace groupscope::lag
