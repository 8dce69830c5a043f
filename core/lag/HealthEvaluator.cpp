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

void HealthEvaluator::fitToSize(GroupPartitions& partitions) {
    // A quarter unused at most. Growing keeps to that already (entryFor), so this trims only
    // a group whose partitions went (removePartition), which is rare.
    if (partitions.capacity() - partitions.size() > partitions.size() / 4)
        partitions.shrink_to_fit();
}

void HealthEvaluator::observeCommit(const QString& group, const kafka::TopicPartition& partition,
                                    const CommitObservation& commit) {
    entryFor(m_groups[group], partition).window.add(commit, m_options);
}

void HealthEvaluator::observeSnapshot(const monitor::GroupSnapshot& snapshot, int64_t takenAtMs) {
    GroupPartitions* partitions = nullptr;
    for (const monitor::PartitionSnapshot& partition : snapshot.partitions) {
        const std::optional<int64_t> lag = partition.lagToConsume();
        if (!partition.committedOffset || !lag)
            continue;
        if (!partitions)
            partitions = &m_groups[snapshot.groupId()];
        CommitWindow& window = entryFor(*partitions, partition.topicPartition).window;
        if (window.isEmpty() || window.newest().offset != *partition.committedOffset)
            window.add({*partition.committedOffset, *lag, takenAtMs}, m_options);
    }
    if (partitions)
        fitToSize(*partitions);
}

void HealthEvaluator::removePartition(const QString& group,
                                      const kafka::TopicPartition& partition) {
    eraseGroupPartition(m_groups, group, partition);
}

PartitionHealth HealthEvaluator::evaluate(const kafka::TopicPartition& partition,
                                          const CommitWindow* window,
                                          std::optional<int64_t> currentLag) const {
    static const CommitWindow noCommits;
    const CommitWindow& commitWindow = window ? *window : noCommits;
    PartitionHealth health;
    health.topicPartition = partition;
    const std::vector<CommitObservation> commits = commitWindow.commits();
    health.complete = commitWindow.complete(m_options);
    if (!commits.empty()) {
        health.start = commits.front();
        health.end = commits.back();
    }
    // Without a log-end reading yet, the newest commit's own lag is the best we know.
    health.currentLag = currentLag;
    if (!health.currentLag && !commits.empty())
        health.currentLag = commits.back().lag;
    health.status =
        evaluateCommits(commits, health.currentLag.value_or(0), m_clock.nowMs(), &health.reason);
    return health;
}

PartitionHealth HealthEvaluator::evaluatePartition(const QString& group,
                                                   const kafka::TopicPartition& partition,
                                                   std::optional<int64_t> currentLag) const {
    const PartitionEntry* entry = nullptr;
    if (const auto groupIt = m_groups.constFind(group); groupIt != m_groups.cend())
        entry = findByPartition(*groupIt, partition);
    return evaluate(partition, entry ? &entry->window : nullptr, currentLag);
}

GroupHealth HealthEvaluator::evaluateGroup(const QString& group,
                                           const monitor::GroupSnapshot* lastPoll) const {
    GroupHealth health;
    health.group = group;
    static const GroupPartitions noPartitions;
    const auto groupIt = m_groups.constFind(group);
    const GroupPartitions& windows = groupIt != m_groups.cend() ? *groupIt : noPartitions;
    // The poll's partitions with a lag, each with its window if it has one; then the windows
    // of partitions the poll has no lag for.
    std::vector<bool> judged(windows.size(), false);
    if (lastPoll)
        for (const monitor::PartitionSnapshot& partition : lastPoll->partitions) {
            const std::optional<int64_t> lag = partition.lagToConsume();
            if (!lag)
                continue;
            const PartitionEntry* entry = findByPartition(windows, partition.topicPartition);
            if (entry)
                judged[size_t(entry - windows.data())] = true;
            health.partitions.append(
                evaluate(partition.topicPartition, entry ? &entry->window : nullptr, lag));
        }
    for (size_t i = 0; i < windows.size(); ++i)
        if (!judged[i])
            health.partitions.append(evaluate(windows[i].partition, &windows[i].window, {}));
    if (health.partitions.isEmpty())
        return health; // NotFound
    std::sort(health.partitions.begin(), health.partitions.end(),
              [](const PartitionHealth& a, const PartitionHealth& b) {
                  return a.topicPartition < b.topicPartition;
              });
    health.status = GroupStatus::Ok;
    int completePartitions = 0;
    for (const PartitionHealth& partition : std::as_const(health.partitions)) {
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
    }
    health.complete = double(completePartitions) / double(health.partitions.size());
    return health;
}

} // namespace groupscope::lag
