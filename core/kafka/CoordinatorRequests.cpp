#include "kafka/CoordinatorRequests.h"

#include "kafka/protocol/ClusterConnections.h"
#include "kafka/protocol/MessageStruct.h"
#include "kafka/protocol/ProtocolError.h"

#include <librdkafka/rdkafka.h>

#include <QThread>

#include <vector>

namespace groupscope::kafka {

using protocol::BrokerConnection;
using protocol::ClusterConnections;
using protocol::Struct;

QList<protocol::CoordinatorLookup> CoordinatorRequests::lookUp(const QStringList& groupIds,
                                                               Deadline until) {
    QList<protocol::CoordinatorLookup> found = m_cluster.coordinators(groupIds, until);
    // A coordinator that is not there yet (the offsets topic being created on a fresh
    // cluster, its partition's leader being elected) is looked up again shortly, as Kafka's
    // own clients do, until the deadline.
    for (;;) {
        QStringList notYet;
        QList<qsizetype> notYetAt;
        for (qsizetype i = 0; i < found.size(); ++i)
            if (found[i].error && ClusterConnections::isCoordinatorMoving(found[i].error.code)) {
                notYet.append(groupIds[i]);
                notYetAt.append(i);
            }
        if (notYet.isEmpty() || Clock::now() + retryPause * 2 > until || m_cluster.cancelled())
            return found;
        QThread::msleep(retryPause.count());
        QList<protocol::CoordinatorLookup> again = m_cluster.coordinators(notYet, until);
        for (qsizetype i = 0; i < notYet.size(); ++i)
            found[notYetAt[i]] = std::move(again[i]);
    }
}

CoordinatorRequests::AnswerReader CoordinatorRequests::inBatches(const Batch& batch,
                                                                 BrokerConnection& connection,
                                                                 const QStringList& groupIds) {
    AnswerReader first = batch(connection, groupIds.mid(0, maxGroupsPerBatch));
    if (groupIds.size() <= maxGroupsPerBatch)
        return first;
    // The next batch is sent once the last one's answers are read: a batch's reader may send
    // more requests (a describe of another group type), and a connection's answers come in
    // the order of its requests. The coordinators still work at the same time.
    return [&batch, &connection, groupIds, first = std::move(first)] {
        QStringList moved = first();
        for (qsizetype from = maxGroupsPerBatch; from < groupIds.size(); from += maxGroupsPerBatch)
            moved.append(batch(connection, groupIds.mid(from, maxGroupsPerBatch))());
        return moved;
    };
}

void CoordinatorRequests::forEachCoordinator(
    const QStringList& groupIds, Deadline until, const Batch& perCoordinator,
    const std::function<void(const QString&, const KafkaError&)>& fail) {
    QStringList pending = groupIds;
    // A group whose coordinator moved is looked up and asked again at once; while it keeps
    // moving (leadership of the offsets topic settling on a new cluster, a broker shutting
    // down) again after a pause, until the deadline.
    for (int attempt = 0; !pending.isEmpty(); ++attempt) {
        if (attempt >= 2) {
            if (Clock::now() + retryPause * 2 > until || m_cluster.cancelled())
                break;
            QThread::msleep(retryPause.count());
        }
        const QList<protocol::CoordinatorLookup> coordinators = lookUp(pending, until);
        QHash<int32_t, QStringList> byCoordinator;
        for (qsizetype i = 0; i < pending.size(); ++i) {
            const QString& groupId = pending[i];
            const protocol::CoordinatorLookup& lookup = coordinators[i];
            if (lookup.error || lookup.nodeId < 0)
                fail(groupId, lookup.error ? lookup.error
                                           : KafkaError::fromCode(
                                                 RD_KAFKA_RESP_ERR_COORDINATOR_NOT_AVAILABLE,
                                                 QStringLiteral("coordinator of %1").arg(groupId)));
            else
                byCoordinator[lookup.nodeId].append(groupId);
        }
        const ClusterConnections::OpenConnections connections =
            m_cluster.connections(byCoordinator.keys(), until);
        for (auto it = connections.failed.cbegin(); it != connections.failed.cend(); ++it) {
            m_cluster.dropConnection(it.key());
            for (const QString& groupId : byCoordinator.value(it.key())) {
                m_cluster.forgetCoordinator(groupId);
                fail(groupId, it.value());
            }
        }
        std::vector<std::pair<int32_t, AnswerReader>> readers;
        for (auto it = connections.open.cbegin(); it != connections.open.cend(); ++it)
            readers.emplace_back(it.key(),
                                 inBatches(perCoordinator, **it, byCoordinator[it.key()]));
        QStringList retry;
        for (const auto& [nodeId, readAnswers] : readers) {
            const QStringList moved = readAnswers();
            if (!connections.open.value(nodeId)->isOpen())
                m_cluster.dropConnection(nodeId);
            for (const QString& groupId : moved)
                m_cluster.forgetCoordinator(groupId);
            retry.append(moved);
        }
        pending = retry;
    }
    for (const QString& groupId : std::as_const(pending))
        fail(groupId, KafkaError::fromCode(
                          RD_KAFKA_RESP_ERR_NOT_COORDINATOR,
                          QStringLiteral("the coordinator of %1 keeps moving").arg(groupId)));
}

CoordinatorRequests::Batch CoordinatorRequests::oneRequest(const protocol::ApiSpec& api,
                                                           Deadline until, RequestMaker makeRequest,
                                                           AnswerHandler readAnswer) {
    return [&api, until, makeRequest = std::move(makeRequest), readAnswer = std::move(readAnswer)](
               BrokerConnection& connection, const QStringList& groupIds) -> AnswerReader {
        const BrokerConnection::PendingAnswer sent =
            connection.send(api, makeRequest(groupIds), until);
        return [&connection, groupIds, sent, until, readAnswer] {
            return readAnswer(groupIds, connection.receive(sent, until));
        };
    };
}

Result<Struct> CoordinatorRequests::ask(const QString& groupId, const protocol::ApiSpec& api,
                                        const Struct& request, const QString& doing,
                                        Deadline until) {
    Result<Struct> outcome = KafkaError();
    forEachCoordinator(
        {groupId}, until,
        oneRequest(
            api, until, [&](const QStringList&) { return request; },
            [&](const QStringList&, const Result<Struct>& answer) {
                if (answer &&
                    ClusterConnections::isCoordinatorMoving(answer.value().integer("ErrorCode")))
                    return QStringList{groupId};
                outcome = answer;
                if (answer)
                    if (KafkaError error = protocol::answerError(answer.value(), doing))
                        outcome = error;
                return QStringList();
            }),
        [&](const QString&, const KafkaError& error) { outcome = error; });
    return outcome;
}

} // namespace groupscope::kafka
