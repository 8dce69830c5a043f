#pragma once

#include <QString>

namespace groupscope::ui {

// Numbers the way a chart shows them, short enough for a tick label or a read-out line.
namespace ChartText {

// Message counts with at most three significant digits: "950", "12.3k", "1.2M", "4B".
QString compactCount(double count);
// Durations for axis ticks, whole units only: "0", "45s", "5m", "1h 30m", "2d".
QString tickDuration(double seconds);

} // namespace ChartText

} // namespace groupscope::ui
