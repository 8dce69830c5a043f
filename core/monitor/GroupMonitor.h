#pragma once

#include "lag/Clock.h"
#include "lag/HealthEvaluator.h"
#include "lag/LagBackfill.h"
#include "lag/LagHistory.h"
#include "lag/TimeLagEstimator.h"
#include "monitor/GroupMonitorSnapshot.h"
#include "monitor/GroupSnapshot.h"
#include "monitor/OffsetsTopicRecord.h"
#include "timeline/RebalanceTimeline.h"

#include <QHash>
#include <QStringList>

#include <deque>

namespace groupscope::monitor {

// Combines the two live sources into one view per group: polls (GroupSnapshot, every few
// seconds) and records of the offsets topic (every commit and every generation, exact).
//
// - Lag history and log-end samples for time lag and production rates come from polls.
// - Commits, the consumption rate and the health verdict's commit window come from the
//   offsets topic while it is read; a commit's lag is measured against the newest log
//   end a poll has seen. Without the topic they come from polls (HealthEvaluator's
//   polling mode).
// - Generations come from the topic's group-metadata records, exact; polls then only add
//   the states the records never show (PreparingRebalance). Without the topic, polls infer
//   generations and the timeline is marked approximate. While the topic's history is
//   still being replayed, polls add nothing to the timeline, so an inferred generation
//   never lands ahead of the exact ones on their way.
// - The lag from before the monitor started (the history window) is rebuilt from the
//   replayed commits once the replay is complete (LagBackfill): the session looks up the
//   past log ends the rebuild asks for and hands them back, and every snapshot of the group
//   carries the resulting trail from then on.
//
// Not thread safe: one thread feeds it and reads snapshots (the monitor's worker).
class GroupMonitor {
public:
    enum class StreamState {
        Pending,     // the offsets topic has not been opened yet
        Replaying,   // reading the history window
        Live,        // history replayed; records arrive as they are written
        Unavailable, // cannot be read (or streaming is off): polling only
    };

    struct Options {
        int commitHistoryPerGroup = 2000;
        lag::LagHistoryOptions lagHistory;
        lag::HealthEvaluator::Options health;
        timeline::RebalanceTimeline::Options timeline;
        int64_t lagBackfillStepMs = 30'000;      // spacing of the rebuilt lag's points
        int64_t lagBackfillWindowMs = 3'600'000; // how far back a rebuild may reach
    };

    // What a group's lag rebuild needs: the log end of each partition at each moment.
    struct LagBackfillRequest {
        QList<int64_t> timesMs;
        QList<kafka::TopicPartition> partitions;
    };

    explicit GroupMonitor(const lag::Clock& clock = lag::SystemClock::instance());
    GroupMonitor(const lag::Clock& clock, Options options);

    // `reason` explains Unavailable to the user (e.g. the authorisation error).
    void setStreamState(StreamState state, const QString& reason = {});
    StreamState streamState() const { return m_streamState; }

    void observePoll(const GroupSnapshot& snapshot, int64_t takenAtMs);
    void observeRecord(const OffsetsTopicRecord& record);

    // Groups whose offsets-topic history is replayed and polled, and whose lag rebuild is
    // not done yet. Empty while the topic is replaying, and always when it is unreadable.
    QStringList groupsAwaitingLagBackfill() const;
    LagBackfillRequest lagBackfillRequest(const QString& group, int64_t windowStartMs) const;
    // `logEnds` as ListOffsets-by-timestamp answered for request.timesMs (-1: no record that
    // new, so the log end then was today's). An empty `logEnds` gives up: the group's chart
    // then starts with the live samples.
    void completeLagBackfill(const QString& group, const QList<int64_t>& timesMs,
                             const QHash<kafka::TopicPartition, QList<int64_t>>& logEnds);

    GroupMonitorSnapshot snapshot(const QString& group) const;
    QStringList groups() const;
    const lag::LagHistory& lagHistory() const { return m_lagHistory; }

private:
    struct LogEndSample {
        int64_t offset = -1;
        int64_t timeMs = -1;
    };
    struct PendingCommit {
        kafka::TopicPartition partition;
        int64_t offset = -1;
        int64_t timeMs = -1;
    };
    struct TrackedGroup {
        GroupSnapshot lastPoll;
        int64_t lastPollMs = 0;
        bool polled = false;
        std::deque<CommitHistoryEntry> commits;
        // Commits read before any poll gave their partition's log end.
        std::deque<PendingCommit> commitsAwaitingLogEnd;
        // Replayed commits collect here until the rebuild is done; then only its result is kept.
        std::optional<lag::LagBackfill> backfill;
        bool backfillDone = false;
        lag::LagTrail lagTrail;
    };

    // Commits come from the stream unless it is known to be unreadable: while it is still
    // being opened, polls must not add commits the stream is about to replay exactly.
    bool commitsFromStream() const { return m_streamState != StreamState::Unavailable; }
    TrackedGroup& tracked(const QString& group) { return m_groups[group]; }
    void recordLogEnds(const GroupSnapshot& snapshot, int64_t takenAtMs);
    void recordPolledCommits(TrackedGroup& group, const GroupSnapshot& snapshot, int64_t takenAtMs);
    void observeCommit(const OffsetCommit& commit);
    void feedHealth(const QString& group, const PendingCommit& commit, int64_t logEndOffset);
    void flushCommitsAwaitingLogEnd(const QString& group, TrackedGroup& tracked);
    void appendCommit(TrackedGroup& group, CommitHistoryEntry entry);
    MonitoredPartition monitoredPartition(const QString& group,
                                          const PartitionSnapshot& partition) const;

    const lag::Clock& m_clock;
    Options m_options;
    StreamState m_streamState = StreamState::Pending;
    QString m_streamReason;
    lag::LagHistory m_lagHistory;
    lag::TimeLagEstimator m_timeLag;
    lag::HealthEvaluator m_health;
    timeline::RebalanceTimeline m_timeline;
    QHash<kafka::TopicPartition, LogEndSample> m_logEnds;
    QHash<QString, TrackedGroup> m_groups;
};

} // namespace groupscope::monitor
