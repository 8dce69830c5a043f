#pragma once

#include "common/StopSignalWatcher.h"

#include <atomic>
#include <thread>

namespace groupscope::cli {

// Ctrl-C (or SIGTERM) during a write command: the flag is raised, and the write stops
// where it may. Before the write is sent nothing is written and the command exits 130;
// once it is sent, the outcome is still read back and recorded before the command exits.
// A second signal after the watcher is gone ends the process at once.
class WriteInterrupt {
public:
    WriteInterrupt();
    ~WriteInterrupt();
    WriteInterrupt(const WriteInterrupt&) = delete;
    WriteInterrupt& operator=(const WriteInterrupt&) = delete;

    const std::atomic<bool>* flag() const { return &m_interrupted; }
    bool interrupted() const { return m_interrupted.load(); }

private:
    app::StopSignalWatcher m_watcher;
    std::atomic<bool> m_interrupted{false};
    std::atomic<bool> m_done{false};
    std::thread m_thread;
};

} // namespace groupscope::cli
