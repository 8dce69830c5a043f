#pragma once

#include "lag/Clock.h"
#include "lag/CommitWindow.h"
#include "snapshot/HealthStatus.h"

#include <QHash>

#include <vector>

namespace groupscope::monitor {
struct GroupSnapshot;
}

namespace groupscope::lag {

// Burrow's consumer-health rules over a sliding window of commits per partition.
//
// A partition is OK when its current lag is zero or the lag was zero at any commit in the
// window (a slow topic whose consumer is caught up is healthy even if its offset never
// moves). Otherwise, most severe first: REWIND if an offset went backwards; STOP if the
// time since the last commit exceeds the window's span (the consumer stopped committing);
// STALL if it commits the same offset over and over; WARN if the lag never decreased
// across the window; else OK. A group takes its worst partition's verdict, with STOP,
// STALL and REWIND becoming ERR.
//
// One deliberate difference from Burrow: with a single commit in the window, Burrow's STOP
// rule fires as soon as any time passes (the window's span is zero) and its STALL rule
// holds vacuously. Here a partition needs two commits before those rules apply; until then
// it is OK with complete < 1 and a reason saying why.
class HealthEvaluator {
public:
    using Options = CommitWindowOptions;

    explicit HealthEvaluator(const Clock& clock = SystemClock::instance());
    HealthEvaluator(const Clock& clock, Options options);

    // A commit seen on the offsets topic (or by polling), with the lag it left.
    void observeCommit(const QString& group, const kafka::TopicPartition& partition,
                       const CommitObservation& commit);
    // Polling mode: a partition's commit is recorded when its committed offset changed
    // since the last poll (an unchanged offset is not a new commit as far as polling can
    // tell, so a stalled consumer shows as STOP).
    void observeSnapshot(const monitor::GroupSnapshot& snapshot, int64_t takenAtMs);

    // The verdicts take the current lag (the "lag is zero now" rule) from the group's last
    // poll, which the monitor keeps anyway; without one, or for a partition the poll has no
    // lag for, the newest commit's lag stands in. A group's partitions are those with a commit
    // in their window and those of the poll with a lag.
    PartitionHealth evaluatePartition(const QString& group, const kafka::TopicPartition& partition,
                                      std::optional<int64_t> currentLag = std::nullopt) const;
    GroupHealth evaluateGroup(const QString& group,
                              const monitor::GroupSnapshot* lastPoll = nullptr) const;

    // STOP needs at least this long without a commit, however short the window's span.
    static constexpr int64_t minimumStopSilenceMs = 10'000;

    // The rules themselves, on one window, for the tests and for callers with their own
    // storage.
    static PartitionStatus evaluateCommits(const std::vector<CommitObservation>& commits,
                                           int64_t currentLag, int64_t nowMs,
                                           QString* reason = nullptr);

    void removeGroup(const QString& group) { m_groups.remove(group); }
    void removePartition(const QString& group, const kafka::TopicPartition& partition);
    qsizetype groupCount() const { return m_groups.size(); }

private:
    struct PartitionEntry {
        kafka::TopicPartition partition;
        CommitWindow window;
    };
    // Sorted by partition, one per partition with a commit (a partition of a poll with only a
    // lag has none: at 100,000 idle groups that was 80 MB of entries holding a lag the poll
    // holds too). A vector, not a QMap: a map node per partition was 128 bytes (heaptrack: 128
    // MB at 100,000 groups of ten partitions) where an entry is 96 with the newest commit in
    // it (CommitWindow); a vector grows by a quarter
    // (entryFor), and polls trim what removed partitions leave unused (fitToSize).
    using GroupPartitions = std::vector<PartitionEntry>;

    static void fitToSize(GroupPartitions& partitions);
    PartitionHealth evaluate(const kafka::TopicPartition& partition, const CommitWindow* window,
                             std::optional<int64_t> currentLag) const;

    const Clock& m_clock;
    Options m_options;
    QHash<QString, GroupPartitions> m_groups;
};

} // namespace groupscope::lag
