#pragma once

#include <QList>

namespace groupscope::monitor {

// A group's recent total lags for the list's sparkline, oldest first, one per poll. Floats,
// exact up to 16,777,216 and within a ten-millionth beyond, which no line a cell high can
// show: half a qint64's bytes in each of the two or three views' lists the GUI holds at
// once (75 MB at 100,000 groups of 60 samples).
using LagSparkline = QList<float>;

} // namespace groupscope::monitor
