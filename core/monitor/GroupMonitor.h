#pragma once

#include "lag/Clock.h"
#include "lag/HealthEvaluator.h"
#include "monitor/CommitHistory.h"
#include "monitor/GroupMonitorSnapshot.h"
#include "monitor/LagSampler.h"
#include "offsetstopic/OffsetsTopicRecord.h"
#include "snapshot/GroupSnapshot.h"
#include "timeline/RebalanceTimeline.h"
#include "timeline/RebalanceTracker.h"

#include <QHash>
#include <QSet>
#include <QStringList>

namespace groupscope::monitor {

// Combines the two live sources into one view per group: polls (GroupSnapshot, every few
// seconds) and records of the offsets topic (every commit and every generation, exact).
// Lag sampling is LagSampler's, the commits and the lag rebuild CommitHistory's; this class
// tracks which groups and partitions live, which are watched, and the timelines.
//
// - Lag history and log-end samples for time lag and production rates come from polls.
// - Commits, the consumption rate and the health verdict's commit window come from the
//   offsets topic while it is read; a commit's lag is measured against the log end at the
//   commit's time, interpolated between the polls around it (a commit newer than the
//   newest poll waits for the next one). Without the topic they come from polls (HealthEvaluator's
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
        lag::LagHistoryOptions lagHistory; // topic and group series
        // Partition series: ten minutes at full resolution and six hours of one-minute
        // buckets, without the topic and group series' week of half-hour buckets. There are
        // thousands of them: with the week they alone took 155 MB for 10,000 partitions, and
        // the monitor went over its 200 MB budget (BenchGroupMonitorMemory).
        lag::LagHistoryOptions partitionLagHistory{300, {{60'000, 360}}};
        lag::HealthEvaluator::Options health;
        timeline::RebalanceTimeline::Options timeline;
        // A group absent (not listed, or Dead) from this many consecutive polls, or a
        // partition missing from this many of its group's polls, is forgotten with all its
        // history, so memory follows the live groups, not every group ever seen. Five polls
        // (10 s at the default interval) ride out a coordinator move, during which
        // ListGroups omits the groups of the partitions still loading, and a failed poll
        // does not count at all.
        int evictAfterAbsentPolls = 5;
        int64_t lagBackfillStepMs = 30'000; // spacing of the rebuilt lag's points
        // How far back a rebuild may reach; also the offsets topic's history window, before
        // which a poll stands in for the generation in force.
        int64_t lagBackfillWindowMs = 3'600'000;
        // Which groups keep the detail a view of one group needs (commit history, rebalance
        // timeline, full lag series, lag rebuild, consumption rates): every group, or only the
        // watched ones. The numbers the group list shows (lag, time lag, health, the
        // sparkline) are kept for every group either way, from the same inputs.
        bool detailForEveryGroup = true;
        int sparklineSamples = 60; // the group list's recent total lag, one per poll
        // When rebalancing is a storm or stuck, for groups without their own thresholds.
        lag::RebalanceThresholds rebalanceThresholds;
    };

    // Where a watched group's detail comes from: the monitor's own offsets-topic records,
    // or a replay of the history window read for this group alone (it became watched after
    // the monitor's stream had passed its history; see observeReplayedRecord()).
    enum class HistorySource { Stream, Replay };

    // What a group's lag rebuild needs: the log end of each partition at each moment.
    using LagBackfillRequest = CommitHistory::LagBackfillRequest;

    explicit GroupMonitor(const lag::Clock& clock = lag::SystemClock::instance());
    GroupMonitor(const lag::Clock& clock, Options options);

    // `reason` explains Unavailable to the user (e.g. the authorisation error).
    void setStreamState(StreamState state, const QString& reason = {});
    StreamState streamState() const { return m_streamState; }

    void observePoll(const GroupSnapshot& snapshot, int64_t takenAtMs);
    void observeRecord(const offsetstopic::OffsetsTopicRecord& record);
    // After a poll of the whole cluster: every tracked group not in `polledGroups` was
    // absent from it (see Options::evictAfterAbsentPolls).
    void observeGroupsAbsentFrom(const QSet<QString>& polledGroups);

    // The user's storm and stuck thresholds per group (others use the Options' ones).
    void setRebalanceThresholds(const QHash<QString, lag::RebalanceThresholds>& thresholds) {
        m_rebalances.setThresholds(thresholds);
    }

    // Topic names for the topic ids that consumer-protocol groups' records use (id -> name),
    // and the ids still without a name: the session looks those up in the cluster's metadata.
    void addTopicNames(const QHash<QString, QString>& namesById) {
        m_timeline.addTopicNames(namesById);
    }
    QStringList unresolvedTopicIds() const { return m_timeline.unresolvedTopicIds(); }

    // Starts keeping `group`'s detail (with detailForEveryGroup off); what it had is dropped,
    // so a replay refills it without doubles. unwatch() drops the detail again.
    void watch(const QString& group, HistorySource source);
    void unwatch(const QString& group);
    bool isWatched(const QString& group) const { return m_watched.contains(group); }
    // A record of the history replayed for a group watched with HistorySource::Replay: it
    // feeds only that group's detail, never the numbers every group has (the monitor's own
    // stream feeds those, so they do not count a record twice).
    void observeReplayedRecord(const offsetstopic::OffsetsTopicRecord& record);
    // The replay has reached the live end: the group's lag rebuild may run.
    void setReplayComplete(const QString& group);

    // Polled groups not evicted, sorted: the rows of the group list. A group missing from a
    // listing stays (with its last good poll) until evicted, so a listing that comes back
    // empty while a broker shuts down or a coordinator moves does not blank the list.
    QStringList listedGroups() const;
    // The last good poll of a group; null when no poll has seen it.
    const GroupSnapshot* lastPoll(const QString& group) const;
    // What the group list shows beside a group's lag. From `detail` when given (the same
    // group's snapshot(), so the list and the detail show one verdict), else computed here
    // the same way.
    GroupTrend trend(const QString& group, const GroupMonitorSnapshot* detail = nullptr) const;

    // What the monitor holds, for the tests and the memory benchmark.
    struct Footprint {
        qsizetype groups = 0; // tracked by polls or commits
        qsizetype timelineGroups = 0;
        qsizetype lagSeries = 0;
        qsizetype logEndTables = 0;     // one per partition
        qsizetype consumptionRates = 0; // one per group and partition
        qsizetype healthGroups = 0;
    };
    Footprint footprint() const;

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
    const lag::LagHistory& lagHistory() const { return m_lag.lagHistory(); }
    void keepSparklines(bool on) { m_lag.keepSparklines(on); }
    const GroupSparklines& sparklines() const { return m_lag.sparklines(); }

private:
    struct TrackedGroup {
        GroupSnapshot lastPoll;
        int64_t lastPollMs = 0;
        bool polled = false;
        int absentPolls = 0; // consecutive polls that found the group absent
        // Partitions earlier polls showed that are missing from the last one, and for how
        // many polls in a row. With the last poll's rows, these are the partitions known to
        // the group (knownPartitions()); a list of its own was 32 MB at 100,000 groups of
        // ten partitions.
        QHash<kafka::TopicPartition, int> absentPartitionPolls;
    };

    // Commits come from the stream unless it is known to be unreadable: while it is still
    // being opened, polls must not add commits the stream is about to replay exactly.
    bool commitsFromStream() const { return m_streamState != StreamState::Unavailable; }
    struct WatchState {
        HistorySource source = HistorySource::Stream;
        bool replayComplete = false;
    };
    bool keepsDetail(const QString& group) const {
        return m_options.detailForEveryGroup || m_watched.contains(group);
    }
    // Whether the monitor's own stream feeds the group's detail (else a replay does).
    bool detailFromStream(const QString& group) const;
    // The stream state that decides what polls add to a watched group's timeline.
    StreamState detailStreamState(const QString& group) const;
    void dropDetail(const QString& group);
    TrackedGroup& tracked(const QString& group) { return m_groups[group]; }
    // Sorted: the last poll's partitions and those missing since.
    static QList<kafka::TopicPartition> knownPartitions(const TrackedGroup& group);
    // Counts the partitions known before and missing from `snapshot`, before it becomes
    // the last poll, and drops those missing too long.
    void trackPartitions(const QString& groupId, TrackedGroup& group,
                         const GroupSnapshot& snapshot);
    void evictGroup(const QString& groupId);
    // The trend's per-partition part of `poll`'s rows: time lag (from `detail` when given)
    // and the verdict in `health`.
    QList<PartitionTrend> partitionTrends(const GroupSnapshot* poll, const lag::GroupHealth& health,
                                          const GroupMonitorSnapshot* detail) const;

    const lag::Clock& m_clock;
    Options m_options;
    StreamState m_streamState = StreamState::Pending;
    QString m_streamReason;
    QHash<QString, WatchState> m_watched;
    LagSampler m_lag;
    lag::ObservedTimeClock m_pollTime; // the health verdicts' "now"
    lag::HealthEvaluator m_health;
    CommitHistory m_commits;
    timeline::RebalanceTimeline m_timeline;
    timeline::RebalanceTracker m_rebalances; // every group's, lean
    QHash<QString, TrackedGroup> m_groups;
    int64_t m_historyStartMs; // where the offsets topic's replay begins
};

} // namespace groupscope::monitor
