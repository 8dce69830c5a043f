#include "monitor/GroupSparklines.h"

#include <algorithm>

namespace groupscope::monitor {

bool GroupSparklines::record(const QString& group, int64_t totalLag, int64_t timeMs) {
    Series& series = m_groups[group];
    if (!series.totals.isEmpty() && timeMs < series.newestMs)
        return false;
    // A new list at each poll rather than an append to the old one: the newest view still
    // shares the old one, so an append would copy it anyway, and leave room to spare.
    const qsizetype kept = std::min<qsizetype>(series.totals.size(), m_samples - 1);
    LagSparkline totals(kept + 1);
    std::copy(series.totals.cend() - kept, series.totals.cend(), totals.begin());
    totals.last() = float(totalLag);
    series.totals = std::move(totals);
    series.newestMs = timeMs;
    return true;
}

} // namespace groupscope::monitor
