#pragma once

#include "consumer/RepositionTarget.h"
#include "kafka/KafkaError.h"
#include "kafka/TopicPartition.h"

#include <cstdint>

namespace groupscope::consumer {

// What the reposition engine did to one partition. A failed step is reported here, never
// thrown; whatever failed, the partition is resumed and unlocked before the call returns.
struct RepositionOutcome {
    kafka::TopicPartition topicPartition;
    RepositionTarget target;
    // The offset the next delivered message of this partition will have (or the next
    // offset that exists after it); -1 when the position is unknown after a failure.
    int64_t newPosition = -1;
    // Buffered messages of this partition that were dropped by the flush.
    int64_t messagesDropped = 0;
    bool committed = false;
    // The first thing that went wrong for this partition, if anything.
    kafka::KafkaError error;

    bool ok() const { return !error.isError(); }
};

} // namespace groupscope::consumer
