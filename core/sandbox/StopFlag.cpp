#include "sandbox/StopFlag.h"

namespace groupscope::sandbox {

void StopFlag::requestStop() {
    {
        std::lock_guard lock(m_mutex);
        m_stopRequested = true;
    }
    m_changed.notify_all();
}

bool StopFlag::stopRequested() const {
    std::lock_guard lock(m_mutex);
    return m_stopRequested;
}

bool StopFlag::waitUntil(Clock::time_point deadline) const {
    std::unique_lock lock(m_mutex);
    return m_changed.wait_until(lock, deadline, [this] { return m_stopRequested; });
}

} // namespace groupscope::sandbox
