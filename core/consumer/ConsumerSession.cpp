#include "consumer/ConsumerSession.h"

#include "kafka/ClientConf.h"
#include "kafka/TopicPartitionList.h"

#include <librdkafka/rdkafka.h>

#include <QUuid>

#include <cstdio>
#include <cstring>

namespace groupscope::consumer {

using kafka::KafkaError;
using kafka::Result;
using kafka::TopicPartition;

namespace {

constexpr int pollTimeoutMs = 100;
constexpr int maxBatch = 1000;

} // namespace

ConsumerSession::ConsumerSession(ConsumerSessionOptions options)
    : m_options(std::move(options))
    , m_partitions(std::max<size_t>(1, m_options.bufferCapacity),
                   std::max<size_t>(1, m_options.bufferCapacity) / 2) {}

Result<std::unique_ptr<ConsumerSession>> ConsumerSession::create(ConsumerSessionOptions options) {
    if (options.profile.bootstrapServers.trimmed().isEmpty())
        return KafkaError::invalidArgument(QStringLiteral("no bootstrap servers given"));
    // Offsets are stored and committed only by the engine, from positions of messages that
    // were handed out; librdkafka must not commit or store anything on its own, and must
    // report an out-of-range position instead of silently resetting it.
    QList<QPair<QString, QString>> defaults{
        {QStringLiteral("client.id"), QStringLiteral("groupscope-consumer")},
        {QStringLiteral("enable.auto.commit"), QStringLiteral("false")},
        {QStringLiteral("enable.auto.offset.store"), QStringLiteral("false")},
        {QStringLiteral("auto.offset.reset"), QStringLiteral("error")},
        {QStringLiteral("enable.partition.eof"), QStringLiteral("false")},
    };
    if (options.groupProtocol == GroupProtocol::Consumer)
        defaults.append({QStringLiteral("group.protocol"), QStringLiteral("consumer")});
    else
        defaults.append(
            {QStringLiteral("partition.assignment.strategy"), options.assignmentStrategy});
    // librdkafka's consumer poll and consumer queue need a group.id even when no group is
    // joined; a session without a group gets a private one it never joins or commits to.
    defaults.append({QStringLiteral("group.id"),
                     options.groupId.isEmpty() ? QStringLiteral("groupscope-session-") +
                                                     QUuid::createUuid().toString(QUuid::Id128)
                                               : options.groupId});
    kafka::ConnectionProfile profile = options.profile;
    profile.extraProperties.append(options.properties);
    auto conf = kafka::makeConf(profile, defaults);
    if (!conf)
        return conf.error();

    std::unique_ptr<ConsumerSession> session(new ConsumerSession(std::move(options)));
    rd_kafka_conf_set_opaque(conf.value().get(), session.get());
    rd_kafka_conf_set_rebalance_cb(conf.value().get(), &ConsumerSession::rebalanceCallback);
    rd_kafka_conf_set_error_cb(conf.value().get(), &ConsumerSession::errorCallback);
    rd_kafka_conf_set_log_cb(conf.value().get(), &ConsumerSession::logCallback);

    char reason[512] = {};
    rd_kafka_t* raw = rd_kafka_new(RD_KAFKA_CONSUMER, conf.value().get(), reason, sizeof reason);
    if (!raw)
        return KafkaError::invalidArgument(
            QStringLiteral("cannot create Kafka consumer: %1").arg(QString::fromUtf8(reason)));
    (void)conf.value().release(); // rd_kafka_new took ownership of the configuration
    session->m_handle.reset(raw);
    // Error callbacks arrive on the main queue; forwarding it to the consumer queue makes
    // the fetch thread's poll serve them too.
    rd_kafka_poll_set_consumer(raw);
    session->m_consumerQueue.reset(rd_kafka_queue_get_consumer(raw));
    RepositionEngine::Settings settings;
    settings.operationTimeout = session->m_options.operationTimeout;
    settings.whenNoCommittedOffset = session->m_options.whenNoCommittedOffset;
    settings.afterOutOfRange = session->m_options.afterOutOfRange;
    settings.groupId = session->m_options.groupId;
    session->m_engine = std::make_unique<RepositionEngine>(raw, session->m_partitions, settings);
    session->start();
    return session;
}

ConsumerSession::~ConsumerSession() {
    (void)close(); // nobody is left to tell; the group drops an unclean member in time
    m_callbacksEnabled = false;
    m_partitions.clear();    // buffered messages must go before the handle
    m_consumerQueue.reset(); // the queue must go before its handle
    // The fetch thread has closed the consumer (left its group). Destroying with a second
    // close would wait for a reply that a close cut short never gets: for ever.
    kafka::destroyWithoutConsumerClose(std::move(m_handle));
}

kafka::Status ConsumerSession::close() {
    m_stopping = true;
    wakeFetchThread();
    if (m_fetchThread.joinable())
        m_fetchThread.join();
    return m_closeOutcome;
}

void ConsumerSession::start() {
    m_fetchThread = std::thread([this] { fetchLoop(); });
}

void ConsumerSession::fetchLoop() {
    m_fetchThreadId = std::this_thread::get_id();
    while (!m_stopping) {
        runPendingJobs();
        // Wait for one message, then take what is already there without waiting, so that
        // waiting callers are woken once per batch rather than once per message.
        int routed = 0;
        for (int timeout = pollTimeoutMs; routed < maxBatch; timeout = 0, ++routed) {
            rd_kafka_message_t* raw = rd_kafka_consumer_poll(m_handle.get(), timeout);
            if (!raw)
                break;
            handleMessage(kafka::MessageHandle(raw));
        }
        if (routed > 0)
            m_partitions.notifyArrivals();
    }
    {
        // From here on nobody may wake the consumer queue: while closing, librdkafka forwards
        // it to the close's own queue, and a wake-up there ends rd_kafka_consumer_close()
        // before the group is left, leaving the consumer half closed.
        std::lock_guard lock(m_jobsMutex);
        m_acceptingJobs = false;
    }
    runPendingJobs(); // what was posted before the close still runs on an open consumer
    // Closing runs the final revoke through the engine (commit of processed positions) and
    // leaves the group.
    const rd_kafka_resp_err_t code = rd_kafka_consumer_close(m_handle.get());
    if (code || !rd_kafka_consumer_closed(m_handle.get()))
        m_closeOutcome = KafkaError::fromCode(
            code ? code : RD_KAFKA_RESP_ERR__TIMED_OUT,
            QStringLiteral("closing the consumer: it did not leave its group cleanly"));
}

const QString& ConsumerSession::topicName(const rd_kafka_message_t* message) {
    // Almost every message has the same topic as the previous one; skip the conversion.
    const char* name = rd_kafka_topic_name(message->rkt);
    if (std::strcmp(name, m_lastTopicUtf8.constData()) != 0 || m_lastTopicUtf8.isNull()) {
        m_lastTopicUtf8 = QByteArray(name);
        m_lastTopic = QString::fromUtf8(m_lastTopicUtf8);
    }
    return m_lastTopic;
}

void ConsumerSession::handleMessage(kafka::MessageHandle message) {
    if (message->err) {
        if (message->err == RD_KAFKA_RESP_ERR__PARTITION_EOF)
            return;
        if (message->err == RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET && message->rkt) {
            const TopicPartition partition{topicName(message.get()), message->partition};
            // librdkafka does not version error messages: one raised before a reposition
            // can arrive after it. Only an error about the current position is acted on.
            const int64_t fetchPosition = m_partitions.fetchPosition(partition);
            if (!m_partitions.contains(partition) ||
                (fetchPosition >= 0 && message->offset != fetchPosition))
                return;
            ++m_outOfRangeRecoveries;
            m_engine->recoverOutOfRange({partition}, assignmentMethod());
            return;
        }
        KafkaError error = KafkaError::fromCode(message->err);
        // An error message's payload, when there is one, is its text (not NUL-terminated).
        if (message->payload && message->len > 0)
            error.message = QString::fromUtf8(static_cast<const char*>(message->payload),
                                              qsizetype(message->len));
        recordError(std::move(error));
        return;
    }
    const TopicPartition partition{topicName(message.get()), message->partition};
    if (m_partitions.route(partition, ConsumedMessage(std::move(message))) ==
        PartitionTable::Routed::BufferedNowFull)
        m_engine->holdForBackpressure(partition);
}

AssignmentMethod ConsumerSession::assignmentMethod() const {
    // Decided from the configuration, never asked of librdkafka: rd_kafka_rebalance_protocol()
    // is answered by librdkafka's main thread without a timeout, and a consumer closing in
    // the middle of a group's rebalance can leave it unanswered for ever (a sandbox member
    // leaving while its group rebalanced hung that way on a busy Kafka 3.9 broker). Only an
    // EAGER assignor (range, roundrobin) replaces whole assignments; librdkafka refuses to
    // mix EAGER and COOPERATIVE assignors, the consumer protocol is always incremental, and a
    // session without a group ("NONE") accepts incremental changes.
    if (m_options.groupId.isEmpty() || m_options.groupProtocol == GroupProtocol::Consumer)
        return AssignmentMethod::Incremental;
    // The profile's properties, then the session's, win over the session's default.
    QString strategies = m_options.assignmentStrategy;
    for (const auto* properties : {&m_options.profile.extraProperties, &m_options.properties})
        for (const auto& [name, value] : *properties)
            if (name == QLatin1String("partition.assignment.strategy"))
                strategies = value;
    return strategies.contains(QLatin1String("cooperative")) ? AssignmentMethod::Incremental
                                                             : AssignmentMethod::Eager;
}

void ConsumerSession::onRebalance(rd_kafka_resp_err_t code,
                                  const rd_kafka_topic_partition_list_t* partitions,
                                  AssignmentMethod method) {
    ++m_rebalances;
    if (code == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
        RepositionRequest request;
        for (const TopicPartition& partition : kafka::toTopicPartitions(partitions))
            request.targets.insert(partition, RepositionTarget::committed());
        for (const RepositionOutcome& outcome : m_engine->assign(request, method))
            if (!outcome.ok())
                recordError(outcome.error);
        return;
    }
    if (code != RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS)
        recordError(KafkaError::fromCode(code, QStringLiteral("rebalance")));
    // A lost assignment may already belong to someone else: never commit for it.
    const bool lost = rd_kafka_assignment_lost(m_handle.get());
    if (lost)
        ++m_lostAssignments;
    const auto outcomes =
        m_engine->revoke(kafka::toTopicPartitions(partitions),
                         m_options.commitOnRevoke && !lost && !m_options.groupId.isEmpty(), method);
    for (const RepositionOutcome& outcome : outcomes)
        if (!outcome.ok())
            recordError(outcome.error);
}

void ConsumerSession::rebalanceCallback(rd_kafka_t*, rd_kafka_resp_err_t code,
                                        rd_kafka_topic_partition_list_t* partitions, void* opaque) {
    // The opaque is set before the handle exists and the engine lives as long as the handle.
    auto* self = static_cast<ConsumerSession*>(opaque);
    const AssignmentMethod method = self->assignmentMethod();
    try {
        if (self->m_callbacksEnabled) {
            self->onRebalance(code, partitions, method);
            return;
        }
    } catch (...) {
        // never let an exception cross into C
    }
    // The group waits for an answer to every rebalance: the engine gives librdkafka one
    // even when the reposition could not run, so that the group does not stall.
    self->m_engine->acknowledgeRebalance(code, partitions, method);
}

void ConsumerSession::errorCallback(rd_kafka_t*, int code, const char* reason, void* opaque) {
    try {
        auto* self = static_cast<ConsumerSession*>(opaque);
        if (!self || !self->m_callbacksEnabled)
            return;
        KafkaError error = KafkaError::fromCode(rd_kafka_resp_err_t(code));
        if (reason)
            error.message = QString::fromUtf8(reason);
        self->recordError(std::move(error));
    } catch (...) {
    }
}

void ConsumerSession::logCallback(const rd_kafka_t*, int level, const char* facility,
                                  const char* message) {
    try {
        // librdkafka logs every failed connection; tests and the GUI read errors from
        // statistics() instead. GROUPSCOPE_KAFKA_LOG prints everything.
        static const bool printLogs = qEnvironmentVariableIsSet("GROUPSCOPE_KAFKA_LOG");
        if (printLogs)
            std::fprintf(stderr, "librdkafka %d %s: %s\n", level, facility, message);
    } catch (...) {
    }
}

void ConsumerSession::recordError(KafkaError error) {
    std::lock_guard lock(m_errorMutex);
    m_lastError = std::move(error);
    ++m_errorCount;
}

void ConsumerSession::postJob(std::function<void()> job) {
    {
        std::lock_guard lock(m_jobsMutex);
        if (!m_acceptingJobs)
            return;
        m_jobs.push_back(std::move(job));
        wakeFetchThreadLocked();
    }
}

void ConsumerSession::wakeFetchThread() {
    std::lock_guard lock(m_jobsMutex);
    if (m_acceptingJobs)
        wakeFetchThreadLocked();
}

void ConsumerSession::wakeFetchThreadLocked() {
    // Wakes the fetch thread out of its poll so the job does not wait for the timeout. Called
    // only while jobs are accepted, under the jobs lock, so never once the close has begun.
    rd_kafka_queue_yield(m_consumerQueue.get());
}

void ConsumerSession::runPendingJobs() {
    for (;;) {
        std::function<void()> job;
        {
            std::lock_guard lock(m_jobsMutex);
            if (m_jobs.empty())
                return;
            job = std::move(m_jobs.front());
            m_jobs.pop_front();
        }
        job();
    }
}

template <typename R> R ConsumerSession::onFetchThread(std::function<R()> job) {
    if (std::this_thread::get_id() == m_fetchThreadId.load())
        return job();
    auto task = std::make_shared<std::packaged_task<R()>>(std::move(job));
    std::future<R> result = task->get_future();
    {
        std::lock_guard lock(m_jobsMutex);
        if (!m_acceptingJobs)
            return R(KafkaError::fromCode(RD_KAFKA_RESP_ERR__DESTROY,
                                          QStringLiteral("the consumer session is closing")));
        m_jobs.push_back([task] { (*task)(); });
        wakeFetchThreadLocked();
    }
    return result.get();
}

kafka::Status ConsumerSession::subscribe(const QStringList& topics) {
    if (m_options.groupId.isEmpty())
        return KafkaError::invalidArgument(QStringLiteral("subscribing needs a group id"));
    return onFetchThread<kafka::Status>([this, topics]() -> kafka::Status {
        const kafka::TopicPartitionListHandle list = kafka::makeTopicSubscriptionList(topics);
        if (const auto code = rd_kafka_subscribe(m_handle.get(), list.get()); code)
            return KafkaError::fromCode(code, QStringLiteral("subscribing"));
        return kafka::Done{};
    });
}

Result<ConsumerSession::Outcomes>
ConsumerSession::assign(const QMap<TopicPartition, RepositionTarget>& targets) {
    return onFetchThread<Result<Outcomes>>([this, targets]() -> Result<Outcomes> {
        RepositionRequest request;
        request.targets = targets;
        return m_engine->assign(request, AssignmentMethod::Incremental);
    });
}

Result<ConsumerSession::Outcomes> ConsumerSession::reposition(const RepositionRequest& request) {
    if (request.commit && m_options.groupId.isEmpty())
        return KafkaError::invalidArgument(QStringLiteral("committing needs a group id"));
    return onFetchThread<Result<Outcomes>>([this, request]() -> Result<Outcomes> {
        ++m_repositions;
        return m_engine->reposition(request);
    });
}

Result<ConsumerSession::Outcomes> ConsumerSession::jumpToTime(int64_t millisecondsSinceEpoch,
                                                              QList<TopicPartition> partitions,
                                                              bool commit) {
    RepositionRequest request;
    request.commit = commit;
    if (partitions.isEmpty())
        partitions = m_partitions.partitions();
    for (const TopicPartition& partition : partitions)
        request.targets.insert(partition, RepositionTarget::timestamp(millisecondsSinceEpoch));
    return reposition(request);
}

Result<ConsumerSession::Outcomes> ConsumerSession::commit() {
    if (m_options.groupId.isEmpty())
        return KafkaError::invalidArgument(QStringLiteral("committing needs a group id"));
    return onFetchThread<Result<Outcomes>>(
        [this]() -> Result<Outcomes> { return m_engine->commitProcessedPositions(); });
}

void ConsumerSession::requestBackpressureRelease(const QList<TopicPartition>& partitions) {
    if (partitions.isEmpty())
        return;
    postJob([this, partitions] {
        for (const TopicPartition& partition : partitions)
            m_engine->releaseBackpressure(partition);
    });
}

std::vector<ConsumedMessage> ConsumerSession::take(const TopicPartition& partition, size_t limit) {
    QList<TopicPartition> toResume;
    auto messages = m_partitions.take(&partition, limit, toResume);
    requestBackpressureRelease(toResume);
    return messages;
}

std::vector<ConsumedMessage> ConsumerSession::takeAll(size_t limit) {
    QList<TopicPartition> toResume;
    auto messages = m_partitions.take(nullptr, limit, toResume);
    requestBackpressureRelease(toResume);
    return messages;
}

bool ConsumerSession::waitForMessages(std::chrono::milliseconds timeout) {
    return m_partitions.waitForMessages(timeout);
}

QList<TopicPartition> ConsumerSession::assignment() const {
    return m_partitions.partitions();
}

int64_t ConsumerSession::position(const TopicPartition& partition) const {
    return m_partitions.consumedPosition(partition);
}

ConsumerStatistics ConsumerSession::statistics() const {
    ConsumerStatistics statistics;
    m_partitions.fillStatistics(statistics);
    statistics.repositions = m_repositions;
    statistics.rebalances = m_rebalances;
    statistics.outOfRangeRecoveries = m_outOfRangeRecoveries;
    statistics.lostAssignments = m_lostAssignments;
    std::lock_guard lock(m_errorMutex);
    statistics.lastError = m_lastError;
    statistics.errors = m_errorCount;
    return statistics;
}

QList<PartitionStatistics> ConsumerSession::partitionStatistics() const {
    return m_partitions.partitionStatistics();
}

void ConsumerSession::setRepositionObserver(RepositionObserver* observer) {
    m_engine->setObserver(observer);
}

QString ConsumerSession::memberId() const {
    if (m_options.groupId.isEmpty() || !m_handle)
        return {};
    char* raw = rd_kafka_memberid(m_handle.get());
    const QString id = raw ? QString::fromUtf8(raw) : QString();
    if (raw)
        rd_kafka_mem_free(m_handle.get(), raw); // allocated by librdkafka, freed by it
    return id;
}

} // namespace groupscope::consumer
