#include "lag/HealthEvaluator.h"

#include "lag/SortedByPartition.h"
#include "snapshot/GroupSnapshot.h"

#include <algorithm>

namespace groupscope::lag {

namespace {

bool lagWasZeroInWindow(const std::vector<CommitObservation>& commits) {
    for (const CommitObservation& commit : commits)
        if (commit.lag == 0)
            return true;
    return false;
}

bool offsetWentBackwards(const std::vector<CommitObservation>& commits) {
    for (size_t i = 1; i < commits.size(); ++i)
        if (commits[i].offset < commits[i - 1].offset)
            return true;
    return false;
}

bool stoppedCommitting(const std::vector<CommitObservation>& commits, int64_t nowMs) {
    const int64_t first = commits.front().timestampMs;
    const int64_t last = commits.back().timestampMs;
    const int64_t silence = nowMs - last;
    // Burrow's rule, with a floor: a window just opened spans a second or two, less than a
    // consumer's commit interval, and judged alone it called a stalled consumer that
    // commits every 1.5 s STOP between two of its commits, then STALL again.
    return silence > last - first && silence >= HealthEvaluator::minimumStopSilenceMs;
}

bool offsetNeverMoved(const std::vector<CommitObservation>& commits) {
    for (size_t i = 1; i < commits.size(); ++i)
        if (commits[i].offset != commits[i - 1].offset)
            return false;
    return true;
}

bool lagNeverDecreased(const std::vector<CommitObservation>& commits) {
    for (size_t i = 1; i < commits.size(); ++i)
        if (commits[i].lag < commits[i - 1].lag)
            return false;
    return true;
}

void explain(QString* reason, const QString& text) {
    if (reason)
        *reason = text;
}

} // namespace

HealthEvaluator::HealthEvaluator(const Clock& clock)
    : HealthEvaluator(clock, Options()) {}

HealthEvaluator::HealthEvaluator(const Clock& clock, Options options)
    : m_clock(clock)
    , m_options(options) {}

PartitionStatus HealthEvaluator::evaluateCommits(const std::vector<CommitObservation>& commits,
                                                 int64_t currentLag, int64_t nowMs,
                                                 QString* reason) {
    if (commits.empty()) {
        explain(reason, QStringLiteral("no commits yet"));
        return PartitionStatus::Ok;
    }
    if (currentLag <= 0) {
        explain(reason, QStringLiteral("no lag"));
        return PartitionStatus::Ok;
    }
    if (lagWasZeroInWindow(commits)) {
        explain(reason, QStringLiteral("lag was zero within the window"));
        return PartitionStatus::Ok;
    }
    if (offsetWentBackwards(commits)) {
        explain(reason, QStringLiteral("the committed offset went backwards"));
        return PartitionStatus::Rewind;
    }
    if (commits.size() < 2) {
        explain(reason, QStringLiteral("one commit so far: not enough to judge"));
        return PartitionStatus::Ok;
    }
    if (stoppedCommitting(commits, nowMs)) {
        explain(reason, QStringLiteral("no commit for longer than the window spans, with lag"));
        return PartitionStatus::Stop;
    }
    if (offsetNeverMoved(commits)) {
        explain(reason, QStringLiteral("committing the same offset while lag remains"));
        return PartitionStatus::Stall;
    }
    if (lagNeverDecreased(commits)) {
        explain(reason, QStringLiteral("lag did not decrease across the window"));
        return PartitionStatus::Warning;
    }
    explain(reason, QStringLiteral("consuming"));
    return PartitionStatus::Ok;
}

HealthEvaluator::PartitionState& HealthEvaluator::state(const QString& group,
                                                        const kafka::TopicPartition& partition) {
    return entryFor(m_groups[group], partition).state;
}

const HealthEvaluator::PartitionState*
HealthEvaluator::find(const GroupPartitions& partitions, const kafka::TopicPartition& partition) {
    const PartitionEntry* entry = findByPartition(partitions, partition);
    return entry ? &entry->state : nullptr;
}

void HealthEvaluator::fitToSize(GroupPartitions& partitions) {
    // A quarter unused at most. Growing keeps to that already (entryFor), so this trims only
    // a group whose partitions went (removePartition), which is rare.
    if (partitions.capacity() - partitions.size() > partitions.size() / 4)
        partitions.shrink_to_fit();
}

void HealthEvaluator::observeCommit(const QString& group, const kafka::TopicPartition& partition,
                                    const CommitObservation& commit) {
    state(group, partition).window.add(commit, m_options);
}

void HealthEvaluator::setCurrentLag(const QString& group, const kafka::TopicPartition& partition,
                                    int64_t currentLag) {
    state(group, partition).currentLag = currentLag;
}

void HealthEvaluator::setCurrentLags(const monitor::GroupSnapshot& snapshot) {
    for (const monitor::PartitionSnapshot& partition : snapshot.partitions)
        if (const auto lag = partition.lagToConsume())
            setCurrentLag(snapshot.groupId(), partition.topicPartition, *lag);
    if (const auto it = m_groups.find(snapshot.groupId()); it != m_groups.end())
        fitToSize(*it);
}

void HealthEvaluator::observeSnapshot(const monitor::GroupSnapshot& snapshot, int64_t takenAtMs) {
    for (const monitor::PartitionSnapshot& partition : snapshot.partitions) {
        const std::optional<int64_t> lag = partition.lagToConsume();
        if (!partition.committedOffset || !lag)
            continue;
        PartitionState& partitionState = state(snapshot.groupId(), partition.topicPartition);
        partitionState.currentLag = *lag;
        const auto& commits = partitionState.window.commits();
        if (commits.empty() || commits.back().offset != *partition.committedOffset)
            partitionState.window.add({*partition.committedOffset, *lag, takenAtMs}, m_options);
    }
    if (const auto it = m_groups.find(snapshot.groupId()); it != m_groups.end())
        fitToSize(*it);
}

void HealthEvaluator::removePartition(const QString& group,
                                      const kafka::TopicPartition& partition) {
    eraseGroupPartition(m_groups, group, partition);
}

PartitionHealth HealthEvaluator::evaluate(const kafka::TopicPartition& partition,
                                          const PartitionState& state) const {
    PartitionHealth health;
    health.topicPartition = partition;
    const auto& commits = state.window.commits();
    health.complete = state.window.complete(m_options);
    if (!commits.empty()) {
        health.start = commits.front();
        health.end = commits.back();
    }
    // Without a log-end reading yet, the newest commit's own lag is the best we know.
    health.currentLag = state.currentLag;
    if (!health.currentLag && !commits.empty())
        health.currentLag = commits.back().lag;
    health.status =
        evaluateCommits(commits, health.currentLag.value_or(0), m_clock.nowMs(), &health.reason);
    return health;
}

PartitionHealth HealthEvaluator::evaluatePartition(const QString& group,
                                                   const kafka::TopicPartition& partition) const {
    const auto groupIt = m_groups.constFind(group);
    if (groupIt != m_groups.cend())
        if (const PartitionState* state = find(*groupIt, partition))
            return evaluate(partition, *state);
    PartitionHealth unknown;
    unknown.topicPartition = partition;
    unknown.reason = QStringLiteral("no commits yet");
    return unknown;
}

GroupHealth HealthEvaluator::evaluateGroup(const QString& group) const {
    GroupHealth health;
    health.group = group;
    const auto groupIt = m_groups.constFind(group);
    if (groupIt == m_groups.cend() || groupIt->empty())
        return health; // NotFound
    health.status = GroupStatus::Ok;
    int completePartitions = 0;
    for (const PartitionEntry& entry : *groupIt) {
        PartitionHealth partition = evaluate(entry.partition, entry.state);
        const int64_t lag = partition.currentLag.value_or(0);
        health.totalLag += std::max<int64_t>(0, lag);
        if (!health.maxLag || lag > health.maxLag->currentLag.value_or(0))
            health.maxLag = partition;
        if (partition.complete >= 1.0)
            ++completePartitions;
        if (partition.status == PartitionStatus::Warning && health.status == GroupStatus::Ok)
            health.status = GroupStatus::Warning;
        else if (partition.status > PartitionStatus::Warning)
            health.status = GroupStatus::Error;
        health.partitions.append(std::move(partition));
    }
    health.complete = double(completePartitions) / double(health.partitions.size());
    return health;
}

} // namespace groupscope::lag
