#pragma once

#include <librdkafka/rdkafka.h>

#include "kafka/ConnectionProfile.h"
#include "kafka/RdKafkaHandles.h"
#include "sandbox/LastProblem.h"
#include "sandbox/StopFlag.h"

#include <QStringList>

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>

namespace groupscope::sandbox {

// One member of a sandbox consumer group: its own consumer handle and thread, subscribed to
// the group's topics, committing its progress automatically every second so Kafka's tools
// (and Groupscope) see its lag. Partition assignment is left to librdkafka's built-in
// rebalance handling, which does the right thing for eager and cooperative protocols alike;
// the sandbox never repositions anything itself.
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
    };

    static kafka::Result<std::unique_ptr<SandboxConsumerMember>>
    start(const kafka::ConnectionProfile& profile, const Settings& settings);
    ~SandboxConsumerMember();
    SandboxConsumerMember(const SandboxConsumerMember&) = delete;
    SandboxConsumerMember& operator=(const SandboxConsumerMember&) = delete;

    // Asks the thread to stop without waiting, so many members can leave in parallel.
    void requestStop();
    // Stops, commits, leaves the group (rd_kafka_consumer_close) and joins the thread.
    void stop();

    const Settings& settings() const { return m_settings; }
    uint64_t consumedCount() const { return m_consumed.load(); }
    QString recentProblem(LastProblem::Clock::duration maxAge) const {
        return m_lastProblem.recent(maxAge);
    }

private:
    explicit SandboxConsumerMember(const Settings& settings);
    void run();
    void handleError(rd_kafka_resp_err_t code, const QString& detail);

    static void errorCallback(rd_kafka_t* handle, int code, const char* reason, void* opaque);

    Settings m_settings;
    kafka::KafkaHandle m_handle;
    StopFlag m_stop;
    std::atomic<uint64_t> m_consumed{0};
    LastProblem m_lastProblem;
    std::thread m_thread;
};

} // namespace groupscope::sandbox
