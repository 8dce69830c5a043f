#include "kafka/GroupProtocolClient.h"

#include "kafka/GroupProtocolAnswers.h"
#include "kafka/TransportSafety.h"
#include "kafka/protocol/Apis.h"
#include "kafka/protocol/ClusterConnections.h"
#include "kafka/protocol/MessageCodec.h"

#include <librdkafka/rdkafka.h>

#include <QSet>
#include <QThread>

#include <algorithm>

// The group protocol client's reads: listing, describing, committed offsets. The share
// group writes are in GroupProtocolShareOffsets.cpp.

namespace groupscope::kafka {

using protocol::BrokerAddress;
using protocol::BrokerConnection;
using protocol::ClusterConnections;
using protocol::MessageCodec;
using protocol::Struct;

namespace {

// OffsetFetch v10 names topics by id only; v8 and v9 batch groups and still name them.
constexpr int16_t newestOffsetFetchByName = 9;

Result<QList<BrokerAddress>> parseBootstrap(const QString& servers) {
    QList<BrokerAddress> addresses;
    for (const QString& entry : servers.split(u',', Qt::SkipEmptyParts)) {
        QString server = entry.trimmed();
        // librdkafka accepts "PLAINTEXT://host:port" as well as "host:port".
        if (const qsizetype scheme = server.indexOf(u"://"); scheme >= 0)
            server = server.mid(scheme + 3);
        const qsizetype colon = server.lastIndexOf(u':');
        bool numeric = false;
        const int port = colon > 0 ? server.mid(colon + 1).toInt(&numeric) : 9092;
        if (colon > 0 && (!numeric || port <= 0 || port > 65535))
            return KafkaError::invalidArgument(
                QStringLiteral("bootstrap server '%1' has no valid port").arg(entry.trimmed()));
        QString host = colon > 0 ? server.left(colon) : server;
        if (host.startsWith(u'[') && host.endsWith(u']'))
            host = host.mid(1, host.size() - 2);
        addresses.append(BrokerAddress{host, port, -1});
    }
    if (addresses.isEmpty())
        return KafkaError::invalidArgument(QStringLiteral("no bootstrap servers are set"));
    return addresses;
}

bool stillLoading(int64_t code) {
    return code == RD_KAFKA_RESP_ERR_COORDINATOR_LOAD_IN_PROGRESS ||
           code == RD_KAFKA_RESP_ERR_COORDINATOR_NOT_AVAILABLE;
}

} // namespace

GroupProtocolClient::GroupProtocolClient(std::unique_ptr<ClusterConnections> cluster,
                                         Milliseconds timeout)
    : m_cluster(std::move(cluster))
    , m_coordinators(*m_cluster)
    , m_timeout(timeout) {}

GroupProtocolClient::~GroupProtocolClient() = default;

Result<std::unique_ptr<GroupProtocolClient>>
GroupProtocolClient::create(const ConnectionProfile& profile, Milliseconds timeout) {
    if (Status endpoint = checkTokenEndpoint(profile); !endpoint)
        return endpoint.error();
    Result<protocol::ConnectionSecurity> security =
        protocol::ConnectionSecurity::fromProfile(profile);
    if (!security)
        return security.error();
    Result<QList<BrokerAddress>> bootstrap = parseBootstrap(profile.bootstrapServers);
    if (!bootstrap)
        return bootstrap.error();
    auto cluster = std::make_unique<ClusterConnections>(std::move(bootstrap.value()),
                                                        std::move(security.value()));
    return std::unique_ptr<GroupProtocolClient>(
        new GroupProtocolClient(std::move(cluster), timeout));
}

void GroupProtocolClient::setCancelFlag(const std::atomic<bool>* cancelled) {
    m_cluster->setCancelFlag(cancelled);
}

Result<QList<GroupListing>> GroupProtocolClient::listGroups() {
    const Deadline until = deadline();
    // The brokers asked afresh each time (one Metadata request): a broker that joined the
    // cluster since the last listing coordinates groups too.
    Result<QList<BrokerAddress>> brokers = m_cluster->brokers(until, true);
    if (!brokers)
        return brokers.error();
    const protocol::ApiSpec& api = protocol::listGroupsApi();
    QList<GroupListing> groups;
    KafkaError firstFailure;
    int answered = 0;
    // Every broker is asked before any answer is read, so that they list at the same time.
    const Struct request = MessageCodec::make(api.request);
    QList<int32_t> nodeIds;
    for (const BrokerAddress& broker : std::as_const(brokers.value()))
        nodeIds.append(broker.nodeId);
    const ClusterConnections::OpenConnections connections = m_cluster->connections(nodeIds, until);
    std::vector<BrokerConnection::PendingAnswer> sent;
    for (int32_t nodeId : std::as_const(nodeIds)) {
        BrokerConnection* connection = connections.open.value(nodeId);
        sent.push_back(connection ? connection->send(api, request, until)
                                  : BrokerConnection::PendingAnswer{
                                        &api, 0, 0, connections.failed.value(nodeId)});
    }
    for (qsizetype i = 0; i < nodeIds.size(); ++i) {
        const int32_t nodeId = nodeIds[i];
        BrokerConnection* connection = connections.open.value(nodeId);
        Result<Struct> answer = connection ? connection->receive(sent[size_t(i)], until)
                                           : Result<Struct>(sent[size_t(i)].sendFailure);
        // A broker that is still loading its groups (just started, or just became a
        // coordinator) leaves them out or fails: ask it again while there is time, as
        // Kafka's Java client does.
        while (answer && stillLoading(answer.value().integer("ErrorCode")) &&
               BrokerConnection::Clock::now() + Milliseconds(500) < until) {
            QThread::msleep(200); // a back-off before asking the loading broker again
            Result<BrokerConnection*> again = m_cluster->connection(nodeId, until);
            answer = again ? again.value()->call(api, request, until) : again.error();
        }
        if (!answer) {
            m_cluster->dropConnection(nodeId);
            if (!firstFailure)
                firstFailure = answer.error();
            continue;
        }
        if (const int64_t error = answer.value().integer("ErrorCode"); error != 0) {
            if (!firstFailure)
                firstFailure = KafkaError::fromCode(
                    int(error),
                    QStringLiteral("listing groups on %1").arg(m_cluster->describeNode(nodeId)));
            continue;
        }
        ++answered;
        for (const Struct& group : answer.value().structs("Groups"))
            groups.append(detail::listingOf(group));
    }
    // Some brokers may fail while others answer; only when none answered is it an error.
    if (answered == 0 && firstFailure)
        return firstFailure;
    std::stable_sort(groups.begin(), groups.end(),
                     [](const auto& a, const auto& b) { return a.groupId < b.groupId; });
    // While a coordinator moves, the old and the new one both list the group: keep one.
    groups.erase(std::unique(groups.begin(), groups.end(),
                             [](const auto& a, const auto& b) { return a.groupId == b.groupId; }),
                 groups.end());
    // When every broker answered, the listing names every group there is: what is known of
    // groups that are gone (type, coordinator) goes, so that a client running for months on a
    // cluster where groups come and go (CI jobs, short-lived consumers) does not grow.
    const bool complete = !firstFailure;
    if (complete)
        m_knownTypes.clear();
    QSet<QString> listed;
    for (const GroupListing& group : std::as_const(groups)) {
        m_knownTypes.insert(group.groupId, group.type);
        if (complete)
            listed.insert(group.groupId);
    }
    if (complete)
        m_cluster->keepCoordinatorsOf(listed);
    return groups;
}

void GroupProtocolClient::learnTypes(const QStringList& groupIds) {
    const bool typesKnown = std::all_of(groupIds.cbegin(), groupIds.cend(), [&](const QString& id) {
        return m_knownTypes.contains(id);
    });
    if (typesKnown)
        return;
    // A failure shows again in the request that follows. Groups the listing did not name
    // (it failed, or they were made since) are taken for groups that commit offsets, and
    // are not listed for again on every call: describing them finds their type.
    (void)listGroups();
    for (const QString& groupId : groupIds)
        if (!m_knownTypes.contains(groupId))
            m_knownTypes.insert(groupId, GroupType::Unknown);
}

GroupType GroupProtocolClient::typeOf(const QString& groupId) {
    learnTypes({groupId});
    return m_knownTypes.value(groupId);
}

Result<QList<GroupDescription>> GroupProtocolClient::describeGroups(const QStringList& groupIds) {
    if (groupIds.isEmpty())
        return QList<GroupDescription>();
    const Deadline until = deadline();
    // The type decides which describe a group needs; one listing tells every group's.
    learnTypes(groupIds);
    QHash<QString, GroupDescription> described;
    // Groups not asked because an earlier request on their coordinator's connection lost
    // it, with that request's failure: they are asked again on a new connection.
    QHash<QString, KafkaError> notAsked;
    KafkaError lastFailure;
    auto fail = [&](const QString& groupId, const KafkaError& error) {
        GroupDescription failed;
        failed.groupId = groupId;
        failed.type = m_knownTypes.value(groupId);
        // Never asked, rather than "keeps moving", when the connection was lost each time.
        const KafkaError neverAsked = notAsked.value(groupId);
        failed.error =
            error.code == RD_KAFKA_RESP_ERR_NOT_COORDINATOR && neverAsked ? neverAsked : error;
        described.insert(groupId, failed);
        lastFailure = failed.error;
    };
    m_coordinators.forEachCoordinator(
        groupIds, until,
        [&](BrokerConnection& connection, const QStringList& ids) {
            QHash<GroupType, QStringList> byType;
            for (const QString& id : ids) {
                // A group no listing named is described as classic first (and as a
                // consumer group when the coordinator does not know it as classic).
                const GroupType type = m_knownTypes.value(id, GroupType::Unknown);
                byType[type == GroupType::Unknown ? GroupType::Classic : type].append(id);
            }
            // The type with the most groups is sent at once, the others after its answer
            // (a broker reads a connection's next request only once it answered the last).
            std::vector<std::pair<GroupType, QStringList>> types;
            for (auto it = byType.cbegin(); it != byType.cend(); ++it)
                types.emplace_back(it.key(), it.value());
            std::sort(types.begin(), types.end(), [](const auto& a, const auto& b) {
                return a.second.size() > b.second.size();
            });
            const detail::DescribeBatch batch{connection, until,
                                              m_cluster->describeNode(connection.address().nodeId)};
            const detail::SentDescribe first =
                detail::sendDescribe(batch, types.front().first, types.front().second);
            return [&, batch, first, types] {
                QStringList moved;
                KafkaError lostWith;
                for (size_t i = 0; i < types.size(); ++i) {
                    const QStringList& groupIds = types[i].second;
                    if (!batch.connection.isOpen()) {
                        // A describe of another type lost the connection (cut off, timed out
                        // or cancelled): these groups go round again, as if their coordinator
                        // moved, and only the groups of that request fail.
                        for (const QString& groupId : groupIds)
                            notAsked.insert(groupId, lostWith);
                        moved.append(groupIds);
                        continue;
                    }
                    detail::DescribeOutcome outcome =
                        i == 0 ? detail::readDescribe(batch, first)
                               : detail::describeOfType(batch, types[i].first, groupIds);
                    for (GroupDescription& description : outcome.described) {
                        if (!description.error && description.state != GroupState::Dead)
                            m_knownTypes.insert(description.groupId, description.type);
                        notAsked.remove(description.groupId);
                        if (description.error && !lostWith && !batch.connection.isOpen())
                            lostWith = description.error;
                        const protocol::BrokerAddress& address = batch.connection.address();
                        description.coordinator = {address.nodeId, address.host, address.port};
                        described.insert(description.groupId, std::move(description));
                    }
                    moved.append(outcome.coordinatorMoved);
                }
                return moved;
            };
        },
        fail);
    QList<GroupDescription> result;
    result.reserve(groupIds.size());
    for (const QString& groupId : groupIds) {
        // Moved out rather than copied (100,000 of them for the whole cluster); a group asked
        // for twice gets its answer twice.
        if (auto found = described.find(groupId); found != described.end()) {
            result.append(std::move(*found));
            described.erase(found);
            continue;
        }
        const auto first =
            std::find_if(result.cbegin(), result.cend(),
                         [&](const GroupDescription& d) { return d.groupId == groupId; });
        GroupDescription again = first != result.cend() ? *first : GroupDescription();
        result.append(std::move(again));
    }
    // One group asked for and it failed: the call failed (as librdkafka's describe does).
    if (groupIds.size() == 1 && result.front().error && lastFailure)
        return result.front().error.get();
    return result;
}

Result<QHash<QString, QList<CommittedOffset>>>
GroupProtocolClient::committedOffsets(const QStringList& groupIds) {
    QHash<QString, QList<CommittedOffset>> offsets;
    if (groupIds.isEmpty())
        return offsets;
    learnTypes(groupIds);
    QStringList committing;
    QStringList shareGroups;
    for (const QString& groupId : groupIds)
        (m_knownTypes.value(groupId) == GroupType::Share ? shareGroups : committing)
            .append(groupId);
    const Deadline until = deadline();
    QHash<QString, KafkaError> failures;
    if (!committing.isEmpty())
        m_coordinators.forEachCoordinator(
            committing, until,
            [&](BrokerConnection& connection, const QStringList& ids) {
                return detail::fetchCommittedOffsets(connection, newestOffsetFetchByName, ids,
                                                     until, offsets, failures);
            },
            [&](const QString& groupId, const KafkaError& error) {
                failures.insert(groupId, error);
            });
    if (!shareGroups.isEmpty())
        offsets.insert(startOffsetsAsPositions(shareGroups, failures));
    // Only when every group failed is the call a failure; otherwise the failed groups are
    // missing from the answer, as groups without commits are.
    if (!failures.isEmpty() && failures.size() == groupIds.size()) {
        const QString& first = groupIds.front();
        const KafkaError error = failures.value(first);
        return KafkaError{
            error.code,
            QStringLiteral("listing committed offsets of group %1: %2").arg(first, error.message),
            error.retriable, error.fatal};
    }
    return offsets;
}

QHash<QString, QList<CommittedOffset>>
GroupProtocolClient::startOffsetsAsPositions(const QStringList& groupIds,
                                             QHash<QString, KafkaError>& failures) {
    QHash<QString, QList<CommittedOffset>> positions;
    const Result<QHash<QString, QList<ShareStartOffset>>> started = shareStartOffsets(groupIds);
    if (!started) {
        for (const QString& groupId : groupIds)
            failures.insert(groupId, started.error());
        return positions;
    }
    for (const QString& groupId : groupIds) {
        QList<CommittedOffset>& rows = positions[groupId];
        for (const ShareStartOffset& offset : started.value().value(groupId))
            if (!offset.error && offset.startOffset >= 0)
                rows.append(
                    CommittedOffset{offset.topicPartition, offset.startOffset, {}, offset.lag});
    }
    return positions;
}

} // namespace groupscope::kafka
