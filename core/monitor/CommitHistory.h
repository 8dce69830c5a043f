#pragma once

#include "lag/HealthEvaluator.h"
#include "lag/LagBackfill.h"
#include "monitor/GroupMonitorSnapshot.h"
#include "offsetstopic/OffsetsTopicRecord.h"
#include "snapshot/GroupSnapshot.h"

#include <QHash>

#include <optional>
#include <vector>

namespace groupscope::monitor {

class LagSampler;

// GroupMonitor's commits: every group's commits as they come (from the offsets topic, or
// from polls when it cannot be read) feed the consumption rates and the health verdict's
// commit window, each measured against the log end at its own time (a commit newer than
// the newest poll waits for the next one); a group in detail also keeps its commit history
// and, from the replayed history window, the commits its lag rebuild (LagBackfill) needs.
class CommitHistory {
public:
    struct Options {
        int commitsPerGroup = 2000;
        int64_t lagBackfillStepMs = 30'000;
        int64_t lagBackfillWindowMs = 3'600'000;
    };

    CommitHistory(LagSampler& lag, lag::HealthEvaluator& health, const Options& options)
        : m_lag(lag)
        , m_health(health)
        , m_options(options) {}

    // A commit (or tombstone) of the offsets topic; `detail` keeps it in the group's history
    // and its consumption rate.
    void observeCommit(const offsetstopic::OffsetCommit& commit, bool detail);
    // A commit for the group's detail only (a replay of its own history window).
    void recordDetailCommit(const offsetstopic::OffsetCommit& commit);
    // Without the topic, a poll's committed offsets stand in for the commits: those that
    // changed since `previous` (the group's last good poll, null for none). Only for a group
    // in `detail`: the others need nothing from them here (health has its own window).
    void recordPolledCommits(const GroupSnapshot& snapshot, const GroupSnapshot* previous,
                             int64_t takenAtMs, bool detail);
    // A poll brought log ends: commits that waited for one reach the health window.
    void flushCommitsAwaitingLogEnd(const QString& group);

    void dropDetail(const QString& group);
    void removeGroup(const QString& group) { m_groups.remove(group); }

    QList<CommitHistoryEntry> commits(const QString& group) const;
    const lag::LagTrail& lagTrail(const QString& group) const;
    bool isLagBackfillDone(const QString& group) const {
        return m_groups.value(group).backfillDone;
    }
    // The moments and partitions a group's lag rebuild needs log ends for: `lastPoll`'s
    // partitions and the replayed ones, from `windowStartMs` to `nowMs`.
    struct LagBackfillRequest {
        QList<int64_t> timesMs;
        QList<kafka::TopicPartition> partitions;
    };
    LagBackfillRequest lagBackfillRequest(const QString& group, const GroupSnapshot& lastPoll,
                                          int64_t windowStartMs, int64_t nowMs) const;
    // Builds the group's lag trail from the log ends asked for (`logEnds` empty: give up).
    void completeLagBackfill(const QString& group, const GroupSnapshot& lastPoll,
                             const QList<int64_t>& timesMs,
                             const QHash<kafka::TopicPartition, QList<int64_t>>& logEnds);

private:
    struct PendingCommit {
        kafka::TopicPartition partition;
        int64_t offset = -1;
        int64_t timeMs = -1;
    };
    struct GroupCommits {
        std::vector<CommitHistoryEntry> commits;
        // Commits read before any poll gave their partition's log end.
        std::vector<PendingCommit> awaitingLogEnd;
        // Replayed commits collect here until the rebuild is done; then only its result is
        // kept.
        std::optional<lag::LagBackfill> backfill;
        bool backfillDone = false;
        lag::LagTrail lagTrail;
    };

    void append(GroupCommits& group, CommitHistoryEntry entry);
    void feedHealth(const QString& group, const PendingCommit& commit, int64_t logEndOffset);

    LagSampler& m_lag;
    lag::HealthEvaluator& m_health;
    Options m_options;
    QHash<QString, GroupCommits> m_groups;
};

} // namespace groupscope::monitor
