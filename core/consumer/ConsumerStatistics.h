#pragma once

#include "kafka/KafkaError.h"
#include "kafka/TopicPartition.h"

#include <cstdint>

namespace groupscope::consumer {

// Counters of one ConsumerSession since it was created, plus its current state.
struct ConsumerStatistics {
    uint64_t messagesReceived = 0;  // routed from librdkafka into the buffers
    uint64_t bytesReceived = 0;     // keys and payloads of those messages
    uint64_t messagesDelivered = 0; // handed out to callers
    uint64_t messagesDropped = 0;   // flushed from buffers by repositions
    // Messages librdkafka handed over for a partition that was not ours or was inside a
    // reposition: a tripwire that stays 0 while the engine's ordering holds.
    uint64_t staleMessagesDiscarded = 0;
    // The first of them, for whoever investigates: partition, offset and why.
    QString firstStaleMessage;
    // Messages librdkafka fetched a second time (below the position already routed), as it
    // can after an incremental rebalance; dropped, so no caller sees a message twice.
    uint64_t redeliveriesDiscarded = 0;
    uint64_t messagesBuffered = 0;
    int partitionsAssigned = 0;
    int partitionsPaused = 0; // paused in librdkafka because their buffer is full
    int partitionsLocked = 0; // inside a reposition right now
    uint64_t repositions = 0;
    uint64_t rebalances = 0;
    uint64_t outOfRangeRecoveries = 0;
    // Rebalances that took partitions away without a chance to commit (session lost).
    uint64_t lostAssignments = 0;
    kafka::KafkaError lastError;
    uint64_t errors = 0; // errors recorded so far: a new one since a look shows as a change
};

// The state of one assigned partition.
struct PartitionStatistics {
    kafka::TopicPartition topicPartition;
    uint64_t messagesBuffered = 0;
    // Offset after the last message handed out: what a commit of processed work stores.
    int64_t consumedPosition = -1;
    // Offset the next message from librdkafka is expected at.
    int64_t fetchPosition = -1;
    bool paused = false;
    bool locked = false;
};

} // namespace groupscope::consumer
