#include "monitor/GroupTrendTracker.h"

#include "lag/LagSeriesKey.h"

#include <limits>

namespace groupscope::monitor {

GroupTrendTracker::GroupTrendTracker(const lag::Clock& clock)
    : m_clock(clock)
    , m_monitor(clock, leanOptions()) {
    // The list never reads the offsets topic: commits and generations come from polls.
    m_monitor.setStreamState(GroupMonitor::StreamState::Unavailable,
                             QStringLiteral("the group list polls only"));
}

GroupMonitor::Options GroupTrendTracker::leanOptions() {
    GroupMonitor::Options options;
    options.lagHistory.rawSampleCount = sparklineSamples;
    options.lagHistory.tiers.clear();
    options.partitionLagHistory = options.lagHistory;
    options.commitHistoryPerGroup = 20; // the health window needs 10
    options.timeline.maxGenerationsPerGroup = 2;
    options.timeline.maxStateSpansPerGroup = 4;
    return options;
}

void GroupTrendTracker::observe(ClusterSnapshot& snapshot) {
    const int64_t nowMs = m_clock.nowMs();
    QSet<QString> polled;
    for (GroupSnapshot& group : snapshot.groups) {
        m_monitor.observePoll(group, nowMs);
        group.trend = trendOf(group.groupId());
        polled.insert(group.groupId());
    }
    // Deleted groups go with their history; a failed refresh says nothing about who is gone.
    if (!snapshot.error.isError())
        m_monitor.observeGroupsAbsentFrom(polled);
}

GroupTrend GroupTrendTracker::trendOf(const QString& group) const {
    GroupTrend trend;
    const GroupMonitorSnapshot watched = m_monitor.snapshot(group);
    trend.maxTimeLag = watched.maxTimeLag;
    trend.health = watched.health.status;
    // The reason of the worst partition explains the group's verdict.
    const lag::PartitionHealth* worst = nullptr;
    for (const lag::PartitionHealth& partition : watched.health.partitions)
        if (!worst || partition.status > worst->status)
            worst = &partition;
    if (worst && worst->status != lag::PartitionStatus::Ok)
        trend.healthReason = QStringLiteral("%1-%2: %3")
                                 .arg(worst->topicPartition.topic)
                                 .arg(worst->topicPartition.partition)
                                 .arg(worst->reason);
    const auto points = m_monitor.lagHistory().points(lag::LagSeriesKey::forGroup(group),
                                                      std::numeric_limits<int64_t>::min(),
                                                      std::numeric_limits<int64_t>::max());
    trend.recentTotalLag.reserve(points.size());
    for (const lag::LagHistoryPoint& point : points)
        trend.recentTotalLag.append(qint64(point.last));
    return trend;
}

} // namespace groupscope::monitor
