#pragma once

#include "kafka/TopicPartition.h"

#include <QHash>
#include <QMutex>

#include <cstdint>

namespace groupscope::sandbox {

// What the members of one sandbox group processed, partition by partition, across every
// rebalance: the check that the consumer module's engine keeps its promise in the demo.
// The topics are not transactional or compacted, so their offsets have no holes: a record
// processed past the next expected offset means records were skipped (a gap, a defect),
// and one at or below the last processed offset was processed again (a duplicate,
// at-least-once after a revoke without a commit). An offset reset made by hand shows here
// too, as what it is: a gap forward, duplicates backward.
// Shared by the group's members, each on its own thread.
class ProcessingContinuity {
public:
    struct Counts {
        uint64_t processed = 0;
        uint64_t gaps = 0;       // times a partition's next record was not the one expected
        uint64_t skipped = 0;    // records those gaps jumped over
        uint64_t duplicates = 0; // records processed again
    };

    void processed(const kafka::TopicPartition& partition, int64_t offset);
    Counts counts() const;

private:
    mutable QMutex m_mutex;
    QHash<kafka::TopicPartition, int64_t> m_nextExpected;
    Counts m_counts;
};

} // namespace groupscope::sandbox
