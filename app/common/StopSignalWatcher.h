#pragma once

#include <atomic>
#include <chrono>
#include <csignal>

namespace groupscope::app {

// Turns SIGINT and SIGTERM into something a plain loop can wait for (the self-pipe trick:
// the handler only writes a byte, which is async-signal-safe). The previous handlers come
// back on destruction, so a second Ctrl-C during a slow shutdown ends the process at once.
// One watcher at a time per process.
class StopSignalWatcher {
public:
    using Clock = std::chrono::steady_clock;

    StopSignalWatcher();
    ~StopSignalWatcher();
    StopSignalWatcher(const StopSignalWatcher&) = delete;
    StopSignalWatcher& operator=(const StopSignalWatcher&) = delete;

    // False when the handlers could not be installed (no pipe, or another watcher lives).
    bool isInstalled() const { return m_installed; }
    // Waits until a stop signal has arrived or `deadline` passes; true for a signal.
    bool waitUntil(Clock::time_point deadline);
    // Raised by the signal handler itself, so any thread that reads it sees the signal as
    // soon as it is delivered: before any answer that arrives after it is handled.
    const std::atomic<bool>* arrivedFlag() const;
    // Puts the previous handlers back now rather than on destruction, so that the next
    // signal takes its default course (a second Ctrl-C ends the process). Once only.
    void restorePreviousHandlers();
    // Becomes readable once a stop signal has arrived, for an event loop to watch
    // (a QSocketNotifier); -1 when not installed.
    int wakeFd() const { return m_readFd; }

private:
    static void handleSignal(int signalNumber);

    bool m_installed = false;
    std::atomic<bool> m_handlersRestored{false};
    bool m_signalled = false;
    int m_readFd = -1;
    struct sigaction m_previousInterrupt = {};
    struct sigaction m_previousTerminate = {};
};

} // namespace groupscope::app
