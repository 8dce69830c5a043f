#pragma once

#include "kafka/ConnectionProfile.h"
#include "kafka/RdKafkaHandles.h"
#include "sandbox/LastProblem.h"
#include "sandbox/SandboxLayout.h"
#include "sandbox/StopFlag.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>

namespace groupscope::sandbox {

// Produces the sandbox's records to one topic at a steady rate, on its own thread with its
// own producer handle. Pacing is a token bucket: each message is due at start + n / rate,
// and a producer that fell behind (broker hiccup) does not burst to catch up.
class SandboxProducer {
public:
    static kafka::Result<std::unique_ptr<SandboxProducer>>
    start(const kafka::ConnectionProfile& profile, const SandboxTopic& topic);
    ~SandboxProducer();
    SandboxProducer(const SandboxProducer&) = delete;
    SandboxProducer& operator=(const SandboxProducer&) = delete;

    // Asks the thread to stop without waiting, so many workers can shut down in parallel.
    void requestStop();
    // Stops, delivers what is queued (bounded by a short flush) and joins the thread.
    void stop();

    const SandboxTopic& topic() const { return m_topic; }
    // Messages the broker acknowledged.
    uint64_t deliveredCount() const { return m_delivered.load(); }
    uint64_t failedCount() const { return m_failed.load(); }
    QString recentProblem(LastProblem::Clock::duration maxAge) const {
        return m_lastProblem.recent(maxAge);
    }

private:
    explicit SandboxProducer(const SandboxTopic& topic);
    void run();
    void produceOne();
    void shutDownHandle();

    static void deliveryCallback(rd_kafka_t* handle, const rd_kafka_message_t* message,
                                 void* opaque);
    static void errorCallback(rd_kafka_t* handle, int code, const char* reason, void* opaque);

    SandboxTopic m_topic;
    kafka::KafkaHandle m_handle;
    StopFlag m_stop;
    std::atomic<uint64_t> m_delivered{0};
    std::atomic<uint64_t> m_failed{0};
    LastProblem m_lastProblem;
    std::thread m_thread;
};

} // namespace groupscope::sandbox
