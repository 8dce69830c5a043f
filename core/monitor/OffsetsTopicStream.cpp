#include "monitor/OffsetsTopicStream.h"

#include "consumer/ConsumerSession.h"
#include "kafka/AdminClient.h"
#include "offsetstopic/OffsetsTopicDecoder.h"

#include <librdkafka/rdkafka.h>

#include <QUuid>

#include <variant>

namespace groupscope::monitor {

using offsetstopic::ConsumerGroupRecord;
using offsetstopic::GroupMetadata;
using offsetstopic::OffsetCommit;
using offsetstopic::OffsetsTopicDecodeError;
using offsetstopic::OffsetsTopicDecoder;
using offsetstopic::OffsetsTopicRecord;
using offsetstopic::UnknownOffsetsTopicRecord;

using consumer::ConsumerSession;
using consumer::RepositionTarget;
using kafka::TopicPartition;

namespace {

constexpr size_t takeBatch = 1000;
constexpr std::chrono::milliseconds fetchWait{100};
// A partition whose log ends in transaction markers never delivers a message at its end
// offset; after this long without any message the replay counts as done.
constexpr std::chrono::seconds idleMeansCaughtUp{3};

QString groupOf(const OffsetsTopicRecord& record) {
    if (const auto* commit = std::get_if<OffsetCommit>(&record))
        return commit->group;
    if (const auto* metadata = std::get_if<GroupMetadata>(&record))
        return metadata->group;
    if (const auto* consumerGroup = std::get_if<ConsumerGroupRecord>(&record))
        return consumerGroup->group;
    return {};
}

bool makesTopicUnreadable(int code) {
    return code == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED ||
           code == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART ||
           code == RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC ||
           code == RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED;
}

} // namespace

OffsetsTopicStream::OffsetsTopicStream(Options options)
    : m_options(std::move(options)) {
    if (!m_options.clock)
        m_options.clock = &lag::SystemClock::instance();
    m_options.queueCapacity = std::max<size_t>(1, m_options.queueCapacity);
}

OffsetsTopicStream::~OffsetsTopicStream() {
    stop();
}

void OffsetsTopicStream::start() {
    if (m_worker.joinable())
        return;
    m_stopping = false;
    m_worker = std::thread([this] { run(); });
}

void OffsetsTopicStream::stop() {
    m_stopping = true;
    m_changed.notify_all();
    if (m_worker.joinable())
        m_worker.join();
    std::lock_guard lock(m_mutex);
    m_status.state = State::Stopped;
}

std::vector<OffsetsTopicStream::Record> OffsetsTopicStream::take(size_t limit) {
    std::vector<Record> records;
    {
        std::lock_guard lock(m_mutex);
        while (!m_queue.empty() && records.size() < limit) {
            records.push_back(std::move(m_queue.front()));
            m_queue.pop_front();
        }
    }
    if (!records.empty())
        m_changed.notify_all(); // the worker may be waiting for room
    return records;
}

bool OffsetsTopicStream::waitForRecords(std::chrono::milliseconds timeout) {
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, timeout, [this] { return !m_queue.empty(); });
}

OffsetsTopicStream::Status OffsetsTopicStream::status() const {
    std::lock_guard lock(m_mutex);
    return m_status;
}

void OffsetsTopicStream::run() {
    while (!m_stopping) {
        Progress progress;
        std::unique_ptr<ConsumerSession> session = open(progress);
        if (session) {
            pump(*session, progress);
            session.reset(); // closes the consumer on this thread, before any retry
        }
        if (m_stopping || waitForStop(m_options.retryInterval))
            break;
    }
}

std::unique_ptr<ConsumerSession> OffsetsTopicStream::open(Progress& progress) {
    {
        std::lock_guard lock(m_mutex);
        m_status.state = m_status.state == State::Unreadable ? State::Unreadable : State::Starting;
        m_status.caughtUp = false;
    }
    const std::optional<QList<TopicPartition>> partitions = readPartitionEnds(progress);
    if (!partitions)
        return nullptr;
    auto session = ConsumerSession::create(readerOptions());
    if (!session) {
        setUnreadable(session.error().toString());
        return nullptr;
    }
    if (!assignHistoryWindow(*session.value(), *partitions))
        return nullptr;
    progress.lastMessageAt = std::chrono::steady_clock::now();
    std::lock_guard lock(m_mutex);
    m_status.state = State::Reading;
    m_status.reason.clear();
    m_status.partitions = int(partitions->size());
    return std::move(session).value();
}

