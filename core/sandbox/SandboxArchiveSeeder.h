#pragma once

#include "kafka/ConnectionProfile.h"
#include "sandbox/SandboxLayout.h"
#include "sandbox/SandboxStatus.h"
#include "sandbox/StopFlag.h"

#include <QMutex>

#include <chrono>
#include <memory>
#include <thread>

namespace groupscope::kafka {
class AdminClient;
}

namespace groupscope::sandbox {

// Gives the member-less archive group committed offsets in the middle of its topics' logs,
// once, so a newcomer has a group ready for offset resets. Offsets already committed (an
// earlier sandbox run, or the newcomer's own resets) are left alone. Runs on its own thread
// because the logs may need a few seconds of production before they have a middle.
class SandboxArchiveSeeder {
public:
    using Outcome = ArchiveOutcome;

    static std::unique_ptr<SandboxArchiveSeeder> start(const kafka::ConnectionProfile& profile,
                                                       const SandboxGroup& group,
                                                       std::chrono::milliseconds timeout);
    ~SandboxArchiveSeeder();
    SandboxArchiveSeeder(const SandboxArchiveSeeder&) = delete;
    SandboxArchiveSeeder& operator=(const SandboxArchiveSeeder&) = delete;

    void requestStop();
    void stop();

    Outcome outcome() const;
    // For the status line, e.g. "offsets committed at mid-log on 15 partitions".
    QString description() const;

private:
    SandboxArchiveSeeder(const kafka::ConnectionProfile& profile, const SandboxGroup& group,
                         std::chrono::milliseconds timeout);
    void run();
    // One attempt; false when it should be tried again later.
    bool trySeed(kafka::AdminClient& client, StopFlag::Clock::time_point dataDeadline);
    void setOutcome(Outcome outcome, const QString& description);

    kafka::ConnectionProfile m_profile;
    SandboxGroup m_group;
    std::chrono::milliseconds m_timeout;
    mutable QMutex m_outcomeMutex;
    Outcome m_outcome = Outcome::Pending;
    QString m_description;
    StopFlag m_stop;
    std::thread m_thread;
};

} // namespace groupscope::sandbox
