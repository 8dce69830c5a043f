#pragma once

#include "consumer/ConsumerSession.h"
#include "kafka/ConnectionProfile.h"
#include "sandbox/LastProblem.h"
#include "sandbox/ProcessingContinuity.h"
#include "sandbox/StopFlag.h"

#include <QStringList>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <thread>

namespace groupscope::sandbox {

// One member of a sandbox consumer group: a ConsumerSession that subscribes to the group's
// topics, so every rebalance of the demo goes through the consumer module's engine (revoke
// commits what was processed, assign starts at the commit), on a thread of its own. It
// commits what it processed every second, so Kafka's tools (and Groupscope) see its lag,
// and tells the group's ProcessingContinuity every record it processed.
//
// A member that fails on malformed records behaves as a strict service does in
// production: it seeks back to the record and retries it, and after a few failures
// crashes (leaves the group having committed up to that record) and restarts a little
// later. Its group stays stuck on the record until someone skips it.
class SandboxConsumerMember {
public:
    struct Settings {
        QString groupId;
        QStringList topics;
        QString clientId;
        // 0: consume as fast as messages arrive. Otherwise a ceiling, to fall behind on purpose.
        double maxMessagesPerSecond = 0;
        // The new consumer protocol (KIP-848, group.protocol=consumer) instead of classic.
        bool consumerProtocol = false;
        // Records whose value is not JSON fail, as described above.
        bool failsOnMalformedRecords = false;
    };

    static kafka::Result<std::unique_ptr<SandboxConsumerMember>>
    start(const kafka::ConnectionProfile& profile, const Settings& settings,
          std::shared_ptr<ProcessingContinuity> continuity);
    ~SandboxConsumerMember();
    SandboxConsumerMember(const SandboxConsumerMember&) = delete;
    SandboxConsumerMember& operator=(const SandboxConsumerMember&) = delete;

    // Asks the thread to stop without waiting, so many members can leave in parallel.
    void requestStop();
    // Stops, commits, leaves the group and joins the thread.
    void stop();

    const Settings& settings() const { return m_settings; }
    uint64_t consumedCount() const { return m_consumed.load(); }
    QString recentProblem(LastProblem::Clock::duration maxAge) const {
        return m_lastProblem.recent(maxAge);
    }

private:
    enum class Ending { Stopped, Crashed };

    SandboxConsumerMember(const kafka::ConnectionProfile& profile, const Settings& settings,
                          std::shared_ptr<ProcessingContinuity> continuity);
    kafka::Result<std::unique_ptr<consumer::ConsumerSession>> join() const;
    void run(std::unique_ptr<consumer::ConsumerSession> session);
    Ending consume(consumer::ConsumerSession& session);
    // False when the record failed; the session is then back at it.
    bool process(consumer::ConsumerSession& session, const consumer::ConsumedMessage& message);
    void noteSessionError(const consumer::ConsumerSession& session);

    kafka::ConnectionProfile m_profile;
    Settings m_settings;
    std::shared_ptr<ProcessingContinuity> m_continuity;
    StopFlag m_stop;
    std::atomic<uint64_t> m_consumed{0};
    LastProblem m_lastProblem;
    QString m_lastSessionError;
    struct FailingRecord {
        kafka::TopicPartition partition;
        int64_t offset = -1;
        int failures = 0;
    };
    std::optional<FailingRecord> m_failing;
    std::thread m_thread;
};

} // namespace groupscope::sandbox
