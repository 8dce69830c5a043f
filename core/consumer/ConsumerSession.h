#pragma once

#include <librdkafka/rdkafka.h>

#include "consumer/ConsumedMessage.h"
#include "consumer/ConsumerSessionOptions.h"
#include "consumer/ConsumerStatistics.h"
#include "consumer/PartitionTable.h"
#include "consumer/RepositionEngine.h"
#include "consumer/RepositionObserver.h"
#include "consumer/RepositionOutcome.h"
#include "consumer/RepositionRequest.h"
#include "kafka/RdKafkaHandles.h"
#include "kafka/Result.h"

#include <QStringList>

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace groupscope::consumer {

// One librdkafka consumer with a fetch thread that routes messages into bounded
// per-partition buffers, from which callers take them per partition or all together.
// Works with a group (subscribe; EAGER and COOPERATIVE rebalances) and without (assign).
//
// Threads: the fetch thread owns the librdkafka handle. It polls, runs the rebalance and
// error callbacks, and runs every operation that touches the consumer (subscribe, assign,
// reposition, commit, backpressure): other threads post those to it and wait. Every change
// of position goes through the RepositionEngine on that thread. take() and statistics()
// are safe from any thread.
class ConsumerSession {
public:
    using Outcomes = QList<RepositionOutcome>;

    static kafka::Result<std::unique_ptr<ConsumerSession>> create(ConsumerSessionOptions options);
    // Closes the consumer, as close() does. Messages taken from the session must be released
    // before it is destroyed: librdkafka's destroy waits for every message it handed out.
    ~ConsumerSession();
    ConsumerSession(const ConsumerSession&) = delete;
    ConsumerSession& operator=(const ConsumerSession&) = delete;

    // Joins the group for these topics; partitions arrive through rebalances.
    kafka::Status subscribe(const QStringList& topics);
    // Adds partitions by hand (no subscription), each positioned at its target.
    kafka::Result<Outcomes> assign(const QMap<kafka::TopicPartition, RepositionTarget>& targets);
    // Moves assigned partitions to new positions (the reposition engine).
    kafka::Result<Outcomes> reposition(const RepositionRequest& request);
    // Moves the given partitions (all assigned ones when empty) to the first message at or
    // after `millisecondsSinceEpoch`.
    kafka::Result<Outcomes> jumpToTime(int64_t millisecondsSinceEpoch,
                                       QList<kafka::TopicPartition> partitions = {},
                                       bool commit = false);
    // Commits the processed position (offset after the last message taken) of each partition.
    kafka::Result<Outcomes> commit();
    // Stops fetching and closes the consumer: a group member commits its processed positions
    // and leaves its group. An error says the close did not finish cleanly (the group then
    // drops the member only after its session timeout). Calls made meanwhile from other
    // threads fail with "closing"; later calls of close() return the same outcome.
    kafka::Status close();

    std::vector<ConsumedMessage> take(const kafka::TopicPartition& partition, size_t limit);
    std::vector<ConsumedMessage> takeAll(size_t limit);
    // True as soon as a message can be taken; false when the timeout passed first.
    bool waitForMessages(std::chrono::milliseconds timeout);

    QList<kafka::TopicPartition> assignment() const;
    // The processed position of a partition: where delivery continues, and what a commit
    // stores. -1 for partitions not assigned or with an unknown position.
    int64_t position(const kafka::TopicPartition& partition) const;
    ConsumerStatistics statistics() const;
    QList<PartitionStatistics> partitionStatistics() const;

    // Test seam and diagnostics: called before each step of every reposition. Must outlive
    // the session or be unset first.
    void setRepositionObserver(RepositionObserver* observer);

    const ConsumerSessionOptions& options() const { return m_options; }
    // The member id the group coordinator gave this session; empty before it joined, and
    // always for sessions without a group.
    QString memberId() const;

private:
    explicit ConsumerSession(ConsumerSessionOptions options);

    void start();
    void fetchLoop();
    void handleMessage(kafka::MessageHandle message);
    const QString& topicName(const rd_kafka_message_t* message);
    AssignmentMethod assignmentMethod() const;
    void onRebalance(rd_kafka_resp_err_t code, const rd_kafka_topic_partition_list_t* partitions,
                     AssignmentMethod method);
    // Sets the engine's commit policy from the protocol and the commit gate.
    void requestBackpressureRelease(const QList<kafka::TopicPartition>& partitions);
    void recordError(kafka::KafkaError error);

    // Runs `job` on the fetch thread and returns its result; directly when already there.
    template <typename R> R onFetchThread(std::function<R()> job);
    void postJob(std::function<void()> job);
    void wakeFetchThread();
    void wakeFetchThreadLocked(); // with m_jobsMutex held and jobs accepted
    void runPendingJobs();

    static void rebalanceCallback(rd_kafka_t* handle, rd_kafka_resp_err_t code,
                                  rd_kafka_topic_partition_list_t* partitions, void* opaque);
    static void errorCallback(rd_kafka_t* handle, int code, const char* reason, void* opaque);
    static void logCallback(const rd_kafka_t* handle, int level, const char* facility,
                            const char* message);

    ConsumerSessionOptions m_options;
    kafka::KafkaHandle m_handle;
    kafka::QueueHandle m_consumerQueue;
    PartitionTable m_partitions;
    std::unique_ptr<RepositionEngine> m_engine;

    std::thread m_fetchThread;
    std::atomic<std::thread::id> m_fetchThreadId;
    std::atomic<bool> m_stopping{false};
    kafka::Status m_closeOutcome = kafka::Done{}; // written by the fetch thread as it ends
    // Callbacks do nothing once the consumer is closed: the handle outlives the session
    // object's useful life only while it is being destroyed.
    std::atomic<bool> m_callbacksEnabled{true};

    std::mutex m_jobsMutex;
    std::deque<std::function<void()>> m_jobs;
    bool m_acceptingJobs = true; // false once the fetch thread begins to close the consumer

    // Only the fetch thread touches these.
    QByteArray m_lastTopicUtf8;
    QString m_lastTopic;

    std::atomic<uint64_t> m_repositions{0};
    std::atomic<uint64_t> m_rebalances{0};
    std::atomic<uint64_t> m_outOfRangeRecoveries{0};
    std::atomic<uint64_t> m_lostAssignments{0};
    mutable std::mutex m_errorMutex;
    kafka::KafkaError m_lastError;
    uint64_t m_errorCount = 0; // guarded by m_errorMutex
};

} // namespace groupscope::consumer
