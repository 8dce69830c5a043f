#include "lag/CommitWindow.h"

namespace groupscope::lag {

bool CommitWindow::add(const CommitObservation& commit) {
    if (!m_commits.empty()) {
        CommitObservation& newest = m_commits.back();
        if (commit.timestampMs < newest.timestampMs)
            return false;
        if (commit.timestampMs - newest.timestampMs < m_minimumDistanceMs) {
            newest = commit;
            return true;
        }
    }
    m_commits.push_back(commit);
    if (int(m_commits.size()) > m_size)
        m_commits.pop_front();
    return true;
}

} // namespace groupscope::lag
