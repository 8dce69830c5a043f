#include "consumer/PartitionBuffer.h"

namespace groupscope::consumer {

size_t PartitionBuffer::takeInto(std::vector<ConsumedMessage>& into, size_t limit) {
    size_t taken = 0;
    while (taken < limit && !m_messages.empty()) {
        into.push_back(std::move(m_messages.front()));
        m_messages.pop_front();
        ++taken;
    }
    return taken;
}

size_t PartitionBuffer::flush() {
    const size_t dropped = m_messages.size();
    m_messages.clear();
    return dropped;
}

} // namespace groupscope::consumer
