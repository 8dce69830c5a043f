#include "records/RecordBrowser.h"

#include "consumer/ConsumerSession.h"

#include <limits>

namespace groupscope::records {

using consumer::RepositionTarget;
using kafka::KafkaError;

namespace {

// Records buffered by the session before it pauses the partition: a screenful or two.
constexpr size_t bufferedRecords = 500;

// A copy of a consumed message; a value longer than `maxValueBytes` keeps its first bytes.
Record recordOf(const consumer::ConsumedMessage& message, qsizetype maxValueBytes) {
    Record record;
    record.offset = message.offset();
    record.timestampMs = message.timestamp();
    switch (message.timestampType()) {
    case RD_KAFKA_TIMESTAMP_CREATE_TIME:
        record.timestampType = TimestampType::CreateTime;
        break;
    case RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME:
        record.timestampType = TimestampType::LogAppendTime;
        break;
    case RD_KAFKA_TIMESTAMP_NOT_AVAILABLE:
        break;
    }
    const QByteArrayView key = message.key();
    if (key.data())
        record.key = key.toByteArray();
    record.keySize = key.size();
    const QByteArrayView value = message.payload();
    record.valueSize = value.size();
    if (value.data())
        record.value = value.first(std::min(value.size(), maxValueBytes)).toByteArray();
    record.headers = message.headers();
    return record;
}

} // namespace

kafka::Result<std::unique_ptr<RecordBrowser>>
RecordBrowser::open(const kafka::TopicPartition& partition, int64_t offset,
                    const Options& options) {
    consumer::ConsumerSessionOptions sessionOptions;
    sessionOptions.profile = options.profile;
    sessionOptions.bufferCapacity = bufferedRecords;
    sessionOptions.operationTimeout = options.timeout;
    // A position outside the log (deleted records, a recreated topic) continues at the
    // earliest record instead of failing the session.
    sessionOptions.afterOutOfRange = RepositionTarget::earliest();
    sessionOptions.properties.append({QStringLiteral("isolation.level"),
                                      options.readCommitted ? QStringLiteral("read_committed")
                                                            : QStringLiteral("read_uncommitted")});
    sessionOptions.properties.append(
        {QStringLiteral("client.id"), QStringLiteral("groupscope-records")});
    auto session = consumer::ConsumerSession::create(sessionOptions);
    if (!session)
        return session.error();
    auto assigned = session.value()->assign({{partition, RepositionTarget::offset(offset)}});
    if (!assigned)
        return assigned.error();
    for (const consumer::RepositionOutcome& outcome : assigned.value())
        if (!outcome.ok())
            return outcome.error;
    return std::unique_ptr<RecordBrowser>(
        new RecordBrowser(partition, options, std::move(session).value()));
}

RecordBrowser::RecordBrowser(kafka::TopicPartition partition, Options options,
                             std::unique_ptr<consumer::ConsumerSession> session)
    : m_partition(std::move(partition))
    , m_options(std::move(options))
    , m_session(std::move(session)) {}

RecordBrowser::~RecordBrowser() = default;

void RecordBrowser::takeInto(QList<Record>& records, int limit) {
    if (records.size() >= limit)
        return;
    for (const consumer::ConsumedMessage& message :
         m_session->take(m_partition, size_t(limit - records.size())))
        records.append(recordOf(message, m_options.maxValueBytes));
}

kafka::KafkaError RecordBrowser::takeReadError() {
    const consumer::ConsumerStatistics statistics = m_session->statistics();
    if (statistics.errors == m_sessionErrorsSeen)
        return {};
    m_sessionErrorsSeen = statistics.errors;
    const KafkaError& error = statistics.lastError;
    const bool gone = error.code == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART ||
                      error.code == RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC ||
                      error.code == RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION;
    if (!error.isAuthorizationError() && !gone)
        return {}; // passing trouble (a broker restarting): the session retries by itself
    KafkaError stopped = error.withExplanation();
    stopped.message = QStringLiteral("reading %1: %2%3")
                          .arg(m_partition.toString(), stopped.message,
                               gone ? QStringLiteral(" (the topic or partition was deleted, or "
                                                     "is being recreated)")
                                    : QString());
    return stopped;
}

kafka::Result<QList<Record>> RecordBrowser::readFrom(int64_t offset, int count, int64_t endOffset,
                                                     const std::atomic<bool>* cancelled) {
    consumer::RepositionRequest request;
    request.targets.insert(m_partition, RepositionTarget::offset(offset));
    auto moved = m_session->reposition(request);
    if (!moved)
        return moved.error();
    for (const consumer::RepositionOutcome& outcome : moved.value())
        if (!outcome.ok())
            return outcome.error;
    (void)takeReadError(); // what was reported before this read is not about it
    QList<Record> records;
    const auto deadline = std::chrono::steady_clock::now() + m_options.timeout;
    const auto done = [&] {
        return records.size() >= count ||
               (!records.isEmpty() && records.last().offset + 1 >= endOffset) ||
               offset >= endOffset;
    };
    while (!done()) {
        if (cancelled && cancelled->load())
            return KafkaError::invalidArgument(QStringLiteral("cancelled"));
        if (std::chrono::steady_clock::now() >= deadline) {
            // Under read_committed the records of a transaction still open are not there
            // to read yet: what was read stands.
            if (!records.isEmpty())
                break;
            return KafkaError::timeout(
                QStringLiteral("no record of %1 arrived within %2 ms (from offset %3)")
                    .arg(m_partition.toString())
                    .arg(m_options.timeout.count())
                    .arg(offset));
        }
        m_session->waitForMessages(std::chrono::milliseconds(100));
        takeInto(records, count);
        if (KafkaError stopped = takeReadError(); stopped.isError() && records.isEmpty())
            return stopped;
        // Transaction markers and aborted records move the position without a record.
        if (records.isEmpty() && m_session->position(m_partition) >= endOffset)
            break;
    }
    return records;
}

kafka::Result<Record> RecordBrowser::readWhole(const kafka::TopicPartition& partition,
                                               int64_t offset, Options options,
                                               const std::atomic<bool>* cancelled) {
    options.maxValueBytes = std::numeric_limits<qsizetype>::max();
    auto browser = open(partition, offset, options);
    if (!browser)
        return browser.error();
    auto read = browser.value()->readFrom(offset, 1, offset + 1, cancelled);
    if (!read)
        return read.error();
    if (read.value().isEmpty() || read.value().first().offset != offset)
        return KafkaError::invalidArgument(
            QStringLiteral("the record at offset %1 of %2 is no longer there (deleted, or the "
                           "topic was recreated)")
                .arg(offset)
                .arg(partition.toString()));
    return read.value().first();
}

QList<Record> RecordBrowser::takeNew(std::chrono::milliseconds wait, int limit) {
    QList<Record> records;
    if (m_session->waitForMessages(wait))
        takeInto(records, limit);
    return records;
}

} // namespace groupscope::records
