#include "cli/WriteInterrupt.h"

#include <unistd.h>

namespace groupscope::cli {

namespace {

constexpr char Acknowledgement[] =
    "Interrupted: no further write will be sent. One already sent is waited for, so that its "
    "outcome is recorded; Ctrl-C again quits at once (the next command then reads the outcome "
    "back from the broker).\n";

} // namespace

WriteInterrupt::WriteInterrupt() {
    if (!m_watcher.isInstalled())
        return;
    m_acknowledger = std::thread([this] {
        // Short waits, so that the destructor never waits long for this thread.
        while (!m_done.load()) {
            if (m_watcher.waitUntil(app::StopSignalWatcher::Clock::now() +
                                    std::chrono::milliseconds(100))) {
                m_watcher.restorePreviousHandlers();
                // Straight to the descriptor: the command's own stream belongs to its thread.
                [[maybe_unused]] const ssize_t written =
                    ::write(STDERR_FILENO, Acknowledgement, sizeof Acknowledgement - 1);
                return;
            }
        }
    });
}

WriteInterrupt::~WriteInterrupt() {
    m_done = true;
    if (m_acknowledger.joinable())
        m_acknowledger.join();
}

} // namespace groupscope::cli
