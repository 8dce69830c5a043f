#pragma once

#include "kafka/ConnectionProfile.h"
#include "kafka/Result.h"
#include "kafka/TopicPartition.h"
#include "records/Record.h"

#include <QList>

#include <atomic>
#include <chrono>
#include <memory>

namespace groupscope::consumer {
class ConsumerSession;
}

namespace groupscope::records {

// One partition's records, read-only: a live ConsumerSession that joins no group (assign
// only) and never commits, reading committed records only unless told otherwise. Every
// move is one call of the reposition engine on that session, which keeps fetching, so the
// engine's promises hold here too: no record from before a jump is delivered after it,
// and none is skipped after it. Not thread-safe: one thread uses it at a time (the GUI's
// task runner, or the CLI's main thread).
class RecordBrowser {
public:
    struct Options {
        kafka::ConnectionProfile profile;
        bool readCommitted = true;
        // A longer value keeps its first bytes (Record::valueCut()).
        qsizetype maxValueBytes = 1024 * 1024;
        // Bound on each read, and on the engine's seeks.
        std::chrono::milliseconds timeout{10000};
    };

    // Assigns `partition` at `offset`; nothing is read yet.
    static kafka::Result<std::unique_ptr<RecordBrowser>>
    open(const kafka::TopicPartition& partition, int64_t offset, const Options& options);
    ~RecordBrowser();
    RecordBrowser(const RecordBrowser&) = delete;
    RecordBrowser& operator=(const RecordBrowser&) = delete;

    // Moves to `offset` and reads up to `count` records, stopping early at `endOffset` (the
    // offset after the last record there is to read) or when the timeout or `cancelled`
    // ends the wait. The records come in offset order, the first at or after `offset`.
    kafka::Result<QList<Record>> readFrom(int64_t offset, int count, int64_t endOffset,
                                          const std::atomic<bool>* cancelled = nullptr);
    // Records that arrived since the last read, at most `limit`, waiting up to `wait` for the
    // first: what "Follow" shows.
    QList<Record> takeNew(std::chrono::milliseconds wait, int limit);

    const kafka::TopicPartition& partition() const { return m_partition; }
    // An error that stops reading (not authorised to read the topic; the topic or the
    // partition gone) reported since the last call, or none. readFrom() fails with it.
    kafka::KafkaError takeReadError();

    // The one record at `offset` with its whole value, however large ("Read Whole Value"
    // of a value cut at maxValueBytes), through a session of its own, so a browser that
    // follows the partition keeps its place.
    static kafka::Result<Record> readWhole(const kafka::TopicPartition& partition, int64_t offset,
                                           Options options,
                                           const std::atomic<bool>* cancelled = nullptr);

private:
    RecordBrowser(kafka::TopicPartition partition, Options options,
                  std::unique_ptr<consumer::ConsumerSession> session);
    void takeInto(QList<Record>& records, int limit);

    kafka::TopicPartition m_partition;
    Options m_options;
    std::unique_ptr<consumer::ConsumerSession> m_session;
    uint64_t m_sessionErrorsSeen = 0;
};

} // namespace groupscope::records
