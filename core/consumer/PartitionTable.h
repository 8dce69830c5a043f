#pragma once

#include "consumer/ConsumedMessage.h"
#include "consumer/ConsumerStatistics.h"
#include "consumer/PartitionBuffer.h"
#include "kafka/TopicPartition.h"

#include <QList>

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <vector>

namespace groupscope::consumer {

// The assigned partitions of a ConsumerSession and their buffers and positions: the state
// shared between the fetch thread (route), callers (take) and the reposition engine
// (lock, flush, set positions). Every member function is thread-safe.
class PartitionTable {
public:
    PartitionTable(size_t bufferCapacity, size_t resumeBelow);

    enum class Routed { Buffered, BufferedNowFull, Discarded };
    // Called by the fetch thread for each message librdkafka returns. BufferedNowFull marks
    // the partition paused for backpressure; the caller then pauses it in librdkafka.
    Routed route(const kafka::TopicPartition& partition, ConsumedMessage message);
    // Wakes callers in waitForMessages(); once per batch of routed messages, not per message.
    void notifyArrivals();

    // Hands out up to `limit` messages of one partition (or of all when `partition` is
    // null), never from a locked partition. Partitions whose buffer drained far enough to
    // be resumed are appended to `toResume`, once per pause.
    std::vector<ConsumedMessage> take(const kafka::TopicPartition* partition, size_t limit,
                                      QList<kafka::TopicPartition>& toResume);
    // Waits until some unlocked partition has a buffered message, or the timeout passes.
    bool waitForMessages(std::chrono::milliseconds timeout);

    // For the reposition engine.
    QList<kafka::TopicPartition> partitions() const;
    bool contains(const kafka::TopicPartition& partition) const;
    void addLocked(const kafka::TopicPartition& partition);
    void remove(const kafka::TopicPartition& partition);
    // Drops every partition and buffered message (before the consumer handle is destroyed:
    // rd_kafka_destroy waits until every message it handed out is released).
    void clear();
    bool lock(const kafka::TopicPartition& partition);
    void unlock(const kafka::TopicPartition& partition);
    size_t flush(const kafka::TopicPartition& partition);
    // Sets both the processed and the fetch position (-1: unknown, accept what comes).
    void setPosition(const kafka::TopicPartition& partition, int64_t offset);
    int64_t consumedPosition(const kafka::TopicPartition& partition) const;
    int64_t fetchPosition(const kafka::TopicPartition& partition) const;
    void setPausedForBackpressure(const kafka::TopicPartition& partition, bool paused);
    // True when the partition is paused for backpressure and may be resumed now.
    bool takeResumeRequest(const kafka::TopicPartition& partition);
    bool isPausedForBackpressure(const kafka::TopicPartition& partition) const;

    void fillStatistics(ConsumerStatistics& statistics) const;
    QList<PartitionStatistics> partitionStatistics() const;

private:
    struct State {
        explicit State(size_t capacity)
            : buffer(capacity) {}
        PartitionBuffer buffer;
        int64_t fetchPosition = -1;
        int64_t consumedPosition = -1;
        bool locked = false;
        bool pausedForBackpressure = false;
        bool resumeRequested = false;
    };

    State* find(const kafka::TopicPartition& partition);
    const State* find(const kafka::TopicPartition& partition) const;
    void noteDrained(const kafka::TopicPartition& partition, State& state,
                     QList<kafka::TopicPartition>& toResume);

    const size_t m_bufferCapacity;
    const size_t m_resumeBelow;
    mutable std::mutex m_mutex;
    std::condition_variable m_messagesArrived;
    std::map<kafka::TopicPartition, State> m_states;
    // Where take(all) starts next, so one busy partition cannot starve the others.
    size_t m_takeCursor = 0;
    uint64_t m_messagesReceived = 0;
    uint64_t m_bytesReceived = 0;
    uint64_t m_messagesDelivered = 0;
    uint64_t m_messagesDropped = 0;
    uint64_t m_staleMessagesDiscarded = 0;
    QString m_firstStaleMessage;
    uint64_t m_redeliveriesDiscarded = 0;
};

} // namespace groupscope::consumer
