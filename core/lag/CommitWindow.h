#pragma once

#include "snapshot/HealthStatus.h"

#include <vector>

namespace groupscope::lag {

// The last N commits of one group on one partition, as Burrow stores them: a commit that
// comes within `minimumDistanceMs` of the time its slot opened replaces the slot's commit
// rather than taking a new slot, so a consumer committing after every message does not
// shrink the window's time span to a fraction of a second. Unlike Burrow, the distance is
// measured from the slot's first commit, not from the commit it replaces: measured from
// the latest, a consumer committing every 0.5 s (stuck on one record, retrying it) would
// keep one slot for ever and never be judged.
class CommitWindow {
public:
    explicit CommitWindow(int size = 10, int64_t minimumDistanceMs = 1000)
        : m_size(size < 1 ? 1 : size)
        , m_minimumDistanceMs(minimumDistanceMs) {}

    // Commits older than the newest one are ignored (returns false).
    bool add(const CommitObservation& commit);

    const std::vector<CommitObservation>& commits() const { return m_commits; }
    int size() const { return m_size; }
    bool isFull() const { return int(m_commits.size()) == m_size; }

private:
    int m_size;
    int64_t m_minimumDistanceMs;
    std::vector<CommitObservation> m_commits;
    int64_t m_newestSlotOpenedMs = 0; // when the newest slot's first commit came
};

} // namespace groupscope::lag
