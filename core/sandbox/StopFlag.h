#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace groupscope::sandbox {

// A stop request that a worker thread can wait on with a deadline: pacing loops sleep until
// their next message is due, yet wake at once when the workload shuts down.
class StopFlag {
public:
    using Clock = std::chrono::steady_clock;

    void requestStop();
    bool stopRequested() const;
    // Waits until `deadline` or a stop request; true when stopping was requested.
    bool waitUntil(Clock::time_point deadline) const;
    bool waitFor(Clock::duration duration) const { return waitUntil(Clock::now() + duration); }

private:
    mutable std::mutex m_mutex;
    mutable std::condition_variable m_changed;
    bool m_stopRequested = false;
};

} // namespace groupscope::sandbox
