#include "lag/CommitWindow.h"

namespace groupscope::lag {

bool CommitWindow::add(const CommitObservation& commit) {
    if (!m_commits.empty()) {
        CommitObservation& newest = m_commits.back();
        if (commit.timestampMs < newest.timestampMs)
            return false;
        if (commit.timestampMs - m_newestSlotOpenedMs < m_minimumDistanceMs) {
            newest = commit;
            return true;
        }
    }
    // A vector, not a deque: ten entries shift in no time, and libstdc++'s deque allocates
    // a 512-byte block even when empty, which at 100,000 group partitions was 60 MB.
    if (m_commits.empty())
        m_commits.reserve(size_t(m_size)); // one allocation of the final size
    if (int(m_commits.size()) == m_size)
        m_commits.erase(m_commits.begin());
    m_commits.push_back(commit);
    m_newestSlotOpenedMs = commit.timestampMs;
    return true;
}

} // namespace groupscope::lag
