#pragma once

#include "lag/Clock.h"
#include "lag/LagHistory.h"
#include "lag/TimeLagEstimator.h"
#include "monitor/GroupMonitorSnapshot.h"
#include "monitor/GroupSparklines.h"
#include "snapshot/GroupSnapshot.h"

#include <QHash>
#include <QList>

#include <optional>

namespace groupscope::monitor {

// GroupMonitor's lag sampling: what polls say about lag and log ends, kept as series and
// estimates. Lag history per group, topic and partition (for a group in detail), the group
// list's sparkline of every group, the log end of every partition at every poll (for time
// lag, production rates, and a commit's lag at its own time), and the consumption rates
// commits give. A partition's log-end table lives as long as some group uses it.
class LagSampler {
public:
    struct Options {
        lag::LagHistoryOptions lagHistory;          // topic and group series
        lag::LagHistoryOptions partitionLagHistory; // partition series
        int sparklineSamples = 60;                  // the group list's, one per poll
    };

    LagSampler(const lag::Clock& clock, const Options& options);

    // A good poll of a group: its log ends, its sparkline point, and (`detail`) its series.
    void recordPoll(const GroupSnapshot& snapshot, int64_t takenAtMs, bool detail);
    void recordCommittedOffset(const QString& group, const kafka::TopicPartition& partition,
                               int64_t offset, int64_t timeMs) {
        m_timeLag.recordCommittedOffset(group, partition, offset, timeMs);
    }
    // The partition's log end at `timeMs`, interpolated between the polls around it; a poll
    // at or after it still bounds it where the log end went down. None before any poll.
    std::optional<int64_t> logEndOffsetAt(const kafka::TopicPartition& partition,
                                          int64_t timeMs) const;
    // The newest log end a poll has seen; -1 for none.
    int64_t newestLogEnd(const kafka::TopicPartition& partition) const {
        return m_logEnds.value(partition).offset;
    }

    // A group began to use a partition, or stopped (its log-end table goes with the last).
    void usePartition(const kafka::TopicPartition& partition) { ++m_partitionUsers[partition]; }
    void releasePartition(const kafka::TopicPartition& partition);
    // A group's partition is gone: its series (and its topic's, when `topicLeft`).
    void removeGroupPartition(const QString& group, const kafka::TopicPartition& partition,
                              bool topicLeft);
    void removeGroup(const QString& group);
    // The group's detail series only (it is no longer in detail).
    void removeGroupDetail(const QString& group) {
        m_lagHistory.removeGroup(group);
        m_timeLag.removeGroup(group); // its consumption rates
    }

    // A partition row of a group's detail: its position, time lag, rates and drain.
    MonitoredPartition monitoredPartition(const QString& group,
                                          const PartitionSnapshot& partition) const;
    lag::TimeLag timeLag(const kafka::TopicPartition& partition, int64_t committedOffset) const {
        return m_timeLag.timeLag(partition, committedOffset);
    }
    lag::TimeLag maxTimeLag(const QList<QPair<kafka::TopicPartition, int64_t>>& committed) const {
        return m_timeLag.maxTimeLag(committed);
    }
    // The group's total lag at its last polls, oldest first: the list's sparkline. Empty
    // while sparklines are not kept.
    LagSparkline recentTotalLag(const QString& group) const { return m_sparklines.recent(group); }
    // Whether polls add to the sparklines (on by default). Only the GUI's group list shows
    // them: the exporter and the CLI turn them off (about 55 MB at 100,000 groups).
    void keepSparklines(bool on);

    const lag::LagHistory& lagHistory() const { return m_lagHistory; }
    const GroupSparklines& sparklines() const { return m_sparklines; }
    qsizetype logEndTables() const { return m_timeLag.partitionCount(); }
    qsizetype consumptionRates() const { return m_timeLag.consumptionCount(); }

private:
    struct LogEndSample {
        int64_t offset = -1;
        int64_t timeMs = -1;
    };

    lag::LagHistory m_lagHistory;
    GroupSparklines m_sparklines;
    bool m_keepSparklines = true;
    lag::TimeLagEstimator m_timeLag;
    QHash<kafka::TopicPartition, LogEndSample> m_logEnds;
    // How many tracked groups know each partition: its log-end table goes with the last one.
    QHash<kafka::TopicPartition, int> m_partitionUsers;
};

} // namespace groupscope::monitor
