#include "monitor/GroupMonitor.h"

#include "monitor/GroupVerdictParts.h"

#include <QSet>

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>
#include <variant>

namespace groupscope::monitor {

using offsetstopic::ConsumerGroupRecord;
using offsetstopic::GroupMetadata;
using offsetstopic::OffsetCommit;
using offsetstopic::OffsetsTopicRecord;

using kafka::TopicPartition;

namespace {

std::optional<double> addRates(std::optional<double> sum, std::optional<double> rate) {
    if (!rate)
        return sum;
    return sum.value_or(0.0) + *rate;
}

QList<TopicPartition> sortedPartitions(const QList<PartitionSnapshot>& rows) {
    QList<TopicPartition> partitions;
    partitions.reserve(rows.size());
    for (const PartitionSnapshot& row : rows)
        partitions.append(row.topicPartition);
    if (!std::is_sorted(partitions.cbegin(), partitions.cend()))
        std::sort(partitions.begin(), partitions.end());
    return partitions;
}

bool samePartitions(const QList<PartitionSnapshot>& a, const QList<PartitionSnapshot>& b) {
    return std::equal(a.cbegin(), a.cend(), b.cbegin(), b.cend(),
                      [](const PartitionSnapshot& x, const PartitionSnapshot& y) {
                          return x.topicPartition == y.topicPartition;
                      });
}

} // namespace

GroupMonitor::GroupMonitor(const lag::Clock& clock)
    : GroupMonitor(clock, Options()) {}

GroupMonitor::GroupMonitor(const lag::Clock& clock, Options options)
    : m_clock(clock)
    , m_options(std::move(options))
    , m_lag(clock,
            {m_options.lagHistory, m_options.partitionLagHistory, m_options.sparklineSamples})
    , m_pollTime(clock)
    , m_health(m_pollTime, m_options.health)
    , m_commits(m_lag, m_health,
                {m_options.commitHistoryPerGroup, m_options.lagBackfillStepMs,
                 m_options.lagBackfillWindowMs})
    , m_timeline(m_options.timeline)
    , m_rebalances(clock, {m_options.rebalanceThresholds})
    , m_historyStartMs(clock.nowMs() - m_options.lagBackfillWindowMs) {}

void GroupMonitor::setStreamState(StreamState state, const QString& reason) {
    const bool becameReadable = m_streamState == StreamState::Unavailable &&
                                (state == StreamState::Replaying || state == StreamState::Live);
    m_streamState = state;
    m_streamReason = reason;
    if (!becameReadable)
        return;
    // The topic could not be read at first (e.g. a fresh broker had not created it yet):
    // timelines made only of inferred generations give way to the exact ones the replay
    // brings, instead of standing ahead of them.
    for (const QString& group : m_timeline.groups()) {
        const QList<timeline::Generation> generations = m_timeline.timeline(group).generations;
        if (std::all_of(
                generations.cbegin(), generations.cend(),
                [](const timeline::Generation& generation) { return generation.approximate; }))
            m_timeline.removeGroup(group);
    }
}

void GroupMonitor::observePoll(const GroupSnapshot& snapshot, int64_t takenAtMs) {
    m_pollTime.observedAt(takenAtMs);
    TrackedGroup& group = tracked(snapshot.groupId());
    if (snapshot.error.isError()) {
        // Keep the last good rows; only the error is news.
        group.lastPoll.error = snapshot.error;
        return;
    }
    if (!snapshot.exists() || snapshot.description.state == kafka::GroupState::Dead) {
        if (++group.absentPolls >= m_options.evictAfterAbsentPolls) {
            evictGroup(snapshot.groupId());
            return;
        }
    } else {
        group.absentPolls = 0;
    }
    trackPartitions(snapshot.groupId(), group, snapshot);
    m_rebalances.observePoll(snapshot, takenAtMs, commitsFromStream());
    const bool detail = keepsDetail(snapshot.groupId());
    m_lag.recordPoll(snapshot, takenAtMs, detail);
    if (commitsFromStream()) {
        m_commits.flushCommitsAwaitingLogEnd(snapshot.groupId());
    } else {
        m_health.observeSnapshot(snapshot, takenAtMs);
        m_commits.recordPolledCommits(snapshot, group.polled ? &group.lastPoll : nullptr, takenAtMs,
                                      detail);
    }
    switch (detail ? detailStreamState(snapshot.groupId()) : StreamState::Pending) {
    case StreamState::Unavailable:
        m_timeline.observeSnapshot(snapshot, takenAtMs);
        break;
    case StreamState::Live:
        // The history holds no record of a generation formed before the window: the poll
        // stands in for the one in force at its start.
        m_timeline.seedGenerationBeforeWindow(snapshot, m_historyStartMs);
        m_timeline.observeSnapshotState(snapshot, takenAtMs);
        break;
    case StreamState::Pending:
    case StreamState::Replaying:
        break;
    }
    group.lastPoll = snapshot;
    group.lastPollMs = takenAtMs;
    group.polled = true;
}

QList<TopicPartition> GroupMonitor::knownPartitions(const TrackedGroup& group) {
    QList<TopicPartition> known = sortedPartitions(group.lastPoll.partitions);
    for (auto it = group.absentPartitionPolls.cbegin(); it != group.absentPartitionPolls.cend();
         ++it)
        known.insert(std::lower_bound(known.begin(), known.end(), it.key()), it.key());
    return known;
}

void GroupMonitor::trackPartitions(const QString& groupId, TrackedGroup& group,
                                   const GroupSnapshot& snapshot) {
    if (group.absentPartitionPolls.isEmpty() &&
        samePartitions(group.lastPoll.partitions, snapshot.partitions))
        return; // the common case: the same partitions as before
    const QList<TopicPartition> known = knownPartitions(group);
    const QList<TopicPartition> present = sortedPartitions(snapshot.partitions);
    const auto contains = [](const QList<TopicPartition>& sorted, const TopicPartition& tp) {
        return std::binary_search(sorted.cbegin(), sorted.cend(), tp);
    };
    for (const TopicPartition& partition : present)
        if (!contains(known, partition))
            m_lag.usePartition(partition);
    QList<TopicPartition> dropped;
    for (const TopicPartition& partition : known) {
        if (contains(present, partition))
            group.absentPartitionPolls.remove(partition);
        else if (++group.absentPartitionPolls[partition] >= m_options.evictAfterAbsentPolls)
            dropped.append(partition);
    }
    for (const TopicPartition& partition : std::as_const(dropped)) {
        group.absentPartitionPolls.remove(partition);
        m_health.removePartition(groupId, partition);
        const auto sameTopic = [&partition](const TopicPartition& other) {
            return other.topic == partition.topic;
        };
        const QList<TopicPartition> stillAbsent = group.absentPartitionPolls.keys();
        const bool topicLeft = std::none_of(present.cbegin(), present.cend(), sameTopic) &&
                               std::none_of(stillAbsent.cbegin(), stillAbsent.cend(), sameTopic);
        m_lag.removeGroupPartition(groupId, partition, topicLeft);
    }
}

void GroupMonitor::evictGroup(const QString& groupId) {
    const auto it = m_groups.find(groupId);
    if (it != m_groups.end()) {
        for (const TopicPartition& partition : knownPartitions(*it))
            m_lag.releasePartition(partition);
        m_groups.erase(it);
    }
    m_lag.removeGroup(groupId);
    m_commits.removeGroup(groupId);
    m_health.removeGroup(groupId);
    m_timeline.removeGroup(groupId);
    m_rebalances.removeGroup(groupId);
}

void GroupMonitor::observeGroupsAbsentFrom(const QSet<QString>& polledGroups) {
    QStringList evicted;
    for (auto it = m_groups.begin(); it != m_groups.end(); ++it)
        // Groups only the offsets topic named (e.g. deleted since) go the same way.
        if ((it->polled || !isWatched(it.key())) && !polledGroups.contains(it.key()) &&
            ++it->absentPolls >= m_options.evictAfterAbsentPolls)
            evicted.append(it.key());
    for (const QString& group : evicted)
        evictGroup(group);
}

GroupMonitor::Footprint GroupMonitor::footprint() const {
    Footprint footprint;
    footprint.groups = m_groups.size();
    footprint.timelineGroups = m_timeline.groups().size();
    footprint.lagSeries = m_lag.lagHistory().seriesCount();
    footprint.logEndTables = m_lag.logEndTables();
    footprint.consumptionRates = m_lag.consumptionRates();
    footprint.healthGroups = m_health.groupCount();
    return footprint;
}

void GroupMonitor::observeRecord(const OffsetsTopicRecord& record) {
    if (const auto* commit = std::get_if<OffsetCommit>(&record)) {
        tracked(commit->group); // a group the offsets topic names is tracked until evicted
        m_commits.observeCommit(*commit, detailFromStream(commit->group));
    } else if (const auto* metadata = std::get_if<GroupMetadata>(&record)) {
        // Every group's rebalance counts; only the watched ones keep the whole timeline.
        m_rebalances.observeGroupMetadata(*metadata);
        if (detailFromStream(metadata->group))
            m_timeline.observeGroupMetadata(*metadata);
    } else if (const auto* consumerGroup = std::get_if<ConsumerGroupRecord>(&record);
               consumerGroup && detailFromStream(consumerGroup->group))
        m_timeline.observeConsumerGroupRecord(*consumerGroup);
    // Unknown and malformed records are counted by the stream and skipped here.
}

void GroupMonitor::observeReplayedRecord(const OffsetsTopicRecord& record) {
    if (const auto* commit = std::get_if<OffsetCommit>(&record)) {
        if (isWatched(commit->group) && !detailFromStream(commit->group)) {
            tracked(commit->group);
            m_commits.recordDetailCommit(*commit);
        }
    } else if (const auto* metadata = std::get_if<GroupMetadata>(&record)) {
        if (isWatched(metadata->group) && !detailFromStream(metadata->group))
            m_timeline.observeGroupMetadata(*metadata);
    } else if (const auto* consumerGroup = std::get_if<ConsumerGroupRecord>(&record)) {
        if (isWatched(consumerGroup->group) && !detailFromStream(consumerGroup->group))
            m_timeline.observeConsumerGroupRecord(*consumerGroup);
    }
}

GroupMonitor::StreamState GroupMonitor::detailStreamState(const QString& group) const {
    // A group's own replay stands for the stream while it runs: polls then add nothing to
    // its timeline, as during the stream's replay.
    const auto watched = m_watched.constFind(group);
    if (watched != m_watched.cend() && !detailFromStream(group) && !watched->replayComplete &&
        m_streamState != StreamState::Unavailable)
        return StreamState::Replaying;
    return m_streamState;
}

bool GroupMonitor::detailFromStream(const QString& group) const {
    if (m_options.detailForEveryGroup)
        return true;
    const auto watched = m_watched.constFind(group);
    return watched != m_watched.cend() && watched->source == HistorySource::Stream;
}

void GroupMonitor::watch(const QString& group, HistorySource source) {
    const auto it = m_watched.constFind(group);
    if (it != m_watched.cend() && it->source == source)
        return;
    dropDetail(group);
    m_watched.insert(group, WatchState{source, false});
}

void GroupMonitor::unwatch(const QString& group) {
    if (m_watched.remove(group) > 0 && !m_options.detailForEveryGroup)
        dropDetail(group);
}

void GroupMonitor::setReplayComplete(const QString& group) {
    if (const auto it = m_watched.find(group); it != m_watched.end())
        it->replayComplete = true;
}

void GroupMonitor::dropDetail(const QString& groupId) {
    m_timeline.removeGroup(groupId);
    m_lag.removeGroupDetail(groupId);
    m_commits.dropDetail(groupId);
}

QStringList GroupMonitor::groupsAwaitingLagBackfill() const {
    QStringList names;
    if (m_streamState != StreamState::Live)
        return names;
    for (auto it = m_groups.cbegin(); it != m_groups.cend(); ++it) {
        if (!it->polled || m_commits.isLagBackfillDone(it.key()) || !keepsDetail(it.key()))
            continue;
        const auto watched = m_watched.constFind(it.key());
        const bool replayPending =
            !detailFromStream(it.key()) && watched != m_watched.cend() && !watched->replayComplete;
        if (!replayPending)
            names.append(it.key());
    }
    names.sort();
    return names;
}

GroupMonitor::LagBackfillRequest GroupMonitor::lagBackfillRequest(const QString& group,
                                                                  int64_t windowStartMs) const {
    const auto it = m_groups.constFind(group);
    if (it == m_groups.cend() || !it->polled)
        return {};
    return m_commits.lagBackfillRequest(group, it->lastPoll, windowStartMs, m_clock.nowMs());
}

void GroupMonitor::completeLagBackfill(const QString& group, const QList<int64_t>& timesMs,
                                       const QHash<TopicPartition, QList<int64_t>>& logEnds) {
    m_commits.completeLagBackfill(group, tracked(group).lastPoll, timesMs, logEnds);
}

GroupMonitorSnapshot GroupMonitor::snapshot(const QString& group) const {
    GroupMonitorSnapshot result;
    result.group = group;
    result.takenAtMs = m_clock.nowMs();
    result.timeline = m_timeline.timeline(group);
    result.health = m_health.evaluateGroup(group, lastPoll(group));
    result.rebalance = m_rebalances.health(group, &result.timeline);
    QString unusedReason;
    joinRebalanceHealth(result.health.status, unusedReason, result.rebalance);
    if (m_streamState != StreamState::Unavailable) {
        result.timelineSource = TimelineSource::OffsetsTopic;
    } else {
        result.timelineSource = TimelineSource::Polling;
        result.timelineNote = m_streamReason.isEmpty()
                                  ? QStringLiteral("the offsets topic is not read: polling only")
                                  : m_streamReason;
    }
    const auto it = m_groups.constFind(group);
    if (it == m_groups.cend())
        return result;
    result.commits = m_commits.commits(group);
    result.lagBackfill = m_commits.lagTrail(group);
    result.error = it->lastPoll.error;
    if (!it->polled)
        return result;
    const GroupSnapshot& poll = it->lastPoll;
    result.exists = poll.exists();
    result.state = poll.description.state;
    result.memberCount = int(poll.description.members.size());
    result.members = poll.description.members;
    QList<QPair<TopicPartition, int64_t>> committedOffsets;
    bool hasLag = false;
    for (const PartitionSnapshot& partition : poll.partitions) {
        MonitoredPartition row = m_lag.monitoredPartition(group, partition);
        hasLag = hasLag || row.lag.has_value();
        if (row.lag)
            result.totalLag += *row.lag;
        if (row.committedOffset)
            committedOffsets.append({row.topicPartition, *row.committedOffset});
        result.productionRate = addRates(result.productionRate, row.productionRate);
        result.consumptionRate = addRates(result.consumptionRate, row.consumptionRate);
        result.partitions.append(std::move(row));
    }
    result.maxTimeLag = m_lag.maxTimeLag(committedOffsets);
    // No committed offset anywhere: nothing to drain, and "drained" would be a claim.
    if (hasLag)
        result.drain = lag::TimeLagEstimator::drainEstimate(result.totalLag, result.consumptionRate,
                                                            result.productionRate);
    return result;
}

QStringList GroupMonitor::listedGroups() const {
    QStringList names;
    names.reserve(m_groups.size());
    for (auto it = m_groups.cbegin(); it != m_groups.cend(); ++it)
        if (it->polled)
            names.append(it.key());
    names.sort();
    return names;
}

const GroupSnapshot* GroupMonitor::lastPoll(const QString& group) const {
    const auto it = m_groups.constFind(group);
    return it != m_groups.cend() && it->polled ? &it->lastPoll : nullptr;
}

GroupTrend GroupMonitor::trend(const QString& group, const GroupMonitorSnapshot* detail) const {
    GroupTrend trend;
    const GroupSnapshot* poll = lastPoll(group);
    if (detail) {
        trend.maxTimeLag = detail->maxTimeLag;
        trend.rebalance = detail->rebalance;
        trend.lagHealth = lagStatus(detail->health);
        trend.worstPartition = worstPartitionStatus(detail->health);
        trend.partitions = partitionTrends(poll, detail->health, detail);
    } else {
        const lag::GroupHealth health = m_health.evaluateGroup(group, poll);
        trend.lagHealth = health.status;
        trend.worstPartition = worstPartitionStatus(health);
        trend.healthReason = worstPartitionReason(health);
        trend.rebalance = m_rebalances.health(group);
        trend.partitions = partitionTrends(poll, health, nullptr);
        // The worst known time lag, as TimeLagEstimator::maxTimeLag() picks it.
        for (const PartitionTrend& partition : std::as_const(trend.partitions)) {
            const lag::TimeLag timeLag = partition.timeLag();
            if (timeLag.status != lag::TimeLag::Status::Unknown &&
                (trend.maxTimeLag.status == lag::TimeLag::Status::Unknown ||
                 timeLag.seconds > trend.maxTimeLag.seconds))
                trend.maxTimeLag = timeLag;
        }
    }
    if (detail)
        trend.healthReason = worstPartitionReason(detail->health);
    // The list shows the verdict the detail shows: lag's, with rebalance health joined.
    trend.health = trend.lagHealth;
    joinRebalanceHealth(trend.health, trend.healthReason, trend.rebalance);
    trend.recentTotalLag = m_lag.recentTotalLag(group);
    return trend;
}

QList<PartitionTrend> GroupMonitor::partitionTrends(const GroupSnapshot* poll,
                                                    const lag::GroupHealth& health,
                                                    const GroupMonitorSnapshot* detail) const {
    QList<PartitionTrend> partitions;
    if (!poll)
        return partitions;
    QHash<TopicPartition, lag::PartitionStatus> statuses;
    statuses.reserve(health.partitions.size());
    for (const lag::PartitionHealth& partition : health.partitions)
        statuses.insert(partition.topicPartition, partition.status);
    // The detail's rows come from the same poll in the same order: its time lags are these.
    const bool fromDetail = detail && detail->partitions.size() == poll->partitions.size();
    partitions.reserve(poll->partitions.size());
    for (qsizetype i = 0; i < poll->partitions.size(); ++i) {
        const PartitionSnapshot& row = poll->partitions.at(i);
        lag::TimeLag timeLag;
        if (fromDetail)
            timeLag = detail->partitions.at(i).timeLag;
        else if (row.committedOffset)
            timeLag = m_lag.timeLag(row.topicPartition, *row.committedOffset);
        std::optional<lag::PartitionStatus> health;
        if (const auto status = statuses.constFind(row.topicPartition); status != statuses.cend())
            health = *status;
        partitions.append(PartitionTrend(timeLag, health));
    }
    return partitions;
}

QStringList GroupMonitor::groups() const {
    QStringList names = m_groups.keys();
    for (const QString& name : m_timeline.groups())
        if (!m_groups.contains(name))
            names.append(name);
    names.sort();
    return names;
}

} // namespace groupscope::monitor
