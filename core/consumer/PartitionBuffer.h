#pragma once

#include "consumer/ConsumedMessage.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace groupscope::consumer {

// The bounded queue of one partition's fetched but not yet delivered messages. It is a
// plain container: PartitionTable guards it with its mutex. "Bounded" is enforced by the
// session, which pauses the partition in librdkafka as soon as the buffer is full.
class PartitionBuffer {
public:
    explicit PartitionBuffer(size_t capacity)
        : m_capacity(capacity) {}

    void push(ConsumedMessage message) { m_messages.push_back(std::move(message)); }
    // Moves up to `limit` messages, oldest first, to the end of `into`; returns how many.
    size_t takeInto(std::vector<ConsumedMessage>& into, size_t limit);
    // Drops everything buffered; returns how many messages were dropped.
    size_t flush();

    size_t size() const { return m_messages.size(); }
    bool isEmpty() const { return m_messages.empty(); }
    bool isFull() const { return m_messages.size() >= m_capacity; }
    size_t capacity() const { return m_capacity; }

private:
    size_t m_capacity;
    std::deque<ConsumedMessage> m_messages;
};

} // namespace groupscope::consumer
