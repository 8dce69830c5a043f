#include "monitor/LagSampler.h"

#include <algorithm>

namespace groupscope::monitor {

using kafka::TopicPartition;

LagSampler::LagSampler(const lag::Clock& clock, const Options& options)
    : m_lagHistory(clock, options.lagHistory, options.partitionLagHistory)
    , m_sparklines(options.sparklineSamples)
    , m_timeLag(clock) {}

void LagSampler::recordPoll(const GroupSnapshot& snapshot, int64_t takenAtMs, bool detail) {
    for (const PartitionSnapshot& partition : snapshot.partitions) {
        if (partition.logEndOffset < 0)
            continue;
        // Many groups read the same partition; one sample per poll is enough.
        LogEndSample& sample = m_logEnds[partition.topicPartition];
        if (sample.timeMs >= takenAtMs)
            continue;
        sample = {partition.logEndOffset, takenAtMs};
        m_timeLag.recordLogEndOffset(partition.topicPartition, partition.logEndOffset, takenAtMs);
    }
    if (detail)
        m_lagHistory.recordSnapshot(snapshot, takenAtMs);
    if (m_keepSparklines &&
        std::any_of(snapshot.partitions.cbegin(), snapshot.partitions.cend(),
                    [](const PartitionSnapshot& partition) { return partition.lag.has_value(); }))
        m_sparklines.record(snapshot.groupId(), snapshot.totalLag(), takenAtMs);
}

std::optional<int64_t> LagSampler::logEndOffsetAt(const TopicPartition& partition,
                                                  int64_t timeMs) const {
    // A commit's lag is measured against the log end when it was made, interpolated
    // between the polls around it as kafka-lag-exporter's lookup table does. Measured
    // against the newest polled log end instead, every commit within one poll interval
    // looks like lag going down, and a group falling behind never shows WARN.
    if (const auto interpolated = m_timeLag.logEndOffsetAt(partition, timeMs))
        return interpolated;
    // The lookup table refuses a log end that went down (topic recreated, truncated): a
    // poll at or after the commit still bounds it.
    const auto sample = m_logEnds.constFind(partition);
    if (sample != m_logEnds.cend() && sample->timeMs >= timeMs)
        return sample->offset;
    return std::nullopt;
}

void LagSampler::releasePartition(const TopicPartition& partition) {
    const auto users = m_partitionUsers.find(partition);
    if (users == m_partitionUsers.end() || --users.value() > 0)
        return;
    m_partitionUsers.erase(users);
    m_logEnds.remove(partition);
    m_timeLag.removePartition(partition);
}

void LagSampler::removeGroupPartition(const QString& group, const TopicPartition& partition,
                                      bool topicLeft) {
    m_timeLag.removeGroupPartition(group, partition);
    m_lagHistory.remove(lag::LagSeriesKey::forPartition(group, partition));
    if (topicLeft)
        m_lagHistory.remove(lag::LagSeriesKey::forTopic(group, partition.topic));
    releasePartition(partition);
}

void LagSampler::removeGroup(const QString& group) {
    m_lagHistory.removeGroup(group);
    m_sparklines.removeGroup(group);
    m_timeLag.removeGroup(group);
}

MonitoredPartition LagSampler::monitoredPartition(const QString& group,
                                                  const PartitionSnapshot& partition) const {
    MonitoredPartition row;
    row.setPosition(partition);
    row.memberId = partition.memberId();
    row.lagDetail = partition.lagDetail;
    if (partition.committedOffset)
        row.timeLag = m_timeLag.timeLag(partition.topicPartition, *partition.committedOffset);
    // Only markers (or nothing) after the commit, read from the log: caught up in time too,
    // whatever the log-end history would interpolate for the marker's offset.
    if (partition.lagDetail->effectiveLag == 0)
        row.timeLag = lag::TimeLag{lag::TimeLag::Status::CaughtUp, 0, false};
    row.productionRate = m_timeLag.productionRate(partition.topicPartition);
    row.consumptionRate = m_timeLag.consumptionRate(group, partition.topicPartition);
    if (partition.lag)
        row.drain = lag::TimeLagEstimator::drainEstimate(*partition.lag, row.consumptionRate,
                                                         row.productionRate);
    return row;
}

void LagSampler::keepSparklines(bool on) {
    m_keepSparklines = on;
    if (!on)
        m_sparklines.clear();
}

} // namespace groupscope::monitor
