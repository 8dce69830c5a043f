#include "lag/CommitWindow.h"

#include <algorithm>

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
    // a 512-byte block even when empty, which at 100,000 group partitions was 60 MB. It
    // grows by doubling up to the window's size and never past it: most groups of a big
    // cluster commit rarely or have stopped, and a window of one commit holding room for
    // ten was 22 MB of the exporter's memory at 10,000 idle groups (heaptrack).
    if (m_commits.size() == m_commits.capacity() && int(m_commits.size()) < m_size)
        m_commits.reserve(std::min(size_t(m_size), std::max<size_t>(1, 2 * m_commits.size())));
    if (int(m_commits.size()) == m_size)
        m_commits.erase(m_commits.begin());
    m_commits.push_back(commit);
    m_newestSlotOpenedMs = commit.timestampMs;
    return true;
}

} // namespace groupscope::lag