std::optional<QList<TopicPartition>> OffsetsTopicStream::readPartitionEnds(Progress& progress) {
    auto admin = kafka::AdminClient::create(m_options.profile, m_options.requestTimeout);
    if (!admin) {
        setUnreadable(admin.error().toString());
        return std::nullopt;
    }
    admin.value()->setCancelFlag(&m_stopping);
    auto partitions = admin.value()->topicPartitions({m_options.topic});
    if (!partitions) {
        setUnreadable(QStringLiteral("cannot read %1: %2")
                          .arg(m_options.topic, partitions.error().toString()));
        return std::nullopt;
    }
    if (partitions.value().isEmpty()) {
        setUnreadable(QStringLiteral("%1 has no partitions yet").arg(m_options.topic));
        return std::nullopt;
    }
    if (m_options.onlyPartitionsOfGroups) {
        QSet<int32_t> wanted;
        for (const QString& group : m_options.groups)
            wanted.insert(
                offsetstopic::offsetsTopicPartitionOf(group, int(partitions.value().size())));
        partitions.value().removeIf(
            [&](const TopicPartition& tp) { return !wanted.contains(tp.partition); });
    }
    auto ends = admin.value()->logOffsets(partitions.value());
    if (!ends) {
        setUnreadable(
            QStringLiteral("cannot read %1: %2").arg(m_options.topic, ends.error().toString()));
        return std::nullopt;
    }
    for (const kafka::LogOffsets& end : ends.value()) {
        if (end.error.isError()) {
            setUnreadable(QStringLiteral("cannot read %1: %2")
                              .arg(end.topicPartition.toString(), end.error.toString()));
            return std::nullopt;
        }
        progress.endAtStart.insert(end.topicPartition, end.logEndOffset);
    }
    return partitions.value(); // the session resolves positions itself from here on
}

consumer::ConsumerSessionOptions OffsetsTopicStream::readerOptions() const {
    consumer::ConsumerSessionOptions sessionOptions;
    sessionOptions.profile = m_options.profile;
    // A private group id that is never subscribed with, so never joined: ConsumerSession
    // needs one for its consumer queue (librdkafka has no consumer queue without
    // group.id), and only assign() is used, which sends no JoinGroup. Nothing is committed.
    sessionOptions.groupId = QStringLiteral("groupscope-offsets-reader-%1")
                                 .arg(QUuid::createUuid().toString(QUuid::WithoutBraces));
    sessionOptions.bufferCapacity = 2000;
    sessionOptions.commitOnRevoke = false; // a reader leaves no trace on the cluster
    sessionOptions.operationTimeout = m_options.requestTimeout;
    sessionOptions.afterOutOfRange = RepositionTarget::earliest(); // compaction moved the start
    sessionOptions.properties = {
        {QStringLiteral("client.id"), QStringLiteral("groupscope-offsets-stream")}};
    return sessionOptions;
}

bool OffsetsTopicStream::assignHistoryWindow(ConsumerSession& session,
                                             const QList<TopicPartition>& partitions) {
    // The engine resolves the timestamp per partition; a partition with nothing that new
    // starts at its log end.
    const int64_t startMs = m_options.clock->nowMs() - m_options.history.count();
    QMap<TopicPartition, RepositionTarget> targets;
    for (const TopicPartition& partition : partitions) {
        const auto resume = m_resumeAt.constFind(partition);
        targets.insert(partition, resume != m_resumeAt.cend()
                                      ? RepositionTarget::offset(*resume)
                                      : RepositionTarget::timestamp(startMs));
    }
    auto outcomes = session.assign(targets);
    if (!outcomes) {
        setUnreadable(
            QStringLiteral("cannot read %1: %2").arg(m_options.topic, outcomes.error().toString()));
        return false;
    }
    for (const consumer::RepositionOutcome& outcome : outcomes.value())
        if (!outcome.ok()) {
            setUnreadable(QStringLiteral("cannot read %1: %2")
                              .arg(outcome.topicPartition.toString(), outcome.error.toString()));
            return false;
        }
    return true;
}

