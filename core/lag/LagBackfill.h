#pragma once

#include "kafka/TopicPartition.h"
#include "lag/LagTrail.h"

#include <QHash>
#include <QList>

#include <cstdint>
#include <map>

namespace groupscope::lag {

// Reconstructs a group's lag before the monitor started, so a chart opens with the history
// window already drawn instead of an empty axis.
//
// The offsets topic's replay gives every commit of the window with its time, so the
// committed offset of each partition is known at any past moment after its first replayed
// commit. The log end at a past moment t is what ListOffsets-by-timestamp returns for t: the
// first offset whose record is at t or later, i.e. the number of records written before t
// (exact for log-append time, close for producer time). Lag(t) = log end(t) - committed(t).
// Time lag at t comes from the same log-end samples, interpolated as TimeLagEstimator does
// live (OffsetTimeTable).
//
// The moments form a grid aligned to `stepMs`, so a commit only has to be kept as "the last
// commit before grid moment k": memory is one entry per partition and step, however often
// the group commits.
class LagBackfill {
public:
    // Commits older than `windowMs` before the newest one are folded into one entry per
    // partition (the offset standing at the window's start), so a rebuild that never comes
    // (the topic replays forever, nobody asks) cannot grow memory without bound.
    explicit LagBackfill(int64_t stepMs = 30'000, int64_t windowMs = 3'600'000);

    int64_t stepMs() const { return m_stepMs; }
    // Commits in the order the offsets topic stored them (that is their time order).
    void recordCommit(const kafka::TopicPartition& partition, int64_t offset, int64_t timeMs);
    bool hasCommits() const { return !m_commits.isEmpty(); }
    QList<kafka::TopicPartition> replayedPartitions() const { return m_commits.keys(); }

    // Grid moments from windowStartMs to untilMs, starting no earlier than the moment every
    // replayed partition's committed offset is known (before its first replayed commit, a
    // partition's offset is whatever it was before the window: unknown).
    QList<int64_t> sampleTimes(int64_t windowStartMs, int64_t untilMs) const;

    // logEnds[tp][i] is tp's log end at times[i]; a partition whose column is missing or
    // short is left out. `currentCommitted` holds the offsets a poll sees now: a partition
    // without replayed commits had that offset all through the window.
    LagTrail build(const QList<int64_t>& times,
                   const QHash<kafka::TopicPartition, QList<int64_t>>& logEnds,
                   const QHash<kafka::TopicPartition, int64_t>& currentCommitted) const;

private:
    int64_t gridIndexAtOrAfter(int64_t timeMs) const;
    // The committed offset at grid moment `index`, or -1 before the first replayed commit.
    int64_t committedAt(const std::map<int64_t, int64_t>& commits, int64_t index) const;

    int64_t m_stepMs;
    int64_t m_windowSteps;
    // Per partition: grid index -> the offset of the last commit made at or before it.
    QHash<kafka::TopicPartition, std::map<int64_t, int64_t>> m_commits;
};

} // namespace groupscope::lag
