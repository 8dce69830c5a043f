#include "sandbox/ProcessingContinuity.h"

namespace groupscope::sandbox {

void ProcessingContinuity::processed(const kafka::TopicPartition& partition, int64_t offset) {
    QMutexLocker lock(&m_mutex);
    ++m_counts.processed;
    const auto expected = m_nextExpected.constFind(partition);
    // The first record of a partition sets where it stands; nothing before it is known.
    if (expected != m_nextExpected.cend()) {
        if (offset > *expected) {
            ++m_counts.gaps;
            m_counts.skipped += uint64_t(offset - *expected);
        } else if (offset < *expected) {
            ++m_counts.duplicates;
        }
    }
    // A duplicate does not move the expectation back: the records after it were processed
    // already, and seeing them again counts as duplicates too.
    if (expected == m_nextExpected.cend() || offset + 1 > *expected)
        m_nextExpected.insert(partition, offset + 1);
}

ProcessingContinuity::Counts ProcessingContinuity::counts() const {
    QMutexLocker lock(&m_mutex);
    return m_counts;
}

} // namespace groupscope::sandbox
