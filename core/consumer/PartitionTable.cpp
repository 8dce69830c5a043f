#include "consumer/PartitionTable.h"

#include <iterator>

namespace groupscope::consumer {

using kafka::TopicPartition;

PartitionTable::PartitionTable(size_t bufferCapacity, size_t resumeBelow)
    : m_bufferCapacity(bufferCapacity)
    , m_resumeBelow(resumeBelow) {}

PartitionTable::State* PartitionTable::find(const TopicPartition& partition) {
    const auto it = m_states.find(partition);
    return it == m_states.end() ? nullptr : &it->second;
}

const PartitionTable::State* PartitionTable::find(const TopicPartition& partition) const {
    const auto it = m_states.find(partition);
    return it == m_states.end() ? nullptr : &it->second;
}

PartitionTable::Routed PartitionTable::route(const TopicPartition& partition,
                                             ConsumedMessage message) {
    std::lock_guard lock(m_mutex);
    State* state = find(partition);
    // A message for a locked or unknown partition belongs to a reposition or an assignment
    // that is over. The engine's ordering means this never happens; if it ever does, the
    // message must not reach a caller, and the counter makes it visible.
    if (!state || state->locked) {
        if (m_staleMessagesDiscarded++ == 0)
            m_firstStaleMessage = QStringLiteral("%1 offset %2: %3")
                                      .arg(partition.toString())
                                      .arg(message.offset())
                                      .arg(!state ? QStringLiteral("not an assigned partition")
                                                  : QStringLiteral("inside a reposition"));
        return Routed::Discarded;
    }
    // A message below the fetch position comes before where this partition is read from
    // now: one routed already that librdkafka fetched again, as it does after an incremental
    // rebalance. Its main thread pauses every assigned partition while the group rebalances,
    // and a broker thread saves the application's position as where to fetch from on resume
    // while the fetch thread may be polling the next message (rd_kafka_assignment_pause,
    // rd_kafka_toppar_pause_resume). The copy is dropped, so no caller sees a message twice.
    if (state->fetchPosition >= 0 && message.offset() < state->fetchPosition) {
        ++m_redeliveriesDiscarded;
        return Routed::Discarded;
    }
    state->fetchPosition = message.offset() + 1;
    ++m_messagesReceived;
    m_bytesReceived += message.size();
    state->buffer.push(std::move(message));
    // The flag is set here, under the lock, not after the pause: a caller that drains the
    // buffer in between must see it, or its resume request would be lost.
    const bool full = state->buffer.isFull() && !state->pausedForBackpressure;
    if (full) {
        state->pausedForBackpressure = true;
        state->resumeRequested = false;
    }
    return full ? Routed::BufferedNowFull : Routed::Buffered;
}

void PartitionTable::noteDrained(const TopicPartition& partition, State& state,
                                 QList<TopicPartition>& toResume) {
    if (state.pausedForBackpressure && !state.resumeRequested &&
        state.buffer.size() <= m_resumeBelow) {
        state.resumeRequested = true;
        toResume.append(partition);
    }
}

std::vector<ConsumedMessage> PartitionTable::take(const TopicPartition* partition, size_t limit,
                                                  QList<TopicPartition>& toResume) {
    std::vector<ConsumedMessage> taken;
    std::lock_guard lock(m_mutex);
    auto takeFrom = [&](const TopicPartition& key, State& state) {
        if (state.locked || state.buffer.isEmpty())
            return;
        const size_t before = taken.size();
        state.buffer.takeInto(taken, limit - taken.size());
        if (taken.size() > before) {
            state.consumedPosition = taken.back().offset() + 1;
            m_messagesDelivered += taken.size() - before;
        }
        noteDrained(key, state, toResume);
    };
    if (partition) {
        if (State* state = find(*partition))
            takeFrom(*partition, *state);
        return taken;
    }
    if (m_states.empty())
        return taken;
    const size_t count = m_states.size();
    const size_t start = m_takeCursor % count;
    auto it = std::next(m_states.begin(), qsizetype(start));
    for (size_t visited = 0; visited < count && taken.size() < limit; ++visited) {
        takeFrom(it->first, it->second);
        if (++it == m_states.end())
            it = m_states.begin();
    }
    m_takeCursor = start + 1;
    return taken;
}

void PartitionTable::notifyArrivals() {
    m_messagesArrived.notify_all();
}

bool PartitionTable::waitForMessages(std::chrono::milliseconds timeout) {
    std::unique_lock lock(m_mutex);
    return m_messagesArrived.wait_for(lock, timeout, [this] {
        for (const auto& [partition, state] : m_states)
            if (!state.locked && !state.buffer.isEmpty())
                return true;
        return false;
    });
}

QList<TopicPartition> PartitionTable::partitions() const {
    std::lock_guard lock(m_mutex);
    QList<TopicPartition> result;
    result.reserve(qsizetype(m_states.size()));
    for (const auto& entry : m_states)
        result.append(entry.first);
    return result;
}

bool PartitionTable::contains(const TopicPartition& partition) const {
    std::lock_guard lock(m_mutex);
    return find(partition) != nullptr;
}

void PartitionTable::addLocked(const TopicPartition& partition) {
    std::lock_guard lock(m_mutex);
    auto [it, inserted] = m_states.try_emplace(partition, m_bufferCapacity);
    it->second.locked = true;
}

void PartitionTable::remove(const TopicPartition& partition) {
    std::lock_guard lock(m_mutex);
    if (State* state = find(partition))
        m_messagesDropped += state->buffer.size();
    m_states.erase(partition);
}

void PartitionTable::clear() {
    std::lock_guard lock(m_mutex);
    m_states.clear();
}

bool PartitionTable::lock(const TopicPartition& partition) {
    std::lock_guard lock(m_mutex);
    State* state = find(partition);
    if (!state)
        return false;
    state->locked = true;
    return true;
}

void PartitionTable::unlock(const TopicPartition& partition) {
    {
        std::lock_guard lock(m_mutex);
        if (State* state = find(partition))
            state->locked = false;
    }
    m_messagesArrived.notify_all();
}

size_t PartitionTable::flush(const TopicPartition& partition) {
    std::lock_guard lock(m_mutex);
    State* state = find(partition);
    if (!state)
        return 0;
    const size_t dropped = state->buffer.flush();
    m_messagesDropped += dropped;
    return dropped;
}

void PartitionTable::setPosition(const TopicPartition& partition, int64_t offset) {
    std::lock_guard lock(m_mutex);
    if (State* state = find(partition)) {
        state->fetchPosition = offset;
        state->consumedPosition = offset;
    }
}

int64_t PartitionTable::consumedPosition(const TopicPartition& partition) const {
    std::lock_guard lock(m_mutex);
    const State* state = find(partition);
    return state ? state->consumedPosition : -1;
}

int64_t PartitionTable::fetchPosition(const TopicPartition& partition) const {
    std::lock_guard lock(m_mutex);
    const State* state = find(partition);
    return state ? state->fetchPosition : -1;
}

void PartitionTable::setPausedForBackpressure(const TopicPartition& partition, bool paused) {
    std::lock_guard lock(m_mutex);
    if (State* state = find(partition)) {
        state->pausedForBackpressure = paused;
        state->resumeRequested = false;
    }
}

bool PartitionTable::takeResumeRequest(const TopicPartition& partition) {
    std::lock_guard lock(m_mutex);
    State* state = find(partition);
    if (!state || !state->pausedForBackpressure || state->locked)
        return false;
    // The buffer may have filled up again since the request was made.
    return state->buffer.size() <= m_resumeBelow;
}

bool PartitionTable::isPausedForBackpressure(const TopicPartition& partition) const {
    std::lock_guard lock(m_mutex);
    const State* state = find(partition);
    return state && state->pausedForBackpressure;
}

void PartitionTable::fillStatistics(ConsumerStatistics& statistics) const {
    std::lock_guard lock(m_mutex);
    statistics.messagesReceived = m_messagesReceived;
    statistics.bytesReceived = m_bytesReceived;
    statistics.messagesDelivered = m_messagesDelivered;
    statistics.messagesDropped = m_messagesDropped;
    statistics.staleMessagesDiscarded = m_staleMessagesDiscarded;
    statistics.firstStaleMessage = m_firstStaleMessage;
    statistics.redeliveriesDiscarded = m_redeliveriesDiscarded;
    statistics.messagesBuffered = 0;
    statistics.partitionsAssigned = int(m_states.size());
    statistics.partitionsPaused = 0;
    statistics.partitionsLocked = 0;
    for (const auto& [partition, state] : m_states) {
        statistics.messagesBuffered += state.buffer.size();
        statistics.partitionsPaused += state.pausedForBackpressure ? 1 : 0;
        statistics.partitionsLocked += state.locked ? 1 : 0;
    }
}

QList<PartitionStatistics> PartitionTable::partitionStatistics() const {
    std::lock_guard lock(m_mutex);
    QList<PartitionStatistics> result;
    for (const auto& [partition, state] : m_states)
        result.append({partition, state.buffer.size(), state.consumedPosition, state.fetchPosition,
                       state.pausedForBackpressure, state.locked});
    return result;
}

} // namespace groupscope::consumer
