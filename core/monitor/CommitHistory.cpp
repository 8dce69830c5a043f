#include "monitor/CommitHistory.h"

#include "monitor/LagSampler.h"

#include <QSet>

#include <utility>

namespace groupscope::monitor {

using kafka::TopicPartition;
using offsetstopic::OffsetCommit;

namespace {

int64_t timeOf(const OffsetCommit& commit) {
    return commit.commitTimestamp >= 0 ? commit.commitTimestamp : commit.recordTimestamp;
}

} // namespace

void CommitHistory::observeCommit(const OffsetCommit& commit, bool detail) {
    if (detail)
        recordDetailCommit(commit);
    if (commit.isTombstone)
        return;
    GroupCommits& group = m_groups[commit.group];
    const int64_t timeMs = timeOf(commit);
    if (detail) // only a group's detail shows its consumption rate
        m_lag.recordCommittedOffset(commit.group, commit.topicPartition, commit.offset, timeMs);
    // Commits reach the health window in order: behind any that still wait for a log end.
    const PendingCommit pending{commit.topicPartition, commit.offset, timeMs};
    if (group.awaitingLogEnd.empty()) {
        if (const auto logEnd = m_lag.logEndOffsetAt(pending.partition, pending.timeMs)) {
            feedHealth(commit.group, pending, *logEnd);
            return;
        }
    }
    group.awaitingLogEnd.push_back(pending);
    if (const auto excess = int(group.awaitingLogEnd.size()) - m_options.commitsPerGroup;
        excess > 0)
        group.awaitingLogEnd.erase(group.awaitingLogEnd.begin(),
                                   group.awaitingLogEnd.begin() + excess);
}

void CommitHistory::recordDetailCommit(const OffsetCommit& commit) {
    GroupCommits& group = m_groups[commit.group];
    if (commit.isTombstone) {
        append(group, {commit.topicPartition, -1, commit.recordTimestamp, {}, true});
        return;
    }
    const int64_t timeMs = timeOf(commit);
    append(group, {commit.topicPartition, commit.offset, timeMs, commit.metadata, false});
    // Live commits count too until the rebuild is done: a group first seen after the replay
    // must not pretend its offsets stood still.
    if (!group.backfillDone) {
        if (!group.backfill)
            group.backfill.emplace(m_options.lagBackfillStepMs, m_options.lagBackfillWindowMs);
        group.backfill->recordCommit(commit.topicPartition, commit.offset, timeMs);
    }
}

void CommitHistory::recordPolledCommits(const GroupSnapshot& snapshot,
                                        const GroupSnapshot* previousPoll, int64_t takenAtMs,
                                        bool detail) {
    // Only a group in detail (the open one) keeps its commit history and consumption rates:
    // not the 100,000 in the list. A window of consumption rates for every partition of
    // every group was 160 MB at 100,000 groups of ten partitions (heaptrack of
    // BenchGuiTenThousandGroups), read for the open group alone.
    if (!detail)
        return;
    // The previous poll's commits, to tell the commit history which are new. std::as_const:
    // the poll's partitions are shared with the view on screen, and a non-const loop would
    // copy them all.
    QHash<TopicPartition, int64_t> previous;
    if (previousPoll)
        for (const PartitionSnapshot& partition : std::as_const(previousPoll->partitions))
            if (partition.committedOffset)
                previous.insert(partition.topicPartition, *partition.committedOffset);
    for (const PartitionSnapshot& partition : snapshot.partitions) {
        if (!partition.committedOffset)
            continue;
        m_lag.recordCommittedOffset(snapshot.groupId(), partition.topicPartition,
                                    *partition.committedOffset, takenAtMs);
        const auto before = previous.constFind(partition.topicPartition);
        if (before == previous.cend() || *before != *partition.committedOffset)
            append(m_groups[snapshot.groupId()],
                   {partition.topicPartition, *partition.committedOffset, takenAtMs,
                    partition.commitMetadata, false});
    }
}

void CommitHistory::flushCommitsAwaitingLogEnd(const QString& groupId) {
    const auto group = m_groups.find(groupId);
    if (group == m_groups.end() || group->awaitingLogEnd.empty())
        return;
    std::vector<PendingCommit> stillWaiting;
    QSet<TopicPartition> blocked; // a partition's later commits wait behind its earlier ones
    for (const PendingCommit& commit : group->awaitingLogEnd) {
        std::optional<int64_t> logEnd;
        if (!blocked.contains(commit.partition))
            logEnd = m_lag.logEndOffsetAt(commit.partition, commit.timeMs);
        if (logEnd) {
            feedHealth(groupId, commit, *logEnd);
        } else {
            blocked.insert(commit.partition);
            stillWaiting.push_back(commit);
        }
    }
    group->awaitingLogEnd = std::move(stillWaiting);
}

void CommitHistory::feedHealth(const QString& group, const PendingCommit& commit,
                               int64_t logEndOffset) {
    const int64_t lag = std::max<int64_t>(0, logEndOffset - commit.offset);
    m_health.observeCommit(group, commit.partition, {commit.offset, lag, commit.timeMs});
}

void CommitHistory::append(GroupCommits& group, CommitHistoryEntry entry) {
    group.commits.push_back(std::move(entry));
    if (const auto excess = int(group.commits.size()) - m_options.commitsPerGroup; excess > 0)
        group.commits.erase(group.commits.begin(), group.commits.begin() + excess);
}

void CommitHistory::dropDetail(const QString& groupId) {
    const auto group = m_groups.find(groupId);
    if (group == m_groups.end())
        return;
    group->commits.clear();
    group->backfill.reset();
    group->backfillDone = false;
    group->lagTrail = {};
}

QList<CommitHistoryEntry> CommitHistory::commits(const QString& groupId) const {
    const auto group = m_groups.constFind(groupId);
    if (group == m_groups.cend())
        return {};
    return QList<CommitHistoryEntry>(group->commits.cbegin(), group->commits.cend());
}

const lag::LagTrail& CommitHistory::lagTrail(const QString& groupId) const {
    static const lag::LagTrail none;
    const auto group = m_groups.constFind(groupId);
    return group == m_groups.cend() ? none : group->lagTrail;
}

CommitHistory::LagBackfillRequest CommitHistory::lagBackfillRequest(const QString& groupId,
                                                                    const GroupSnapshot& lastPoll,
                                                                    int64_t windowStartMs,
                                                                    int64_t nowMs) const {
    LagBackfillRequest request;
    const lag::LagBackfill empty(m_options.lagBackfillStepMs);
    const auto group = m_groups.constFind(groupId);
    const lag::LagBackfill& backfill =
        group != m_groups.cend() && group->backfill ? *group->backfill : empty;
    // Up to now: where the rebuilt points and the live samples overlap, a chart keeps the
    // live ones.
    request.timesMs = backfill.sampleTimes(windowStartMs, nowMs);
    for (const PartitionSnapshot& partition : lastPoll.partitions)
        request.partitions.append(partition.topicPartition);
    for (const TopicPartition& partition : backfill.replayedPartitions())
        if (!request.partitions.contains(partition))
            request.partitions.append(partition);
    return request;
}

void CommitHistory::completeLagBackfill(const QString& groupId, const GroupSnapshot& lastPoll,
                                        const QList<int64_t>& timesMs,
                                        const QHash<TopicPartition, QList<int64_t>>& logEnds) {
    GroupCommits& group = m_groups[groupId];
    group.backfillDone = true;
    const std::optional<lag::LagBackfill> backfill = std::exchange(group.backfill, std::nullopt);
    if (logEnds.isEmpty())
        return;
    QHash<TopicPartition, int64_t> currentCommitted;
    for (const PartitionSnapshot& partition : lastPoll.partitions)
        if (partition.committedOffset)
            currentCommitted.insert(partition.topicPartition, *partition.committedOffset);
    // "No record at or after t" means every record was written before t: the log end then
    // was the newest one a poll has seen.
    QHash<TopicPartition, QList<int64_t>> resolved = logEnds;
    for (auto it = resolved.begin(); it != resolved.end(); ++it) {
        const int64_t newest = m_lag.newestLogEnd(it.key());
        for (int64_t& offset : it.value())
            if (offset < 0)
                offset = newest;
    }
    const lag::LagBackfill none(m_options.lagBackfillStepMs);
    group.lagTrail = (backfill ? *backfill : none).build(timesMs, resolved, currentCommitted);
}

} // namespace groupscope::monitor
