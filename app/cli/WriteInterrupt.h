#pragma once

#include "common/StopSignalWatcher.h"

#include <atomic>
#include <thread>

namespace groupscope::cli {

// Ctrl-C (or SIGTERM) during a write command: the flag is raised, and the write stops
// where it may. Before the write is sent nothing is written and the command exits 130;
// once it is sent, the outcome is still read back and recorded before the command exits.
// The first signal is acknowledged on stderr at once, and a second one ends the process
// (the write is then left in doubt, and the next command reads its outcome back).
class WriteInterrupt {
public:
    WriteInterrupt();
    ~WriteInterrupt();
    WriteInterrupt(const WriteInterrupt&) = delete;
    WriteInterrupt& operator=(const WriteInterrupt&) = delete;

    // The flag the signal handler raises itself, not a copy a thread keeps: a copy made
    // late let a write whose answer came right after the signal count as uninterrupted.
    const std::atomic<bool>* flag() const { return m_watcher.arrivedFlag(); }
    bool interrupted() const { return m_watcher.isInstalled() && flag()->load(); }

private:
    app::StopSignalWatcher m_watcher;
    std::atomic<bool> m_done{false};
    std::thread m_acknowledger;
};

} // namespace groupscope::cli
