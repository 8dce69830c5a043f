#pragma once

#include "kafka/ConnectionProfile.h"
#include "kafka/KafkaError.h"
#include "kafka/RdKafkaHandles.h"
#include "kafka/Result.h"

#include <QMutex>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>

namespace groupscope::kafka {

// One librdkafka handle for admin requests (LibrdkafkaAdminClient): its creation from a
// profile, the callbacks that keep the last connection problem, deadlines, cancelling, and
// waiting for the one answer a request is due. Used by one thread at a time.
class LibrdkafkaConnection {
public:
    using Milliseconds = std::chrono::milliseconds;
    using Clock = std::chrono::steady_clock;
    using Deadline = Clock::time_point;

    static Result<std::unique_ptr<LibrdkafkaConnection>> open(const ConnectionProfile& profile,
                                                              Milliseconds timeout);
    ~LibrdkafkaConnection();
    LibrdkafkaConnection(const LibrdkafkaConnection&) = delete;
    LibrdkafkaConnection& operator=(const LibrdkafkaConnection&) = delete;

    rd_kafka_t* handle() const { return m_handle.get(); }
    // Where this connection's admin results arrive.
    rd_kafka_queue_t* queue() const { return m_queue.get(); }
    const QString& bootstrapServers() const { return m_bootstrapServers; }

    void setTimeout(Milliseconds timeout) { m_timeout = timeout; }
    Milliseconds timeout() const { return m_timeout; }
    Deadline deadline() const { return Clock::now() + m_timeout; }
    void setCancelFlag(const std::atomic<bool>* cancelled) { m_cancelled = cancelled; }
    bool cancelled() const { return m_cancelled && m_cancelled->load(); }

    // `operation` is an rd_kafka_admin_op_t.
    AdminOptionsHandle makeOptions(int operation, Deadline deadline) const;
    // Waits for the next admin result event of `type` on the queue, or times out. A call
    // that returns without its answer (timeout, cancel, failure) abandons the queue, so a
    // late answer can never be taken for the answer of a later call.
    Result<EventHandle> waitForEvent(Deadline deadline, const QString& what,
                                     rd_kafka_event_type_t type);
    KafkaError timeoutError(const QString& what) const;
    // Adds what was being done; connection-type failures become a timeout error that names
    // the bootstrap servers and the last connection problem librdkafka reported.
    KafkaError explain(KafkaError error, const QString& what) const;
    // Leaves the requests in flight to a queue nobody reads, so their late answers can never
    // be taken for the answer of a later call.
    void abandonPendingRequests();

    // Notes a group-level NOT_COORDINATOR answer (see LibrdkafkaAdminClient::coordinatorMoved).
    void noteGroupError(const KafkaError& error);
    bool coordinatorMoved() const { return m_coordinatorMoved; }

    // Receives every librdkafka log line of every LibrdkafkaConnection: for diagnostics, and
    // for tests that count the requests sent (with debug=protocol among the profile's extra
    // properties). Called on librdkafka's threads, one line at a time. Set it before the
    // connections it should hear are opened; an empty function removes it, and returns
    // once no call to the old one is running.
    using LogSink = std::function<void(int level, const QString& facility, const QString& message)>;
    static void setLogSink(LogSink sink);

private:
    LibrdkafkaConnection(QString bootstrapServers, Milliseconds timeout);

    static void errorCallback(rd_kafka_t* handle, int code, const char* reason, void* opaque);
    static void logCallback(const rd_kafka_t* handle, int level, const char* facility,
                            const char* message);
    void recordConnectionProblem(const QString& problem);
    void recordSetupFailure(const KafkaError& failure);
    // An authentication or TLS failure reported after `since`, if any: a call waiting for an
    // answer returns it at once instead of waiting out its deadline, since librdkafka would
    // only retry the same handshake and fail the same way.
    KafkaError setupFailureSince(Clock::time_point since) const;

    QString m_bootstrapServers;
    Milliseconds m_timeout;
    const std::atomic<bool>* m_cancelled = nullptr;
    KafkaHandle m_handle;
    QueueHandle m_queue;
    bool m_coordinatorMoved = false;
    mutable QMutex m_problemMutex;
    QString m_lastConnectionProblem;
    KafkaError m_setupFailure;
    Clock::time_point m_setupFailureTime;
};

} // namespace groupscope::kafka