void OffsetsTopicStream::pump(ConsumerSession& session, Progress& progress) {
    bool caughtUp = false;
    while (!m_stopping) {
        if (!waitForQueueRoom())
            return;
        size_t room = 0;
        {
            std::lock_guard lock(m_mutex);
            room = m_options.queueCapacity - std::min(m_options.queueCapacity, m_queue.size());
        }
        if (session.waitForMessages(fetchWait)) {
            progress.lastMessageAt = std::chrono::steady_clock::now();
            queueMessages(session, std::min(room, takeBatch));
        }
        if (const kafka::KafkaError error = session.statistics().lastError;
            makesTopicUnreadable(error.code)) {
            setUnreadable(
                QStringLiteral("cannot read %1: %2").arg(m_options.topic, error.toString()));
            return;
        }
        if (!caughtUp && checkCaughtUp(session, progress)) {
            caughtUp = true;
            std::lock_guard lock(m_mutex);
            m_status.caughtUp = true;
        }
    }
}

void OffsetsTopicStream::queueMessages(ConsumerSession& session, size_t limit) {
    std::vector<consumer::ConsumedMessage> messages = session.takeAll(limit);
    if (messages.empty())
        return;
    std::vector<Record> records;
    records.reserve(messages.size());
    Status counted;
    for (const consumer::ConsumedMessage& message : messages) {
        const QByteArrayView payload = message.payload();
        // A null value is a tombstone; the offsets topic never stores empty values.
        const std::optional<QByteArrayView> value =
            payload.isNull() ? std::nullopt : std::optional<QByteArrayView>(payload);
        Record record{OffsetsTopicDecoder::decodeRecord(message.key(), value, message.timestamp()),
                      message.partition(), message.offset(), message.timestamp()};
        m_resumeAt.insert({m_options.topic, message.partition()}, message.offset() + 1);
        ++counted.recordsRead;
        if (std::holds_alternative<OffsetCommit>(record.record))
            ++counted.offsetCommits;
        else if (std::holds_alternative<GroupMetadata>(record.record))
            ++counted.groupMetadata;
        else if (const auto* group = std::get_if<ConsumerGroupRecord>(&record.record))
            ++(group->groupType == kafka::GroupType::Share     ? counted.shareGroupRecords
               : group->groupType == kafka::GroupType::Streams ? counted.streamsGroupRecords
                                                               : counted.consumerGroupRecords);
        else if (std::holds_alternative<UnknownOffsetsTopicRecord>(record.record))
            ++counted.unknownVersions;
        else if (const auto* error = std::get_if<OffsetsTopicDecodeError>(&record.record)) {
            ++counted.decodeErrors;
            counted.lastDecodeError = error->toString();
        }
        const QString group = groupOf(record.record);
        if (group.isEmpty() || !(m_options.groups.isEmpty() || m_options.groups.contains(group)))
            continue; // counted, but nobody asked for it
        records.push_back(std::move(record));
    }
    {
        std::lock_guard lock(m_mutex);
        m_status.recordsRead += counted.recordsRead;
        m_status.offsetCommits += counted.offsetCommits;
        m_status.groupMetadata += counted.groupMetadata;
        m_status.consumerGroupRecords += counted.consumerGroupRecords;
        m_status.unknownVersions += counted.unknownVersions;
        m_status.shareGroupRecords += counted.shareGroupRecords;
        m_status.streamsGroupRecords += counted.streamsGroupRecords;
        m_status.decodeErrors += counted.decodeErrors;
        if (!counted.lastDecodeError.isEmpty())
            m_status.lastDecodeError = counted.lastDecodeError;
        for (Record& record : records)
            m_queue.push_back(std::move(record));
    }
    if (!records.empty()) {
        m_changed.notify_all();
        if (m_recordsAvailable)
            m_recordsAvailable();
    }
}

bool OffsetsTopicStream::checkCaughtUp(ConsumerSession& session, const Progress& progress) const {
    if (std::chrono::steady_clock::now() - progress.lastMessageAt > idleMeansCaughtUp)
        return true;
    for (auto it = progress.endAtStart.cbegin(); it != progress.endAtStart.cend(); ++it)
        if (session.position(it.key()) < it.value())
            return false;
    return true;
}

void OffsetsTopicStream::setUnreadable(const QString& reason) {
    std::lock_guard lock(m_mutex);
    m_status.state = State::Unreadable;
    m_status.reason = reason;
    m_status.caughtUp = false;
    m_status.partitions = 0;
}

bool OffsetsTopicStream::waitForStop(std::chrono::milliseconds duration) {
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, duration, [this] { return m_stopping.load(); });
}

bool OffsetsTopicStream::waitForQueueRoom() {
    std::unique_lock lock(m_mutex);
    m_changed.wait(
        lock, [this] { return m_stopping.load() || m_queue.size() < m_options.queueCapacity; });
    return !m_stopping;
}

} // namespace groupscope::monitor
