#pragma once

#include "kafka/ConnectionProfile.h"
#include "sandbox/ProcessingContinuity.h"
#include "sandbox/SandboxConsumerMember.h"
#include "sandbox/SandboxLayout.h"
#include "sandbox/StopFlag.h"

#include <QList>

#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace groupscope::sandbox {

// Runs the members of one sandbox consumer group. The member count follows a repeating
// pattern, one step per interval (shipping: 1, 2, 3, 2, ...), so the group rebalances
// visibly; a pattern of one count keeps the group steady. Members join by starting and
// leave by closing their consumer, as a real deployment scaling up and down would.
class SandboxConsumerGroup {
public:
    using Milliseconds = std::chrono::milliseconds;

    static kafka::Result<std::unique_ptr<SandboxConsumerGroup>>
    start(const kafka::ConnectionProfile& profile, const SandboxGroup& group,
          const QList<int>& memberCountPattern, Milliseconds interval);
    ~SandboxConsumerGroup();
    SandboxConsumerGroup(const SandboxConsumerGroup&) = delete;
    SandboxConsumerGroup& operator=(const SandboxConsumerGroup&) = delete;

    // Asks the schedule and every member to stop without waiting.
    void requestStop();
    // Stops; all members leave the group in parallel.
    void stop();

    const SandboxGroup& group() const { return m_group; }
    int memberCount() const;
    // What all its members, past and present, processed: gaps and duplicates.
    ProcessingContinuity::Counts continuity() const { return m_continuity->counts(); }
    // The most recent problem of any current member, if recent enough.
    QString recentProblem(LastProblem::Clock::duration maxAge) const;

private:
    SandboxConsumerGroup(const kafka::ConnectionProfile& profile, const SandboxGroup& group,
                         const QList<int>& memberCountPattern, Milliseconds interval);
    void run();
    kafka::Status resize(int memberCount);

    kafka::ConnectionProfile m_profile;
    SandboxGroup m_group;
    QList<int> m_pattern;
    Milliseconds m_interval;
    const std::shared_ptr<ProcessingContinuity> m_continuity =
        std::make_shared<ProcessingContinuity>();
    int m_membersStarted = 0; // numbers client ids, so each new member is told apart
    mutable std::mutex m_membersMutex;
    std::vector<std::unique_ptr<SandboxConsumerMember>> m_members;
    StopFlag m_stop;
    std::thread m_thread;
};

} // namespace groupscope::sandbox
