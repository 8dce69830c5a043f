#pragma once

#include "snapshot/HealthStatus.h"

#include <algorithm>
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
class CommitWindow {
public:
    // Commits older than the newest one are ignored (returns false).
    bool add(const CommitObservation& commit, const CommitWindowOptions& options);

    const std::vector<CommitObservation>& commits() const { return m_commits; }
    // How full the window is, from 0 to 1 (Burrow's "complete").
    double complete(const CommitWindowOptions& options) const {
        return double(m_commits.size()) / double(slotCount(options));
    }
    bool isFull(const CommitWindowOptions& options) const {
        return int(m_commits.size()) == slotCount(options);
    }

private:
    static int slotCount(const CommitWindowOptions& options) {
        return std::max(1, options.windowSize);
    }

    std::vector<CommitObservation> m_commits;
    int64_t m_newestSlotOpenedMs = 0; // when the newest slot's first commit came
};

} // namespace groupscope::lag
