#include "kafka/AdminClient.h"

#include <QMutexLocker>
#include <QSet>
#include <QUuid>

#include <algorithm>
#include <cstdio>
#include <exception>

namespace groupscope::kafka {

namespace {

using Clock = std::chrono::steady_clock;

int remainingMs(Clock::time_point deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return int(std::clamp<long long>(left, 0, 1'000'000'000));
}

GroupState fromLibrdkafka(rd_kafka_consumer_group_state_t state) {
    switch (state) {
    case RD_KAFKA_CONSUMER_GROUP_STATE_PREPARING_REBALANCE:
        return GroupState::PreparingRebalance;
    case RD_KAFKA_CONSUMER_GROUP_STATE_COMPLETING_REBALANCE:
        return GroupState::CompletingRebalance;
    case RD_KAFKA_CONSUMER_GROUP_STATE_STABLE:
        return GroupState::Stable;
    case RD_KAFKA_CONSUMER_GROUP_STATE_DEAD:
        return GroupState::Dead;
    case RD_KAFKA_CONSUMER_GROUP_STATE_EMPTY:
        return GroupState::Empty;
    default:
        return GroupState::Unknown;
    }
}

QString fromUtf8OrEmpty(const char* text) {
    return text ? QString::fromUtf8(text) : QString();
}

QList<TopicPartition> toTopicPartitions(const rd_kafka_topic_partition_list_t* list) {
    QList<TopicPartition> result;
    if (!list)
        return result;
    result.reserve(list->cnt);
    for (int i = 0; i < list->cnt; ++i)
        result.append({QString::fromUtf8(list->elems[i].topic), list->elems[i].partition});
    return result;
}

// A copy of an event's error as a value; the event keeps ownership of its strings.
KafkaError eventError(rd_kafka_event_t* event) {
    KafkaError error;
    error.code = rd_kafka_event_error(event);
    if (error.isError())
        error.message = fromUtf8OrEmpty(rd_kafka_event_error_string(event));
    return error;
}

KafkaError borrowedError(const rd_kafka_error_t* raw) {
    KafkaError error;
    if (!raw)
        return error;
    error.code = rd_kafka_error_code(raw);
    error.message = fromUtf8OrEmpty(rd_kafka_error_string(raw));
    error.retriable = rd_kafka_error_is_retriable(raw);
    error.fatal = rd_kafka_error_is_fatal(raw);
    return error;
}

// The process-wide log sink (see AdminClient::setLogSink). The flag spares every log line
// the lock while no sink is set, which is always outside tests.
QMutex logSinkMutex;
AdminClient::LogSink logSink;
std::atomic<bool> logSinkSet = false;

} // namespace

void AdminClient::setLogSink(LogSink sink) {
    QMutexLocker lock(&logSinkMutex);
    logSinkSet = bool(sink);
    logSink = std::move(sink);
}

AdminClient::AdminClient(ConnectionProfile profile, Milliseconds timeout)
    : m_profile(std::move(profile))
    , m_timeout(timeout) {}

void AdminClient::renewIfCoordinatorMoved(std::unique_ptr<AdminClient>& client) {
    if (!client || !client->coordinatorMoved())
        return;
    auto renewed = create(client->m_profile, client->m_timeout);
    if (!renewed)
        return;
    renewed.value()->setCancelFlag(client->m_cancelled);
    client = std::move(renewed).value();
}

AdminClient::~AdminClient() {
    m_queue.reset(); // the queue must go before its handle
    m_handle.reset();
}

Result<std::unique_ptr<AdminClient>> AdminClient::create(const ConnectionProfile& profile,
                                                         Milliseconds timeout) {
    if (profile.bootstrapServers.trimmed().isEmpty())
        return KafkaError::invalidArgument(QStringLiteral("no bootstrap servers given"));
    // Log end offsets as Kafka's own tool reports them (read_uncommitted: the high
    // watermark, not the last stable offset).
    //
    // The group id is private and never subscribed, so this handle never joins or commits
    // and the group never exists on the broker: inspecting triggers no rebalance anywhere.
    // It must be there all the same: librdkafka (2.0 up to at least 2.4) dereferences a
    // missing consumer-group object when an OffsetFetch answer says NOT_COORDINATOR
    // (librdkafka issue 5040), which crashed ListConsumerGroupOffsets on a fresh broker and
    // during coordinator moves.
    const QString privateGroupId =
        QStringLiteral("groupscope-inspector-") + QUuid::createUuid().toString(QUuid::Id128);
    auto conf =
        makeConf(profile, {{QStringLiteral("isolation.level"), QStringLiteral("read_uncommitted")},
                           {QStringLiteral("client.id"), QStringLiteral("groupscope-admin")},
                           {QStringLiteral("group.id"), privateGroupId},
                           {QStringLiteral("enable.auto.commit"), QStringLiteral("false")}});
    if (!conf)
        return conf.error();

    std::unique_ptr<AdminClient> client(new AdminClient(profile, timeout));
    rd_kafka_conf_set_opaque(conf.value().get(), client.get());
    rd_kafka_conf_set_error_cb(conf.value().get(), &AdminClient::errorCallback);
    rd_kafka_conf_set_log_cb(conf.value().get(), &AdminClient::logCallback);

    char reason[512] = {};
    rd_kafka_t* raw = rd_kafka_new(RD_KAFKA_CONSUMER, conf.value().get(), reason, sizeof reason);
    if (!raw) {
        const QString why = QString::fromUtf8(reason);
        // OpenSSL's "PEM lib" says nothing to a person; the usual cause is the passphrase.
        if (why.startsWith(u"ssl.key.location"))
            return KafkaError::invalidArgument(
                QStringLiteral("cannot load the client key %1: wrong key passphrase "
                               "(ssl.key.password), or not a PEM private key: %2")
                    .arg(profile.sslKeyLocation, why));
        return KafkaError::invalidArgument(
            QStringLiteral("cannot create Kafka client: %1").arg(why));
    }
    (void)conf.value().release(); // rd_kafka_new took ownership of the configuration
    client->m_handle.reset(raw);
    client->m_queue.reset(rd_kafka_queue_new(raw));
    return client;
}

void AdminClient::errorCallback(rd_kafka_t*, int code, const char* reason, void* opaque) {
    try {
        auto* self = static_cast<AdminClient*>(opaque);
        if (!self)
            return;
        const auto errorCode = rd_kafka_resp_err_t(code);
        if (KafkaError failure =
                KafkaError::connectionSetupFailure(errorCode, fromUtf8OrEmpty(reason));
            failure)
            self->recordSetupFailure(failure);
        if (errorCode != RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN)
            self->recordConnectionProblem(fromUtf8OrEmpty(reason));
    } catch (...) {
        // never let an exception cross into C
    }
}

void AdminClient::logCallback(const rd_kafka_t* handle, int level, const char* facility,
                              const char* message) {
    try {
        // librdkafka logs connection failures at warning/error level; keep the last one for
        // error messages instead of printing it, unless the user asked for Kafka logs.
        static const bool printLogs = qEnvironmentVariableIsSet("GROUPSCOPE_KAFKA_LOG");
        if (printLogs)
            std::fprintf(stderr, "librdkafka %d %s: %s\n", level, facility, message);
        if (logSinkSet) {
            QMutexLocker lock(&logSinkMutex);
            if (logSink)
                logSink(level, fromUtf8OrEmpty(facility), fromUtf8OrEmpty(message));
        }
        if (level <= 4)
            if (auto* self = static_cast<AdminClient*>(rd_kafka_opaque(handle))) {
                const QString text = fromUtf8OrEmpty(message);
                // Some handshake failures reach only the log, not the error callback.
                if (KafkaError failure =
                        KafkaError::connectionSetupFailure(RD_KAFKA_RESP_ERR_NO_ERROR, text);
                    failure)
                    self->recordSetupFailure(failure);
                self->recordConnectionProblem(text);
            }
    } catch (...) {
    }
}

void AdminClient::recordConnectionProblem(const QString& problem) {
    QMutexLocker lock(&m_problemMutex);
    m_lastConnectionProblem = problem;
}

void AdminClient::recordSetupFailure(const KafkaError& failure) {
    QMutexLocker lock(&m_problemMutex);
    m_setupFailure = failure;
    m_setupFailureTime = Clock::now();
}

KafkaError AdminClient::setupFailureSince(Clock::time_point since) const {
    QMutexLocker lock(&m_problemMutex);
    if (m_setupFailure && m_setupFailureTime >= since)
        return m_setupFailure;
    return {};
}

void AdminClient::abandonPendingRequests() {
    // Each request holds its own reference to its reply queue: dropping ours is safe, and
    // the late answer is freed with the queue.
    m_queue.reset(rd_kafka_queue_new(m_handle.get()));
}

KafkaError AdminClient::timeoutError(const QString& what) const {
    QString problem;
    KafkaError setupFailure;
    {
        QMutexLocker lock(&m_problemMutex);
        problem = m_lastConnectionProblem;
        setupFailure = m_setupFailure;
    }
    // A call that cannot wait on the event queue (metadata, offsets for times) times out
    // instead of failing fast; the authentication or TLS failure is still the real reason.
    if (setupFailure) {
        setupFailure.message = QStringLiteral("%1 (bootstrap servers %2): %3")
                                   .arg(what, m_profile.bootstrapServers, setupFailure.message);
        return setupFailure;
    }
    QString message = QStringLiteral("%1 timed out after %2 ms (bootstrap servers %3)")
                          .arg(what)
                          .arg(m_timeout.count())
                          .arg(m_profile.bootstrapServers);
    if (!problem.isEmpty())
        message += QStringLiteral(": last problem: ") + problem;
    return KafkaError::timeout(message);
}

KafkaError AdminClient::explain(KafkaError error, const QString& what) const {
    if (error.isConnectionFailure())
        return timeoutError(what);
    if (!error.message.startsWith(what))
        error.message = QStringLiteral("%1: %2").arg(what, error.message);
    return error.withExplanation();
}

AdminOptionsHandle AdminClient::makeOptions(rd_kafka_admin_op_t op, Deadline deadline) const {
    AdminOptionsHandle options(rd_kafka_AdminOptions_new(m_handle.get(), op));
    char reason[256];
    rd_kafka_AdminOptions_set_request_timeout(options.get(), std::max(1, remainingMs(deadline)),
                                              reason, sizeof reason);
    return options;
}

Result<EventHandle> AdminClient::waitForEvent(Deadline deadline, const QString& what,
                                              rd_kafka_event_type_t type) {
    const Clock::time_point callStart = deadline - m_timeout;
    for (;;) {
        // Serve the main queue too: that is where error callbacks are delivered.
        rd_kafka_poll(m_handle.get(), 0);
        const int slice = std::min(remainingMs(deadline), 100);
        EventHandle event(rd_kafka_queue_poll(m_queue.get(), slice));
        // Any other event is the late answer of an abandoned request: reading it as this
        // call's answer would hand a null result to librdkafka's accessors (a crash).
        if (event && rd_kafka_event_type(event.get()) == type)
            return event;
        if (KafkaError failure = setupFailureSince(callStart); failure) {
            abandonPendingRequests();
            failure.message = QStringLiteral("%1 (bootstrap servers %2): %3")
                                  .arg(what, m_profile.bootstrapServers, failure.message);
            return failure;
        }
        if (m_cancelled && m_cancelled->load()) {
            abandonPendingRequests();
            return KafkaError{RD_KAFKA_RESP_ERR__INTR, what + QStringLiteral(" was cancelled"),
                              false, false};
        }
        if (remainingMs(deadline) == 0) {
            // librdkafka's own timeout for the request fires about now, and its answer would
            // otherwise wait in the queue for the next call.
            abandonPendingRequests();
            return timeoutError(what);
        }
    }
}

void AdminClient::noteGroupError(const KafkaError& error) {
    if (error.code == RD_KAFKA_RESP_ERR_NOT_COORDINATOR)
        m_coordinatorMoved = true;
}

Result<QList<GroupListing>> AdminClient::listGroups() {
    const Deadline until = deadline();
    for (;;) {
        bool brokerStillLoading = false;
        auto listed = listGroupsOnce(until, brokerStillLoading);
        // A broker that is still loading its groups (it has just started, or just become a
        // coordinator) leaves them out of the listing, or fails it when it is the only
        // broker: ask again while there is time, as Kafka's Java client does.
        if (!brokerStillLoading || remainingMs(until) < 500 || (m_cancelled && m_cancelled->load()))
            return listed;
        rd_kafka_poll(m_handle.get(), 200); // a short pause that also serves callbacks
    }
}

Result<QList<GroupListing>> AdminClient::listGroupsOnce(Deadline until, bool& brokerStillLoading) {
    // Every broker is asked, and one that is down (stopped, or gone from the cluster but
    // still known to librdkafka) answers only with librdkafka's timeout. That timeout ends a
    // little before ours, so the other brokers' listings arrive instead of a timeout.
    const auto margin = std::min<Milliseconds>(m_timeout / 5, Milliseconds(1000));
    auto options = makeOptions(RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPS, until - margin);
    rd_kafka_ListConsumerGroups(m_handle.get(), options.get(), m_queue.get());
    auto event = waitForEvent(until, QStringLiteral("listing groups"),
                              RD_KAFKA_EVENT_LISTCONSUMERGROUPS_RESULT);
    if (!event)
        return event.error();
    rd_kafka_event_t* raw = event.value().get();
    if (KafkaError error = eventError(raw); error)
        return explain(error, QStringLiteral("listing groups"));
    const auto* result = rd_kafka_event_ListConsumerGroups_result(raw);
    size_t validCount = 0, errorCount = 0;
    const auto** valid = rd_kafka_ListConsumerGroups_result_valid(result, &validCount);
    const auto** errors = rd_kafka_ListConsumerGroups_result_errors(result, &errorCount);
    for (size_t i = 0; i < errorCount; ++i) {
        const rd_kafka_resp_err_t code = rd_kafka_error_code(errors[i]);
        brokerStillLoading = brokerStillLoading ||
                             code == RD_KAFKA_RESP_ERR_COORDINATOR_LOAD_IN_PROGRESS ||
                             code == RD_KAFKA_RESP_ERR_COORDINATOR_NOT_AVAILABLE;
    }
    // Some brokers may fail while others answer; only when none answered is it an error.
    if (validCount == 0 && errorCount > 0)
        return explain(borrowedError(errors[0]), QStringLiteral("listing groups"));
    QList<GroupListing> groups;
    groups.reserve(qsizetype(validCount));
    for (size_t i = 0; i < validCount; ++i)
        groups.append({QString::fromUtf8(rd_kafka_ConsumerGroupListing_group_id(valid[i])),
                       fromLibrdkafka(rd_kafka_ConsumerGroupListing_state(valid[i])),
                       rd_kafka_ConsumerGroupListing_is_simple_consumer_group(valid[i]) != 0});
    std::stable_sort(groups.begin(), groups.end(),
                     [](const auto& a, const auto& b) { return a.groupId < b.groupId; });
    // Every broker lists the groups it coordinates. While a coordinator moves, the old and
    // the new one both list the group: keep one listing, or describing the list fails as a
    // whole ("Duplicate groups not allowed").
    groups.erase(std::unique(groups.begin(), groups.end(),
                             [](const auto& a, const auto& b) { return a.groupId == b.groupId; }),
                 groups.end());
    return groups;
}

Result<QList<GroupDescription>> AdminClient::describeGroups(const QStringList& groupIds) {
    if (groupIds.isEmpty())
        return QList<GroupDescription>{};
    const Deadline until = deadline();
    QList<QByteArray> utf8;
    std::vector<const char*> names;
    for (const QString& id : groupIds)
        utf8.append(id.toUtf8());
    for (const QByteArray& id : utf8)
        names.push_back(id.constData());
    auto options = makeOptions(RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS, until);
    rd_kafka_DescribeConsumerGroups(m_handle.get(), names.data(), names.size(), options.get(),
                                    m_queue.get());
    auto event = waitForEvent(until, QStringLiteral("describing groups"),
                              RD_KAFKA_EVENT_DESCRIBECONSUMERGROUPS_RESULT);
    if (!event)
        return event.error();
    rd_kafka_event_t* raw = event.value().get();
    if (KafkaError error = eventError(raw); error)
        return explain(error, QStringLiteral("describing groups"));
    size_t count = 0;
    const auto** groups = rd_kafka_DescribeConsumerGroups_result_groups(
        rd_kafka_event_DescribeConsumerGroups_result(raw), &count);
    QList<GroupDescription> descriptions;
    descriptions.reserve(qsizetype(count));
    for (size_t i = 0; i < count; ++i) {
        const auto* group = groups[i];
        GroupDescription description;
        description.groupId = QString::fromUtf8(rd_kafka_ConsumerGroupDescription_group_id(group));
        description.error = borrowedError(rd_kafka_ConsumerGroupDescription_error(group));
        noteGroupError(description.error);
        // librdkafka reports an unreachable cluster per group (its coordinator lookup timed
        // out), not as the event's error: name the bootstrap servers and the last connection
        // problem, as for every other timeout.
        if (description.error.isConnectionFailure())
            description.error =
                timeoutError(QStringLiteral("describing group %1").arg(description.groupId));
        description.state = fromLibrdkafka(rd_kafka_ConsumerGroupDescription_state(group));
        description.partitionAssignor =
            fromUtf8OrEmpty(rd_kafka_ConsumerGroupDescription_partition_assignor(group));
        // librdkafka 2.0 reports "simple" where the broker's protocol type is empty; every
        // other group it describes is a consumer group.
        description.protocolType = rd_kafka_ConsumerGroupDescription_is_simple_consumer_group(group)
                                       ? QString()
                                       : QStringLiteral("consumer");
        if (const auto* node = rd_kafka_ConsumerGroupDescription_coordinator(group))
            description.coordinator = {rd_kafka_Node_id(node),
                                       fromUtf8OrEmpty(rd_kafka_Node_host(node)),
                                       rd_kafka_Node_port(node)};
        const size_t memberCount = rd_kafka_ConsumerGroupDescription_member_count(group);
        for (size_t m = 0; m < memberCount; ++m) {
            const auto* member = rd_kafka_ConsumerGroupDescription_member(group, m);
            MemberDescription memberDescription;
            memberDescription.memberId =
                fromUtf8OrEmpty(rd_kafka_MemberDescription_consumer_id(member));
            memberDescription.groupInstanceId =
                fromUtf8OrEmpty(rd_kafka_MemberDescription_group_instance_id(member));
            memberDescription.clientId =
                fromUtf8OrEmpty(rd_kafka_MemberDescription_client_id(member));
            memberDescription.host = fromUtf8OrEmpty(rd_kafka_MemberDescription_host(member));
            if (const auto* assignment = rd_kafka_MemberDescription_assignment(member))
                memberDescription.assignment =
                    toTopicPartitions(rd_kafka_MemberAssignment_partitions(assignment));
            std::sort(memberDescription.assignment.begin(), memberDescription.assignment.end());
            description.members.append(std::move(memberDescription));
        }
        descriptions.append(std::move(description));
    }
    return descriptions;
}

Result<QHash<QString, QList<CommittedOffset>>>
AdminClient::listCommittedOffsets(const QStringList& groupIds) {
    QHash<QString, QList<CommittedOffset>> offsetsByGroup;
    const Deadline until = deadline();
    // Bounded concurrency: enough requests in flight to hide round trips, not so many that
    // a cluster with thousands of groups is flooded.
    constexpr int maxInFlight = 64;
    qsizetype nextToSend = 0;
    int inFlight = 0;
    auto options = makeOptions(RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS, until);
    while (nextToSend < groupIds.size() || inFlight > 0) {
        while (inFlight < maxInFlight && nextToSend < groupIds.size()) {
            ListConsumerGroupOffsetsHandle request(rd_kafka_ListConsumerGroupOffsets_new(
                groupIds[nextToSend++].toUtf8().constData(), nullptr));
            rd_kafka_ListConsumerGroupOffsets_t* requests[] = {request.get()};
            rd_kafka_ListConsumerGroupOffsets(m_handle.get(), requests, 1, options.get(),
                                              m_queue.get());
            ++inFlight;
        }
        auto event = waitForEvent(until, QStringLiteral("listing committed offsets"),
                                  RD_KAFKA_EVENT_LISTCONSUMERGROUPOFFSETS_RESULT);
        if (!event)
            return event.error();
        --inFlight;
        rd_kafka_event_t* raw = event.value().get();
        if (KafkaError error = eventError(raw); error) {
            noteGroupError(error);
            if (inFlight > 0)
                abandonPendingRequests();
            return explain(error, QStringLiteral("listing committed offsets"));
        }
        size_t count = 0;
        const auto** groups = rd_kafka_ListConsumerGroupOffsets_result_groups(
            rd_kafka_event_ListConsumerGroupOffsets_result(raw), &count);
        for (size_t i = 0; i < count; ++i) {
            const QString groupId = QString::fromUtf8(rd_kafka_group_result_name(groups[i]));
            if (KafkaError error = borrowedError(rd_kafka_group_result_error(groups[i])); error) {
                noteGroupError(error);
                if (inFlight > 0)
                    abandonPendingRequests();
                return explain(
                    error, QStringLiteral("listing committed offsets of group %1").arg(groupId));
            }
            QList<CommittedOffset>& offsets = offsetsByGroup[groupId];
            const auto* list = rd_kafka_group_result_partitions(groups[i]);
            for (int p = 0; list && p < list->cnt; ++p) {
                const auto& element = list->elems[p];
                // Partitions without a commit come back with offset -1 (INVALID): skip them.
                if (element.err || element.offset < 0)
                    continue;
                CommittedOffset committed;
                committed.topicPartition = {QString::fromUtf8(element.topic), element.partition};
                committed.offset = element.offset;
                if (element.metadata && element.metadata_size > 0)
                    committed.metadata =
                        QString::fromUtf8(static_cast<const char*>(element.metadata),
                                          qsizetype(element.metadata_size));
                offsets.append(std::move(committed));
            }
            std::sort(offsets.begin(), offsets.end(), [](const auto& a, const auto& b) {
                return a.topicPartition < b.topicPartition;
            });
        }
    }
    return offsetsByGroup;
}

namespace {

// Errors that mean "ask again shortly": leadership is moving or metadata is stale, as right
// after a topic is created or during a broker restart. librdkafka refreshes its metadata
// when it sees them; the caller retries until its deadline.
bool isTransientLeaderError(rd_kafka_resp_err_t code) {
    switch (code) {
    case RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION:
    case RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE:
    case RD_KAFKA_RESP_ERR_FENCED_LEADER_EPOCH:
    case RD_KAFKA_RESP_ERR_UNKNOWN_LEADER_EPOCH:
    case RD_KAFKA_RESP_ERR_REPLICA_NOT_AVAILABLE:
    case RD_KAFKA_RESP_ERR__TRANSPORT:
    case RD_KAFKA_RESP_ERR_OFFSET_NOT_AVAILABLE:
        return true;
    default:
        return false;
    }
}

} // namespace

rd_kafka_resp_err_t AdminClient::offsetsForTimesWithRetry(rd_kafka_topic_partition_list_t* list,
                                                          Deadline until) {
    // offsets_for_times overwrites each element's offset with the answer: keep the asked
    // timestamps so a retry asks the same question.
    std::vector<int64_t> asked(size_t(list->cnt));
    for (int i = 0; i < list->cnt; ++i)
        asked[size_t(i)] = list->elems[i].offset;
    for (;;) {
        for (int i = 0; i < list->cnt; ++i) {
            list->elems[i].offset = asked[size_t(i)];
            list->elems[i].err = RD_KAFKA_RESP_ERR_NO_ERROR;
        }
        // One attempt may take half the call's time: a leader that was stopped never
        // answers, and the other half is left to ask the new leader.
        const int attemptMs = std::max(
            1, std::min(remainingMs(until), int(std::max<long long>(m_timeout.count() / 2, 1))));
        rd_kafka_resp_err_t code = rd_kafka_offsets_for_times(m_handle.get(), list, attemptMs);
        bool transient = isTransientLeaderError(code) || code == RD_KAFKA_RESP_ERR__TIMED_OUT;
        for (int i = 0; code == RD_KAFKA_RESP_ERR_NO_ERROR && i < list->cnt; ++i)
            transient = transient || isTransientLeaderError(list->elems[i].err);
        if (!transient || remainingMs(until) < 200 || (m_cancelled && m_cancelled->load()))
            return code;
        refreshLeaders(list, until);
        rd_kafka_poll(m_handle.get(), 100); // a short pause that also serves callbacks
    }
}

void AdminClient::refreshLeaders(const rd_kafka_topic_partition_list_t* list, Deadline until) {
    QSet<QByteArray> topics;
    for (int i = 0; i < list->cnt; ++i)
        topics.insert(QByteArray(list->elems[i].topic));
    for (const QByteArray& name : std::as_const(topics)) {
        if (remainingMs(until) < 200)
            return;
        // A Metadata request for the topic (never creating it); its answer updates the
        // leaders librdkafka sends ListOffsets to.
        TopicHandle topic(rd_kafka_topic_new(m_handle.get(), name.constData(), nullptr));
        const rd_kafka_metadata_t* raw = nullptr;
        rd_kafka_metadata(m_handle.get(), 0, topic.get(), &raw,
                          std::min(remainingMs(until) - 100, 1000));
        MetadataHandle metadata(raw);
    }
}

Result<QList<LogOffsets>> AdminClient::queryOffsets(rd_kafka_topic_partition_list_t* list,
                                                    int64_t spec, Deadline until) {
    for (int i = 0; i < list->cnt; ++i)
        list->elems[i].offset = spec;
    // offsets_for_times groups the partitions by leader and sends one ListOffsets request
    // per leader; the special timestamps -2 and -1 ask for the earliest and latest offsets.
    const rd_kafka_resp_err_t code = offsetsForTimesWithRetry(list, until);
    if (code != RD_KAFKA_RESP_ERR_NO_ERROR && code != RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION)
        return explain(KafkaError::fromCode(code), QStringLiteral("querying log offsets"));
    QList<LogOffsets> offsets;
    offsets.reserve(list->cnt);
    for (int i = 0; i < list->cnt; ++i) {
        const auto& element = list->elems[i];
        LogOffsets entry;
        entry.topicPartition = {QString::fromUtf8(element.topic), element.partition};
        if (element.err)
            entry.error = KafkaError::fromCode(element.err, entry.topicPartition.toString());
        else if (spec == RD_KAFKA_OFFSET_BEGINNING)
            entry.logStartOffset = element.offset;
        else
            entry.logEndOffset = element.offset;
        offsets.append(std::move(entry));
    }
    return offsets;
}

Result<QList<LogOffsets>> AdminClient::logOffsets(const QList<TopicPartition>& partitions) {
    if (partitions.isEmpty())
        return QList<LogOffsets>{};
    const Deadline until = deadline();
    TopicPartitionListHandle list(rd_kafka_topic_partition_list_new(int(partitions.size())));
    QList<TopicPartition> unique = partitions;
    std::sort(unique.begin(), unique.end());
    unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
    for (const TopicPartition& tp : unique)
        rd_kafka_topic_partition_list_add(list.get(), tp.topic.toUtf8().constData(), tp.partition);

    auto starts = queryOffsets(list.get(), RD_KAFKA_OFFSET_BEGINNING, until);
    if (!starts)
        return starts.error();
    auto ends = queryOffsets(list.get(), RD_KAFKA_OFFSET_END, until);
    if (!ends)
        return ends.error();
    QList<LogOffsets> merged = starts.value();
    for (qsizetype i = 0; i < merged.size(); ++i) {
        merged[i].logEndOffset = ends.value()[i].logEndOffset;
        if (!merged[i].error)
            merged[i].error = ends.value()[i].error;
    }
    return merged;
}

Result<QList<TopicPartition>> AdminClient::topicPartitions(const QStringList& topics) {
    auto infos = describePartitions(topics);
    if (!infos)
        return infos.error();
    QList<TopicPartition> partitions;
    partitions.reserve(infos.value().size());
    for (const PartitionInfo& info : infos.value())
        partitions.append(info.topicPartition);
    return partitions;
}

Result<QList<PartitionInfo>> AdminClient::describePartitions(const QStringList& topics) {
    const Deadline until = deadline();
    QList<PartitionInfo> result;
    auto collect = [&](const rd_kafka_metadata_topic_t& topic) -> KafkaError {
        const QString name = QString::fromUtf8(topic.topic);
        if (topic.err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART)
            return KafkaError{topic.err, QStringLiteral("topic '%1' does not exist").arg(name),
                              false, false};
        if (topic.err)
            return KafkaError::fromCode(topic.err, QStringLiteral("topic '%1'").arg(name));
        for (int p = 0; p < topic.partition_cnt; ++p)
            result.append({{name, topic.partitions[p].id}, topic.partitions[p].leader});
        return {};
    };
    if (topics.isEmpty()) {
        const rd_kafka_metadata_t* raw = nullptr;
        const auto code = rd_kafka_metadata(m_handle.get(), 1, nullptr, &raw, remainingMs(until));
        MetadataHandle metadata(raw);
        if (code)
            return explain(KafkaError::fromCode(code), QStringLiteral("reading cluster metadata"));
        for (int t = 0; t < metadata->topic_cnt; ++t)
            if (!metadata->topics[t].err)
                collect(metadata->topics[t]);
    } else {
        for (const QString& name : topics) {
            // A topic handle asks for this topic only; with auto-creation off on the broker
            // this never creates it.
            TopicHandle topic(
                rd_kafka_topic_new(m_handle.get(), name.toUtf8().constData(), nullptr));
            const rd_kafka_metadata_t* raw = nullptr;
            const auto code =
                rd_kafka_metadata(m_handle.get(), 0, topic.get(), &raw, remainingMs(until));
            MetadataHandle metadata(raw);
            if (code)
                return explain(KafkaError::fromCode(code),
                               QStringLiteral("reading metadata of topic '%1'").arg(name));
            KafkaError error =
                metadata->topic_cnt > 0
                    ? collect(metadata->topics[0])
                    : KafkaError{RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART,
                                 QStringLiteral("topic '%1' does not exist").arg(name), false,
                                 false};
            if (error)
                return error;
        }
    }
    std::sort(result.begin(), result.end(),
              [](const auto& a, const auto& b) { return a.topicPartition < b.topicPartition; });
    return result;
}

Result<QHash<TopicPartition, int64_t>>
AdminClient::offsetsForTimestamps(const QList<QPair<TopicPartition, int64_t>>& timestamps) {
    QHash<TopicPartition, int64_t> offsets;
    if (timestamps.isEmpty())
        return offsets;
    const Deadline until = deadline();
    TopicPartitionListHandle list(rd_kafka_topic_partition_list_new(int(timestamps.size())));
    for (const auto& [tp, timestamp] : timestamps)
        rd_kafka_topic_partition_list_add(list.get(), tp.topic.toUtf8().constData(), tp.partition)
            ->offset = timestamp;
    const rd_kafka_resp_err_t code = offsetsForTimesWithRetry(list.get(), until);
    if (code != RD_KAFKA_RESP_ERR_NO_ERROR)
        return explain(KafkaError::fromCode(code),
                       QStringLiteral("looking up offsets by timestamp"));
    for (int i = 0; i < list->cnt; ++i) {
        const auto& element = list->elems[i];
        const TopicPartition tp{QString::fromUtf8(element.topic), element.partition};
        if (element.err)
            return KafkaError::fromCode(
                element.err,
                QStringLiteral("looking up the offset by timestamp of %1").arg(tp.toString()));
        offsets.insert(tp, element.offset);
    }
    return offsets;
}

namespace {

// Per-partition outcomes of an alter or delete result for one group.
QList<PartitionOutcome> partitionOutcomes(const rd_kafka_topic_partition_list_t* list,
                                          bool isDelete) {
    QList<PartitionOutcome> outcomes;
    for (int i = 0; list && i < list->cnt; ++i) {
        const auto& element = list->elems[i];
        PartitionOutcome outcome;
        outcome.topicPartition = {QString::fromUtf8(element.topic), element.partition};
        outcome.offset = isDelete ? -1 : element.offset;
        if (element.err)
            outcome.error = KafkaError::fromCode(element.err, outcome.topicPartition.toString());
        outcomes.append(std::move(outcome));
    }
    std::sort(outcomes.begin(), outcomes.end(),
              [](const auto& a, const auto& b) { return a.topicPartition < b.topicPartition; });
    return outcomes;
}

} // namespace

Result<QList<PartitionOutcome>> AdminClient::collectGroupWrite(const Deadline& until,
                                                               const QString& what, bool isDelete) {
    auto event = waitForEvent(until, what,
                              isDelete ? RD_KAFKA_EVENT_DELETECONSUMERGROUPOFFSETS_RESULT
                                       : RD_KAFKA_EVENT_ALTERCONSUMERGROUPOFFSETS_RESULT);
    if (!event)
        return event.error();
    rd_kafka_event_t* raw = event.value().get();
    if (KafkaError error = eventError(raw); error) {
        noteGroupError(error);
        return explain(error, what);
    }
    size_t count = 0;
    const rd_kafka_group_result_t** groups =
        isDelete ? rd_kafka_DeleteConsumerGroupOffsets_result_groups(
                       rd_kafka_event_DeleteConsumerGroupOffsets_result(raw), &count)
                 : rd_kafka_AlterConsumerGroupOffsets_result_groups(
                       rd_kafka_event_AlterConsumerGroupOffsets_result(raw), &count);
    if (count == 0)
        return KafkaError::invalidArgument(what +
                                           QStringLiteral(": the broker returned no result"));
    QList<PartitionOutcome> outcomes =
        partitionOutcomes(rd_kafka_group_result_partitions(groups[0]), isDelete);
    // A group-level error (e.g. the group has active members) applies to every partition.
    if (KafkaError groupError = borrowedError(rd_kafka_group_result_error(groups[0])); groupError) {
        noteGroupError(groupError);
        if (outcomes.isEmpty())
            return explain(groupError, what);
        for (PartitionOutcome& outcome : outcomes)
            if (!outcome.error)
                outcome.error = groupError;
    }
    return outcomes;
}

Result<QList<PartitionOutcome>>
AdminClient::alterCommittedOffsets(const QString& groupId,
                                   const QList<QPair<TopicPartition, int64_t>>& offsets) {
    if (offsets.isEmpty())
        return QList<PartitionOutcome>{};
    const Deadline until = deadline();
    TopicPartitionListHandle list(rd_kafka_topic_partition_list_new(int(offsets.size())));
    for (const auto& [tp, offset] : offsets)
        rd_kafka_topic_partition_list_add(list.get(), tp.topic.toUtf8().constData(), tp.partition)
            ->offset = offset;
    AlterConsumerGroupOffsetsHandle request(
        rd_kafka_AlterConsumerGroupOffsets_new(groupId.toUtf8().constData(), list.get()));
    rd_kafka_AlterConsumerGroupOffsets_t* requests[] = {request.get()};
    auto options = makeOptions(RD_KAFKA_ADMIN_OP_ALTERCONSUMERGROUPOFFSETS, until);
    rd_kafka_AlterConsumerGroupOffsets(m_handle.get(), requests, 1, options.get(), m_queue.get());
    return collectGroupWrite(
        until, QStringLiteral("altering the committed offsets of group %1").arg(groupId), false);
}

Result<QList<PartitionOutcome>>
AdminClient::deleteCommittedOffsets(const QString& groupId,
                                    const QList<TopicPartition>& partitions) {
    if (partitions.isEmpty())
        return QList<PartitionOutcome>{};
    const Deadline until = deadline();
    TopicPartitionListHandle list(rd_kafka_topic_partition_list_new(int(partitions.size())));
    for (const TopicPartition& tp : partitions)
        rd_kafka_topic_partition_list_add(list.get(), tp.topic.toUtf8().constData(), tp.partition);
    DeleteConsumerGroupOffsetsHandle request(
        rd_kafka_DeleteConsumerGroupOffsets_new(groupId.toUtf8().constData(), list.get()));
    rd_kafka_DeleteConsumerGroupOffsets_t* requests[] = {request.get()};
    auto options = makeOptions(RD_KAFKA_ADMIN_OP_DELETECONSUMERGROUPOFFSETS, until);
    rd_kafka_DeleteConsumerGroupOffsets(m_handle.get(), requests, 1, options.get(), m_queue.get());
    return collectGroupWrite(
        until, QStringLiteral("deleting the committed offsets of group %1").arg(groupId), true);
}

} // namespace groupscope::kafka
