#include "lag/CommitWindow.h"

namespace groupscope::lag {

namespace {

// A signed difference as an unsigned number that is small when the difference is small
// either way (zigzag: 0, -1, 1, -2 ... as 0, 1, 2, 3 ...), computed modulo 2^64 so that any
// two int64 values give back the older exactly.
uint64_t zigzag(int64_t older, int64_t newer) {
    const auto difference = int64_t(uint64_t(older) - uint64_t(newer));
    return (uint64_t(difference) << 1) ^ uint64_t(difference >> 63);
}

int64_t unzigzag(uint64_t coded, int64_t newer) {
    const uint64_t difference = (coded >> 1) ^ (~(coded & 1) + 1);
    return int64_t(uint64_t(newer) + difference);
}

// Seven bits a byte, the high bit set on every byte but the last (LEB128).
void appendVarint(std::vector<uint8_t>& bytes, uint64_t value) {
    while (value >= 0x80) {
        bytes.push_back(uint8_t(value) | 0x80);
        value >>= 7;
    }
    bytes.push_back(uint8_t(value));
}

uint64_t readVarint(const uint8_t*& at) {
    uint64_t value = 0;
    for (int shift = 0;; shift += 7) {
        const uint8_t byte = *at++;
        value |= uint64_t(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return value;
    }
}

} // namespace

std::vector<CommitObservation> CommitWindow::commits() const {
    std::vector<CommitObservation> commits(m_count);
    if (m_count == 0)
        return commits;
    commits.back() = m_newest;
    const uint8_t* at = m_older.data();
    for (size_t i = m_count - 1; i-- > 0;) {
        const CommitObservation& newer = commits[i + 1];
        CommitObservation& older = commits[i];
        older.offset = unzigzag(readVarint(at), newer.offset);
        older.lag = unzigzag(readVarint(at), newer.lag);
        older.timestampMs = unzigzag(readVarint(at), newer.timestampMs);
    }
    return commits;
}

void CommitWindow::store(const std::vector<CommitObservation>& commits) {
    m_count = uint16_t(commits.size());
    m_older.clear();
    if (commits.empty())
        return;
    m_newest = commits.back();
    for (size_t i = commits.size() - 1; i-- > 0;) {
        const CommitObservation& newer = commits[i + 1];
        const CommitObservation& older = commits[i];
        appendVarint(m_older, zigzag(older.offset, newer.offset));
        appendVarint(m_older, zigzag(older.lag, newer.lag));
        appendVarint(m_older, zigzag(older.timestampMs, newer.timestampMs));
    }
    // A partition's window changes at every commit: room kept from a longer encoding is
    // given back only when it is more than twice what is used.
    if (m_older.capacity() > 2 * m_older.size())
        m_older.shrink_to_fit();
}

bool CommitWindow::add(const CommitObservation& commit, const CommitWindowOptions& options) {
    if (m_count > 0) {
        if (commit.timestampMs < m_newest.timestampMs)
            return false;
        if (commit.timestampMs - m_newestSlotOpenedMs < options.minimumDistanceMs) {
            std::vector<CommitObservation> kept = commits();
            kept.back() = commit;
            store(kept);
            return true;
        }
    }
    std::vector<CommitObservation> kept = commits();
    if (isFull(options))
        kept.erase(kept.begin());
    kept.push_back(commit);
    store(kept);
    m_newestSlotOpenedMs = commit.timestampMs;
    return true;
}

} // namespace groupscope::lag
