#include "cli/WriteInterrupt.h"

namespace groupscope::cli {

WriteInterrupt::WriteInterrupt() {
    if (!m_watcher.isInstalled())
        return;
    m_thread = std::thread([this] {
        // Short waits, so that the destructor never waits long for this thread.
        while (!m_done.load()) {
            if (m_watcher.waitUntil(app::StopSignalWatcher::Clock::now() +
                                    std::chrono::milliseconds(100))) {
                m_interrupted = true;
                return;
            }
        }
    });
}

WriteInterrupt::~WriteInterrupt() {
    m_done = true;
    if (m_thread.joinable())
        m_thread.join();
}

} // namespace groupscope::cli
