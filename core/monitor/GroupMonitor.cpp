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

lag::LagHistoryOptions sparklineOptions(int samples) {
    lag::LagHistoryOptions options;
    options.rawSampleCount = samples;
    options.tiers.clear();
    return options;
}

std::optional<double> addRates(std::optional<double> sum, std::optional<double> rate) {
    if (!rate)
        return sum;
    return sum.value_or(0.0) + *rate;
}

} // namespace

GroupMonitor::GroupMonitor(const lag::Clock& clock)
    : GroupMonitor(clock, Options()) {}

GroupMonitor::GroupMonitor(const lag::Clock& clock, Options options)
    : m_clock(clock)
    , m_options(std::move(options))
    , m_lagHistory(clock, m_options.lagHistory, m_options.partitionLagHistory)
    , m_sparklines(clock, sparklineOptions(m_options.sparklineSamples))
    , m_timeLag(clock)
    , m_pollTime(clock)
    , m_health(m_pollTime, m_options.health)
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
    recordLogEnds(snapshot, takenAtMs);
    const bool detail = keepsDetail(snapshot.groupId());
    if (detail)
        m_lagHistory.recordSnapshot(snapshot, takenAtMs);
    if (std::any_of(snapshot.partitions.cbegin(), snapshot.partitions.cend(),
                    [](const PartitionSnapshot& partition) { return partition.lag.has_value(); }))
        m_sparklines.record(lag::LagSeriesKey::forGroup(snapshot.groupId()), snapshot.totalLag(),
                            takenAtMs);
    if (commitsFromStream()) {
        for (const PartitionSnapshot& partition : snapshot.partitions)
            if (const auto lag = partition.lagToConsume())
                m_health.setCurrentLag(snapshot.groupId(), partition.topicPartition, *lag);
        flushCommitsAwaitingLogEnd(snapshot.groupId(), group);
    } else {
        m_health.observeSnapshot(snapshot, takenAtMs);
        recordPolledCommits(group, snapshot, takenAtMs, detail);
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

void GroupMonitor::trackPartitions(const QString& groupId, TrackedGroup& group,
                                   const GroupSnapshot& snapshot) {
    QList<TopicPartition> present;
    present.reserve(snapshot.partitions.size());
    for (const PartitionSnapshot& partition : snapshot.partitions)
        present.append(partition.topicPartition);
    if (!std::is_sorted(present.cbegin(), present.cend()))
        std::sort(present.begin(), present.end());
    if (present == group.knownPartitions && group.absentPartitionPolls.isEmpty())
        return; // the common case: the same partitions as before
    const auto contains = [](const QList<TopicPartition>& sorted, const TopicPartition& tp) {
        return std::binary_search(sorted.cbegin(), sorted.cend(), tp);
    };
    for (const TopicPartition& partition : std::as_const(present)) {
        const auto at =
            std::lower_bound(group.knownPartitions.begin(), group.knownPartitions.end(), partition);
        if (at != group.knownPartitions.end() && *at == partition)
            continue;
        group.knownPartitions.insert(at, partition);
        ++m_partitionUsers[partition];
    }
    QList<TopicPartition> dropped;
    for (const TopicPartition& partition : std::as_const(group.knownPartitions)) {
        if (contains(present, partition))
            group.absentPartitionPolls.remove(partition);
        else if (++group.absentPartitionPolls[partition] >= m_options.evictAfterAbsentPolls)
            dropped.append(partition);
    }
    for (const TopicPartition& partition : dropped)
        dropGroupPartition(groupId, group, partition);
}

void GroupMonitor::dropGroupPartition(const QString& groupId, TrackedGroup& group,
                                      const TopicPartition& partition) {
    group.knownPartitions.removeOne(partition);
    group.absentPartitionPolls.remove(partition);
    m_health.removePartition(groupId, partition);
    m_timeLag.removeGroupPartition(groupId, partition);
    m_lagHistory.remove(lag::LagSeriesKey::forPartition(groupId, partition));
    const bool topicLeft = std::none_of(
        group.knownPartitions.cbegin(), group.knownPartitions.cend(),
        [&partition](const TopicPartition& known) { return known.topic == partition.topic; });
    if (topicLeft)
        m_lagHistory.remove(lag::LagSeriesKey::forTopic(groupId, partition.topic));
    releasePartition(partition);
}

void GroupMonitor::releasePartition(const TopicPartition& partition) {
    const auto users = m_partitionUsers.find(partition);
    if (users == m_partitionUsers.end() || --users.value() > 0)
        return;
    m_partitionUsers.erase(users);
    m_logEnds.remove(partition);
    m_timeLag.removePartition(partition);
}

void GroupMonitor::evictGroup(const QString& groupId) {
    const auto it = m_groups.find(groupId);
    if (it != m_groups.end()) {
        for (const TopicPartition& partition : std::as_const(it->knownPartitions))
            releasePartition(partition);
        m_groups.erase(it);
    }
    m_lagHistory.removeGroup(groupId);
    m_sparklines.removeGroup(groupId);
    m_timeLag.removeGroup(groupId);
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
    footprint.lagSeries = m_lagHistory.seriesCount();
    footprint.logEndTables = m_timeLag.partitionCount();
    footprint.consumptionRates = m_timeLag.consumptionCount();
    footprint.healthGroups = m_health.groupCount();
    return footprint;
}

void GroupMonitor::recordLogEnds(const GroupSnapshot& snapshot, int64_t takenAtMs) {
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
}

void GroupMonitor::recordPolledCommits(TrackedGroup& group, const GroupSnapshot& snapshot,
                                       int64_t takenAtMs, bool detail) {
    // The previous poll's commits, to tell the detail's commit history which are new: only
    // for a group in detail (the open one), not for the 10,000 in the list. std::as_const:
    // lastPoll's partitions are shared with the view on screen, and a non-const loop would
    // copy them all.
    QHash<TopicPartition, int64_t> previous;
    if (group.polled && detail)
        for (const PartitionSnapshot& partition : std::as_const(group.lastPoll.partitions))
            if (partition.committedOffset)
                previous.insert(partition.topicPartition, *partition.committedOffset);
    for (const PartitionSnapshot& partition : snapshot.partitions) {
        if (!partition.committedOffset)
            continue;
        m_timeLag.recordCommittedOffset(snapshot.groupId(), partition.topicPartition,
                                        *partition.committedOffset, takenAtMs);
        const auto before = previous.constFind(partition.topicPartition);
        if (detail && (before == previous.cend() || *before != *partition.committedOffset))
            appendCommit(group, {partition.topicPartition, *partition.committedOffset, takenAtMs,
                                 partition.commitMetadata, false});
    }
}

void GroupMonitor::observeRecord(const OffsetsTopicRecord& record) {
    if (const auto* commit = std::get_if<OffsetCommit>(&record)) {
        observeCommit(*commit);
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
        if (isWatched(commit->group) && !detailFromStream(commit->group))
            recordDetailCommit(commit->group, *commit);
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

void GroupMonitor::recordDetailCommit(const QString& groupId, const OffsetCommit& commit) {
    TrackedGroup& group = tracked(groupId);
    if (commit.isTombstone) {
        appendCommit(group, {commit.topicPartition, -1, commit.recordTimestamp, {}, true});
        return;
    }
    const int64_t timeMs =
        commit.commitTimestamp >= 0 ? commit.commitTimestamp : commit.recordTimestamp;
    appendCommit(group, {commit.topicPartition, commit.offset, timeMs, commit.metadata, false});
    // Live commits count too until the rebuild is done: a group first seen after the replay
    // must not pretend its offsets stood still.
    if (!group.backfillDone) {
        if (!group.backfill)
            group.backfill.emplace(m_options.lagBackfillStepMs, m_options.lagBackfillWindowMs);
        group.backfill->recordCommit(commit.topicPartition, commit.offset, timeMs);
    }
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
    m_lagHistory.removeGroup(groupId);
    const auto it = m_groups.find(groupId);
    if (it == m_groups.end())
        return;
    it->commits.clear();
    it->backfill.reset();
    it->backfillDone = false;
    it->lagTrail = {};
}

void GroupMonitor::observeCommit(const OffsetCommit& commit) {
    TrackedGroup& group = tracked(commit.group);
    if (detailFromStream(commit.group))
        recordDetailCommit(commit.group, commit);
    if (commit.isTombstone)
        return;
    const int64_t timeMs =
        commit.commitTimestamp >= 0 ? commit.commitTimestamp : commit.recordTimestamp;
    m_timeLag.recordCommittedOffset(commit.group, commit.topicPartition, commit.offset, timeMs);
    // Commits reach the health window in order: behind any that still wait for a log end.
    const PendingCommit pending{commit.topicPartition, commit.offset, timeMs};
    if (group.commitsAwaitingLogEnd.empty()) {
        if (const auto logEnd = logEndOffsetAt(pending.partition, pending.timeMs)) {
            feedHealth(commit.group, pending, *logEnd);
            return;
        }
    }
    group.commitsAwaitingLogEnd.push_back(pending);
    if (const auto excess =
            int(group.commitsAwaitingLogEnd.size()) - m_options.commitHistoryPerGroup;
        excess > 0)
        group.commitsAwaitingLogEnd.erase(group.commitsAwaitingLogEnd.begin(),
                                          group.commitsAwaitingLogEnd.begin() + excess);
}

std::optional<int64_t> GroupMonitor::logEndOffsetAt(const TopicPartition& partition,
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

void GroupMonitor::feedHealth(const QString& group, const PendingCommit& commit,
                              int64_t logEndOffset) {
    const int64_t lag = std::max<int64_t>(0, logEndOffset - commit.offset);
    m_health.observeCommit(group, commit.partition, {commit.offset, lag, commit.timeMs});
}

void GroupMonitor::flushCommitsAwaitingLogEnd(const QString& group, TrackedGroup& tracked) {
    std::vector<PendingCommit> stillWaiting;
    QSet<TopicPartition> blocked; // a partition's later commits wait behind its earlier ones
    for (const PendingCommit& commit : tracked.commitsAwaitingLogEnd) {
        std::optional<int64_t> logEnd;
        if (!blocked.contains(commit.partition))
            logEnd = logEndOffsetAt(commit.partition, commit.timeMs);
        if (logEnd) {
            feedHealth(group, commit, *logEnd);
        } else {
            blocked.insert(commit.partition);
            stillWaiting.push_back(commit);
        }
    }
    tracked.commitsAwaitingLogEnd = std::move(stillWaiting);
}

void GroupMonitor::appendCommit(TrackedGroup& group, CommitHistoryEntry entry) {
    group.commits.push_back(std::move(entry));
    if (const auto excess = int(group.commits.size()) - m_options.commitHistoryPerGroup; excess > 0)
        group.commits.erase(group.commits.begin(), group.commits.begin() + excess);
}

MonitoredPartition GroupMonitor::monitoredPartition(const QString& group,
                                                    const PartitionSnapshot& partition) const {
    MonitoredPartition row;
    row.setPosition(partition);
    row.memberId = partition.memberId;
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

QStringList GroupMonitor::groupsAwaitingLagBackfill() const {
    QStringList names;
    if (m_streamState != StreamState::Live)
        return names;
    for (auto it = m_groups.cbegin(); it != m_groups.cend(); ++it) {
        if (!it->polled || it->backfillDone || !keepsDetail(it.key()))
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
    LagBackfillRequest request;
    const auto it = m_groups.constFind(group);
    if (it == m_groups.cend() || !it->polled)
        return request;
    const lag::LagBackfill empty(m_options.lagBackfillStepMs);
    const lag::LagBackfill& backfill = it->backfill ? *it->backfill : empty;
    // Up to now: where the rebuilt points and the live samples overlap, a chart keeps the
    // live ones.
    request.timesMs = backfill.sampleTimes(windowStartMs, m_clock.nowMs());
    for (const PartitionSnapshot& partition : it->lastPoll.partitions)
        request.partitions.append(partition.topicPartition);
    for (const TopicPartition& partition : backfill.replayedPartitions())
        if (!request.partitions.contains(partition))
            request.partitions.append(partition);
    return request;
}

void GroupMonitor::completeLagBackfill(const QString& group, const QList<int64_t>& timesMs,
                                       const QHash<TopicPartition, QList<int64_t>>& logEnds) {
    TrackedGroup& tracked = this->tracked(group);
    tracked.backfillDone = true;
    const std::optional<lag::LagBackfill> backfill = std::exchange(tracked.backfill, std::nullopt);
    if (logEnds.isEmpty())
        return;
    QHash<TopicPartition, int64_t> currentCommitted;
    for (const PartitionSnapshot& partition : tracked.lastPoll.partitions)
        if (partition.committedOffset)
            currentCommitted.insert(partition.topicPartition, *partition.committedOffset);
    // "No record at or after t" means every record was written before t: the log end then
    // was the newest one a poll has seen.
    QHash<TopicPartition, QList<int64_t>> resolved = logEnds;
    for (auto it = resolved.begin(); it != resolved.end(); ++it) {
        const int64_t newest = m_logEnds.value(it.key()).offset;
        for (int64_t& offset : it.value())
            if (offset < 0)
                offset = newest;
    }
    const lag::LagBackfill none(m_options.lagBackfillStepMs);
    tracked.lagTrail = (backfill ? *backfill : none).build(timesMs, resolved, currentCommitted);
}

GroupMonitorSnapshot GroupMonitor::snapshot(const QString& group) const {
    GroupMonitorSnapshot result;
    result.group = group;
    result.takenAtMs = m_clock.nowMs();
    result.timeline = m_timeline.timeline(group);
    result.health = m_health.evaluateGroup(group);
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
    result.commits = QList<CommitHistoryEntry>(it->commits.cbegin(), it->commits.cend());
    result.lagBackfill = it->lagTrail;
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
        MonitoredPartition row = monitoredPartition(group, partition);
        hasLag = hasLag || row.lag.has_value();
        if (row.lag)
            result.totalLag += *row.lag;
        if (row.committedOffset)
            committedOffsets.append({row.topicPartition, *row.committedOffset});
        result.productionRate = addRates(result.productionRate, row.productionRate);
        result.consumptionRate = addRates(result.consumptionRate, row.consumptionRate);
        result.partitions.append(std::move(row));
    }
    result.maxTimeLag = m_timeLag.maxTimeLag(committedOffsets);
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
        const lag::GroupHealth health = m_health.evaluateGroup(group);
        trend.lagHealth = health.status;
        trend.worstPartition = worstPartitionStatus(health);
        trend.healthReason = worstPartitionReason(health);
        trend.rebalance = m_rebalances.health(group);
        trend.partitions = partitionTrends(poll, health, nullptr);
        // The worst known time lag, as TimeLagEstimator::maxTimeLag() picks it.
        for (const PartitionTrend& partition : std::as_const(trend.partitions)) {
            const lag::TimeLag& timeLag = partition.timeLag;
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
    const auto points =
        m_sparklines.points(lag::LagSeriesKey::forGroup(group), std::numeric_limits<int64_t>::min(),
                            std::numeric_limits<int64_t>::max());
    trend.recentTotalLag.reserve(points.size());
    for (const lag::LagHistoryPoint& point : points)
        trend.recentTotalLag.append(qint64(point.last));
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
        PartitionTrend partition;
        if (fromDetail)
            partition.timeLag = detail->partitions.at(i).timeLag;
        else if (row.committedOffset)
            partition.timeLag = m_timeLag.timeLag(row.topicPartition, *row.committedOffset);
        if (const auto status = statuses.constFind(row.topicPartition); status != statuses.cend())
            partition.health = *status;
        partitions.append(partition);
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
