#pragma once

#include "lag/Clock.h"
#include "monitor/GroupMonitor.h"
#include "snapshot/GroupSnapshot.h"

namespace groupscope::monitor {

// Gives every group of a cluster-wide poll its GroupTrend (time lag, health verdict, lag
// sparkline) from the polls seen so far. It is a GroupMonitor in polling mode with a
// lean history: only the last `sparklineSamples` samples per series and no aggregated
// tiers, so watching a thousand groups costs megabytes, not hundreds of them.
//
// Not thread safe: the poller's worker thread owns it.
class GroupTrendTracker {
public:
    static constexpr int sparklineSamples = 60;

    explicit GroupTrendTracker(const lag::Clock& clock = lag::SystemClock::instance());

    // Records the poll and fills in each group's `trend`.
    void observe(ClusterSnapshot& snapshot);

private:
    static GroupMonitor::Options leanOptions();
    GroupTrend trendOf(const QString& group) const;

    const lag::Clock& m_clock;
    GroupMonitor m_monitor;
};

} // namespace groupscope::monitor
