#include "kafka/protocol/ClusterConnections.h"

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/MessageCodec.h"
#include "kafka/protocol/ProtocolError.h"

#include <librdkafka/rdkafka.h>

namespace groupscope::kafka::protocol {

namespace {

constexpr int8_t groupKeyType = 0;

} // namespace

ClusterConnections::ClusterConnections(QList<BrokerAddress> bootstrap, ConnectionSecurity security)
    : m_bootstrap(std::move(bootstrap))
    , m_security(std::move(security)) {}

void ClusterConnections::setCancelFlag(const std::atomic<bool>* cancelled) {
    m_cancelled = cancelled;
    if (m_bootstrapConnection)
        m_bootstrapConnection->setCancelFlag(cancelled);
    for (const auto& open : std::as_const(m_connections))
        open->setCancelFlag(cancelled);
}

QString ClusterConnections::describeNode(int32_t nodeId) const {
    const auto broker = m_brokers.constFind(nodeId);
    if (broker == m_brokers.cend())
        return QStringLiteral("broker %1").arg(nodeId);
    return QStringLiteral("%1 (id: %2)").arg(broker->toString()).arg(nodeId);
}

Result<BrokerConnection*> ClusterConnections::anyConnection(Deadline deadline) {
    for (const auto& open : std::as_const(m_connections)) {
        if (open->isOpen())
            return open.get();
    }
    if (m_bootstrapConnection && m_bootstrapConnection->isOpen())
        return m_bootstrapConnection.get();
    QStringList failures;
    bool allTimedOut = true;
    for (const BrokerAddress& address : std::as_const(m_bootstrap)) {
        Result<std::unique_ptr<BrokerConnection>> opened =
            BrokerConnection::open(address, m_security, deadline, m_cancelled);
        if (opened) {
            m_bootstrapConnection = std::move(opened.value());
            return m_bootstrapConnection.get();
        }
        // Authentication, TLS, a client key or certificate that cannot be loaded, and
        // cancellation fail the same way on every address.
        if (opened.error().code == RD_KAFKA_RESP_ERR__AUTHENTICATION ||
            opened.error().code == RD_KAFKA_RESP_ERR__SSL ||
            opened.error().code == RD_KAFKA_RESP_ERR__INVALID_ARG ||
            opened.error().code == RD_KAFKA_RESP_ERR__INTR)
            return opened.error();
        failures.append(opened.error().message);
        allTimedOut = allTimedOut && opened.error().code == RD_KAFKA_RESP_ERR__TIMED_OUT;
    }
    return protocolError(allTimedOut ? RD_KAFKA_RESP_ERR__TIMED_OUT : RD_KAFKA_RESP_ERR__TRANSPORT,
                         QStringLiteral("no bootstrap server answered: %1")
                             .arg(failures.join(QStringLiteral("; "))));
}

Result<QList<BrokerAddress>> ClusterConnections::brokers(Deadline deadline, bool refresh) {
    if (!m_brokers.isEmpty() && !refresh)
        return m_brokers.values();
    Result<BrokerConnection*> connection = anyConnection(deadline);
    if (!connection)
        return connection.error();
    const ApiSpec& api = metadataApi();
    Struct request = MessageCodec::make(api.request);
    request.set("Topics", StructList()); // no topics: brokers only (v1+; v0 would mean all)
    request.setBool("AllowAutoTopicCreation", false);
    Result<Struct> answer = connection.value()->call(api, request, deadline);
    if (!answer)
        return answer.error();
    if (const int64_t error = answer.value().integer("ErrorCode"); error != 0)
        return KafkaError::fromCode(int(error), QStringLiteral("Metadata"));
    m_brokers.clear();
    for (const Struct& broker : answer.value().structs("Brokers")) {
        BrokerAddress address{broker.string("Host"), int(broker.integer("Port")),
                              int32_t(broker.integer("NodeId"))};
        m_brokers.insert(address.nodeId, address);
    }
    if (m_brokers.isEmpty())
        return KafkaError::fromCode(RD_KAFKA_RESP_ERR__TRANSPORT,
                                    QStringLiteral("the cluster's metadata lists no brokers"));
    return m_brokers.values();
}

Result<BrokerConnection*> ClusterConnections::connection(int32_t nodeId, Deadline deadline) {
    if (auto open = m_connections.constFind(nodeId);
        open != m_connections.cend() && (*open)->isOpen())
        return open->get();
    if (!m_brokers.contains(nodeId)) {
        if (Result<QList<BrokerAddress>> known = brokers(deadline, true); !known)
            return known.error();
        if (!m_brokers.contains(nodeId))
            return KafkaError::fromCode(
                RD_KAFKA_RESP_ERR__UNKNOWN_BROKER,
                QStringLiteral("broker %1 is not in the cluster's metadata").arg(nodeId));
    }
    // The bootstrap connection is the broker's own when their addresses are the same: one
    // connection per broker, authenticated once.
    const BrokerAddress& address = m_brokers.value(nodeId);
    if (m_bootstrapConnection && m_bootstrapConnection->isOpen() &&
        m_bootstrapConnection->address().host == address.host &&
        m_bootstrapConnection->address().port == address.port) {
        std::shared_ptr<BrokerConnection> adopted(std::move(m_bootstrapConnection));
        adopted->setNodeId(nodeId);
        m_connections.insert(nodeId, adopted);
        return adopted.get();
    }
    Result<std::unique_ptr<BrokerConnection>> opened =
        BrokerConnection::open(address, m_security, deadline, m_cancelled);
    if (!opened)
        return opened.error();
    std::shared_ptr<BrokerConnection> shared(std::move(opened.value()));
    m_connections.insert(nodeId, shared);
    return shared.get();
}

ClusterConnections::OpenConnections ClusterConnections::connections(const QList<int32_t>& nodeIds,
                                                                    Deadline deadline) {
    OpenConnections result;
    for (int32_t nodeId : nodeIds)
        if (Result<BrokerConnection*> opened = connection(nodeId, deadline); !opened)
            result.failed.insert(nodeId, opened.error());
    // Looked up again once all are open: a metadata request on one that failed dropped it.
    for (int32_t nodeId : nodeIds) {
        if (result.failed.contains(nodeId))
            continue;
        if (Result<BrokerConnection*> opened = connection(nodeId, deadline))
            result.open.insert(nodeId, opened.value());
        else
            result.failed.insert(nodeId, opened.error());
    }
    return result;
}

QList<CoordinatorLookup> ClusterConnections::coordinators(const QStringList& groupIds,
                                                          Deadline deadline) {
    QList<CoordinatorLookup> found(groupIds.size());
    QStringList unknown;
    QList<qsizetype> unknownAt; // where each unknown group is in `groupIds`
    for (qsizetype i = 0; i < groupIds.size(); ++i) {
        if (auto known = m_coordinators.constFind(groupIds[i]); known != m_coordinators.cend()) {
            found[i].nodeId = *known;
        } else {
            unknown.append(groupIds[i]);
            unknownAt.append(i);
        }
    }
    if (unknown.isEmpty())
        return found;
    QList<CoordinatorLookup> lookedUp = lookUpCoordinators(unknown, deadline);
    for (qsizetype i = 0; i < unknown.size(); ++i)
        found[unknownAt[i]] = std::move(lookedUp[i]);
    return found;
}

QList<CoordinatorLookup> ClusterConnections::lookUpCoordinators(const QStringList& groupIds,
                                                                Deadline deadline) {
    QList<CoordinatorLookup> found(groupIds.size());
    auto failAll = [&](const KafkaError& error) {
        for (CoordinatorLookup& lookup : found)
            lookup.error = error;
        return found;
    };
    Result<BrokerConnection*> connection = anyConnection(deadline);
    if (!connection)
        return failAll(connection.error());
    const ApiSpec& api = findCoordinatorApi();
    const std::optional<int16_t> version = connection.value()->version(api);
    if (!version)
        return failAll(KafkaError::fromCode(RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE,
                                            QStringLiteral("FindCoordinator")));
    auto remember = [&](qsizetype at, const Struct& answer) {
        const QString& groupId = groupIds[at];
        const int64_t error = answer.integer("ErrorCode");
        if (error != 0) {
            QString message = answer.string("ErrorMessage");
            found[at].error = KafkaError::fromCode(
                int(error),
                QStringLiteral("coordinator of %1%2").arg(groupId).arg(inParentheses(message)));
            return;
        }
        const BrokerAddress address{answer.string("Host"), int(answer.integer("Port")),
                                    int32_t(answer.integer("NodeId"))};
        m_brokers.insert(address.nodeId, address);
        m_coordinators.insert(groupId, address.nodeId);
        found[at].nodeId = address.nodeId;
    };

    if (*version >= 4) {
        Struct request = MessageCodec::make(api.request);
        request.set("KeyType", groupKeyType);
        request.set("CoordinatorKeys", groupIds);
        Result<Struct> answer = connection.value()->call(api, *version, request, deadline);
        if (!answer)
            return failAll(answer.error());
        // Kafka answers in the order it was asked; an answer out of that order is placed
        // by its key, through an index of the groups made only then.
        const StructList& answers = answer.value().structs("Coordinators");
        QHash<QString, qsizetype> indexOfGroup;
        std::vector<bool> answered(size_t(groupIds.size()), false);
        for (size_t i = 0; i < answers.size(); ++i) {
            const QString key = answers[i].string("Key");
            qsizetype at =
                qsizetype(i) < groupIds.size() && groupIds[qsizetype(i)] == key ? qsizetype(i) : -1;
            if (at < 0) {
                if (indexOfGroup.isEmpty())
                    for (qsizetype g = 0; g < groupIds.size(); ++g)
                        indexOfGroup.insert(groupIds[g], g);
                at = indexOfGroup.value(key, -1);
            }
            if (at < 0)
                continue; // a key not asked about
            remember(at, answers[i]);
            answered[size_t(at)] = true;
        }
        for (qsizetype i = 0; i < groupIds.size(); ++i)
            if (!answered[size_t(i)])
                found[i].error = KafkaError::fromCode(
                    RD_KAFKA_RESP_ERR__BAD_MSG,
                    QStringLiteral("FindCoordinator did not answer for %1").arg(groupIds[i]));
        return found;
    }
    // Brokers before Kafka 3.0 take one key per request.
    for (qsizetype i = 0; i < groupIds.size(); ++i) {
        Struct request = MessageCodec::make(api.request);
        request.set("Key", groupIds[i]);
        request.set("KeyType", groupKeyType);
        Result<Struct> answer = connection.value()->call(api, *version, request, deadline);
        if (!answer) {
            found[i].error = answer.error();
            continue;
        }
        remember(i, answer.value());
    }
    return found;
}

bool ClusterConnections::isCoordinatorMoving(int64_t errorCode) {
    return errorCode == RD_KAFKA_RESP_ERR_NOT_COORDINATOR ||
           errorCode == RD_KAFKA_RESP_ERR_COORDINATOR_NOT_AVAILABLE ||
           errorCode == RD_KAFKA_RESP_ERR_COORDINATOR_LOAD_IN_PROGRESS;
}

} // namespace groupscope::kafka::protocol
