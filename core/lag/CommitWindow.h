#pragma once

#include "snapshot/HealthStatus.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace groupscope::lag {

// Burrow's window settings. Every window of an evaluator has the same, so windows are given
// them rather than keeping a copy each (16 of a partition's 96 bytes in HealthEvaluator,
// 16 MB at 100,000 groups of ten partitions).
struct CommitWindowOptions {
    int windowSize = 10;              // Burrow's "intervals"
    int64_t minimumDistanceMs = 1000; // Burrow's "min-distance"
};

// The last N commits of one group on one partition, as Burrow stores them: a commit that
// comes within the options' `minimumDistanceMs` of the time its slot opened replaces the
// slot's commit rather than taking a new slot, so a consumer committing after every message
// does not shrink the window's time span to a fraction of a second. Unlike Burrow, the distance is
// measured from the slot's first commit, not from the commit it replaces: measured from
// the latest, a consumer committing every 0.5 s (stuck on one record, retrying it) would
// keep one slot for ever and never be judged.
//
// Kept packed: the newest commit as it is, the older ones as the differences of their offset,
// lag and time from the commit after them, in variable-length bytes. A busy partition's ten
// commits of 24 bytes were 256 bytes of heap (heaptrack of BenchGuiTenThousandGroups: 232 MB
// of windows at 100,000 groups of ten partitions); their differences are a few bytes each.
// Exact for any values; a change decodes and encodes the window's few commits again.
class CommitWindow {
public:
    // Commits older than the newest one are ignored (returns false).
    bool add(const CommitObservation& commit, const CommitWindowOptions& options);

    // Oldest first.
    std::vector<CommitObservation> commits() const;
    bool isEmpty() const { return m_count == 0; }
    // The newest commit; only when not empty.
    const CommitObservation& newest() const { return m_newest; }
    // How full the window is, from 0 to 1 (Burrow's "complete").
    double complete(const CommitWindowOptions& options) const {
        return double(m_count) / double(slotCount(options));
    }
    bool isFull(const CommitWindowOptions& options) const {
        return int(m_count) == slotCount(options);
    }

private:
    static int slotCount(const CommitWindowOptions& options) {
        return std::max(1, options.windowSize);
    }
    void store(const std::vector<CommitObservation>& commits);

    CommitObservation m_newest;
    int64_t m_newestSlotOpenedMs = 0; // when the newest slot's first commit came
    // The older commits, newest first, each as its differences from the commit after it.
    std::vector<uint8_t> m_older;
    uint16_t m_count = 0; // commits in all, the newest included
};

} // namespace groupscope::lag
