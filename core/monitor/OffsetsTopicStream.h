#pragma once

#include "kafka/ConnectionProfile.h"
#include "kafka/TopicPartition.h"
#include "lag/Clock.h"
#include "offsetstopic/OffsetsTopicRecord.h"

#include <QHash>
#include <QSet>
#include <QString>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace groupscope::consumer {
class ConsumerSession;
struct ConsumerSessionOptions;
} // namespace groupscope::consumer

namespace groupscope::monitor {

// Reads Kafka's internal `__consumer_offsets` topic, as lag monitors do, and hands out its
// records decoded. It assigns every partition by hand (assign, never subscribe, under a
// private group id of its own): reading the topic never joins anybody's group, so it never
// causes a rebalance. Each partition starts at
// `now - history`, a timestamp target the reposition engine resolves, so the last hour of
// commits and generations is replayed before live records follow.
//
// Where the topic cannot be read (no ACL, a managed cluster that hides it, or a fresh
// broker that has not created it yet) the status says so with the reason, and the stream
// tries again every `retryInterval`.
//
// Threads: start() runs a worker thread that owns the AdminClient and the ConsumerSession
// (whose own fetch thread polls librdkafka). Decoded records wait in a bounded queue;
// while it is full the worker stops taking from the session, whose buffers then pause the
// partitions, so memory stays bounded end to end. take(), waitForRecords() and status()
// are safe from any thread. The records-available callback runs on the worker thread.
class OffsetsTopicStream {
public:
    static constexpr const char* internalTopic = "__consumer_offsets";

    struct Options {
        kafka::ConnectionProfile profile;
        QString topic = QString::fromLatin1(internalTopic);
        std::chrono::milliseconds history{3'600'000};
        // Only these groups' records are queued; empty: every group.
        QSet<QString> groups;
        // Read only the partitions that hold `groups` (the coordinator's choice,
        // offsetsTopicPartitionOf): what a look at a few groups needs, not the whole topic.
        bool onlyPartitionsOfGroups = false;
        size_t queueCapacity = 20'000;
        std::chrono::milliseconds retryInterval{5000};
        std::chrono::milliseconds requestTimeout{5000};
        const lag::Clock* clock = &lag::SystemClock::instance();
    };

    enum class State {
        Starting,   // not attempted yet, or opening
        Reading,    // assigned and fetching
        Unreadable, // the last attempt failed: see reason; retried later
        Stopped,
    };

    struct Status {
        State state = State::Starting;
        QString reason; // why the topic cannot be read
        // Every partition has been read up to where its log ended when reading began: the
        // history window has been replayed. Live records keep arriving afterwards.
        bool caughtUp = false;
        int partitions = 0;
        int64_t recordsRead = 0;
        int64_t offsetCommits = 0;
        int64_t groupMetadata = 0;
        int64_t consumerGroupRecords = 0; // key types 3-8 and 16 (KIP-848 consumer groups)
        int64_t shareGroupRecords = 0;    // key types 10-15
        int64_t streamsGroupRecords = 0;  // key types 17 and 19-23
        int64_t unknownVersions = 0;      // counted and skipped
        int64_t decodeErrors = 0;         // malformed bytes: counted and skipped
        QString lastDecodeError;
    };

    // One decoded record with where it was read from.
    struct Record {
        offsetstopic::OffsetsTopicRecord record;
        int32_t partition = -1;
        int64_t offset = -1;
        int64_t timestampMs = -1;
    };

    explicit OffsetsTopicStream(Options options);
    // stop()
    ~OffsetsTopicStream();
    OffsetsTopicStream(const OffsetsTopicStream&) = delete;
    OffsetsTopicStream& operator=(const OffsetsTopicStream&) = delete;

    void start();
    // Returns once the worker has exited: within about 100 ms, or one request timeout when a
    // partition assignment is being resolved at that moment.
    void stop();

    // Called on the worker thread whenever records were queued. Set it before start().
    void setRecordsAvailableCallback(std::function<void()> callback) {
        m_recordsAvailable = std::move(callback);
    }

    std::vector<Record> take(size_t limit = SIZE_MAX);
    bool waitForRecords(std::chrono::milliseconds timeout);
    Status status() const;
    const Options& options() const { return m_options; }

private:
    struct Progress {
        // Where each partition's log ended when reading began.
        QHash<kafka::TopicPartition, int64_t> endAtStart;
        std::chrono::steady_clock::time_point lastMessageAt;
    };

    void run();
    // Opens a session on every partition; sets the reason and returns null on failure.
    std::unique_ptr<consumer::ConsumerSession> open(Progress& progress);
    // open()'s steps: the topic's partitions and where their logs end now (the admin
    // client is gone when it returns), the reader's consumer options, and its assignment
    // at the start of the history window (or where an earlier reader stopped). Each says
    // why the topic is unreadable when it fails.
    std::optional<QList<kafka::TopicPartition>> readPartitionEnds(Progress& progress);
    consumer::ConsumerSessionOptions readerOptions() const;
    bool assignHistoryWindow(consumer::ConsumerSession& session,
                             const QList<kafka::TopicPartition>& partitions);
    // Reads until stop() or until the topic becomes unreadable.
    void pump(consumer::ConsumerSession& session, Progress& progress);
    void queueMessages(consumer::ConsumerSession& session, size_t limit);
    bool checkCaughtUp(consumer::ConsumerSession& session, const Progress& progress) const;
    void setUnreadable(const QString& reason);
    // Sleeps until the deadline or stop(); true when stopping.
    bool waitForStop(std::chrono::milliseconds duration);
    bool waitForQueueRoom();

    Options m_options;
    std::function<void()> m_recordsAvailable;
    // Worker thread only: the offset after the last record read per partition, so that
    // reopening after an error continues there instead of replaying the window again
    // (which would hand out every commit and generation twice).
    QHash<kafka::TopicPartition, int64_t> m_resumeAt;
    std::thread m_worker;
    std::atomic<bool> m_stopping{false};

    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<Record> m_queue;
    Status m_status;
};

} // namespace groupscope::monitor
