#include "common/StopSignalWatcher.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace groupscope::app {

namespace {

// Shared with the signal handler, hence plain lock-free statics.
std::atomic<int> writeFd{-1};
std::atomic<bool> stopSignalArrived{false};
// Only lock-free atomics may be touched in a signal handler.
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);
std::atomic<bool> watcherActive{false};

} // namespace

StopSignalWatcher::StopSignalWatcher() {
    if (watcherActive.exchange(true))
        return;
    int fds[2] = {-1, -1};
    if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
        watcherActive = false;
        return;
    }
    m_readFd = fds[0];
    writeFd = fds[1];
    stopSignalArrived = false;

    struct sigaction action = {};
    action.sa_handler = &StopSignalWatcher::handleSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, &m_previousInterrupt);
    sigaction(SIGTERM, &action, &m_previousTerminate);
    m_installed = true;
}

StopSignalWatcher::~StopSignalWatcher() {
    if (!m_installed)
        return;
    restorePreviousHandlers();
    const int fd = writeFd.exchange(-1);
    close(fd);
    close(m_readFd);
    watcherActive = false;
}

void StopSignalWatcher::restorePreviousHandlers() {
    if (!m_installed || m_handlersRestored.exchange(true))
        return;
    sigaction(SIGINT, &m_previousInterrupt, nullptr);
    sigaction(SIGTERM, &m_previousTerminate, nullptr);
}

void StopSignalWatcher::handleSignal(int) {
    const int savedErrno = errno; // the interrupted code may be about to read errno
    stopSignalArrived = true;
    const int fd = writeFd.load();
    if (fd >= 0) {
        const char byte = 1;
        // A full pipe already holds a wake-up; nothing more to do.
        [[maybe_unused]] const ssize_t written = write(fd, &byte, 1);
    }
    errno = savedErrno;
}

const std::atomic<bool>* StopSignalWatcher::arrivedFlag() const {
    return &stopSignalArrived;
}

bool StopSignalWatcher::waitUntil(Clock::time_point deadline) {
    if (m_signalled)
        return true;
    if (!m_installed) {
        // Without handlers the default action ends the process; just let time pass.
        std::this_thread::sleep_until(deadline);
        return false;
    }
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        pollfd watched = {m_readFd, POLLIN, 0};
        const int ready = poll(&watched, 1, int(std::clamp<long long>(left, 0, 60'000)));
        if (ready > 0) {
            char drained[64];
            while (read(m_readFd, drained, sizeof drained) > 0) {
            }
            m_signalled = true;
            return true;
        }
        if (ready < 0 && errno != EINTR)
            return false;
        if (Clock::now() >= deadline)
            return false;
    }
}

} // namespace groupscope::app
