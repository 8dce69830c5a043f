#include "kafka/CoordinatorRequests.h"

#include "kafka/protocol/ClusterConnections.h"
#include "kafka/protocol/MessageStruct.h"
#include "kafka/protocol/ProtocolError.h"

#include <librdkafka/rdkafka.h>

#include <QThread>

#include <utility>
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

namespace {

// One coordinator's groups in a forEachCoordinator() round, and how far its batches have got.
struct CoordinatorBatches {
    int32_t nodeId;
    BrokerConnection& connection;
    QStringList groupIds;
    qsizetype sent = 0;                       // groups sent so far
    CoordinatorRequests::AnswerReader reader; // of the batch sent last, until it is read

    bool sendNext(const CoordinatorRequests::Batch& batch) {
        if (sent >= groupIds.size())
            return false;
        reader = batch(connection, groupIds.mid(sent, CoordinatorRequests::maxGroupsPerBatch));
        sent += CoordinatorRequests::maxGroupsPerBatch;
        return true;
    }
};

} // namespace

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
        std::vector<CoordinatorBatches> batches;
        for (auto it = connections.open.cbegin(); it != connections.open.cend(); ++it) {
            batches.push_back({it.key(), **it, byCoordinator.value(it.key()), 0, {}});
            batches.back().sendNext(perCoordinator);
        }
        // A coordinator's next batch is sent as soon as its last one's answers are read, so
        // each broker works on one while the others' answers are read. Not before: a batch's
        // reader may send more requests (a describe of another group type), and a
        // connection's answers come in the order of its requests.
        QStringList retry;
        for (bool sentMore = true; sentMore;) {
            sentMore = false;
            for (CoordinatorBatches& coordinator : batches) {
                if (!coordinator.reader)
                    continue;
                const QStringList moved = std::exchange(coordinator.reader, nullptr)();
                for (const QString& groupId : moved)
                    m_cluster.forgetCoordinator(groupId);
                retry.append(moved);
                sentMore = coordinator.sendNext(perCoordinator) || sentMore;
            }
        }
        // Only now: the batches of a connection that failed still ran on it (and failed at
        // once with its reason).
        for (const CoordinatorBatches& coordinator : batches)
            if (!coordinator.connection.isOpen())
                m_cluster.dropConnection(coordinator.nodeId);
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
