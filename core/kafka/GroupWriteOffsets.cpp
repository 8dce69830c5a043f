#include "kafka/GroupWriteClient.h"

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/ClusterConnections.h"
#include "kafka/protocol/MessageCodec.h"

#include <librdkafka/rdkafka.h>

#include <QMap>

#include <algorithm>

// GroupWriteClient's writes of committed offsets: OffsetCommit as an admin (no
// member, no generation, as Kafka's AlterConsumerGroupOffsets) and OffsetDelete.

namespace groupscope::kafka {

using protocol::BrokerConnection;
using protocol::ClusterConnections;
using protocol::MessageCodec;
using protocol::Struct;

namespace {

// OffsetCommit v10 names topics by id only; v9 is the newest that names them.
constexpr int16_t newestOffsetCommitByName = 9;

QList<PartitionOutcome> sorted(QList<PartitionOutcome> outcomes) {
    std::sort(outcomes.begin(), outcomes.end(),
              [](const auto& a, const auto& b) { return a.topicPartition < b.topicPartition; });
    return outcomes;
}

// The error, saying what was being done unless it does already.
// Every partition of an OffsetCommit or OffsetDelete answer, with its error code.
QList<std::pair<TopicPartition, int64_t>> answeredPartitions(const Struct& answer) {
    QList<std::pair<TopicPartition, int64_t>> partitions;
    for (const Struct& topic : answer.structs("Topics"))
        for (const Struct& partition : topic.structs("Partitions"))
            partitions.append({{topic.string("Name"), int32_t(partition.integer("PartitionIndex"))},
                               partition.integer("ErrorCode")});
    return partitions;
}

KafkaError withContext(KafkaError error, const QString& what) {
    if (!error.message.startsWith(what))
        error.message = QStringLiteral("%1: %2").arg(what, error.message);
    return error;
}

} // namespace

Result<QList<PartitionOutcome>>
GroupWriteClient::commitOffsets(const QString& groupId,
                                const QList<QPair<TopicPartition, int64_t>>& offsets,
                                const QHash<TopicPartition, QString>& metadata) {
    const protocol::ApiSpec& api = protocol::offsetCommitApi();
    QMap<QString, QList<QPair<int32_t, int64_t>>> byTopic;
    for (const auto& [tp, offset] : offsets)
        byTopic[tp.topic].append({tp.partition, offset});
    Struct request = MessageCodec::make(api.request);
    request.set("GroupId", groupId).set("GenerationIdOrMemberEpoch", -1).set("MemberId", QString());
    for (auto topic = byTopic.cbegin(); topic != byTopic.cend(); ++topic) {
        Struct& entry = request.add("Topics").set("Name", topic.key());
        for (const auto& [partition, offset] : topic.value())
            entry.add("Partitions")
                .set("PartitionIndex", partition)
                .set("CommittedOffset", offset)
                .set("CommittedMetadata", metadata.value({topic.key(), partition}));
    }
    const QString what = QStringLiteral("altering the committed offsets of group %1").arg(groupId);
    QList<PartitionOutcome> outcomes;
    KafkaError failure;
    m_coordinators.forEachCoordinator(
        {groupId}, deadline(),
        [&](BrokerConnection& connection, const QStringList&) -> CoordinatorRequests::AnswerReader {
            const std::optional<int16_t> version =
                connection.version(api, newestOffsetCommitByName);
            if (!version)
                return [&] {
                    failure =
                        KafkaError::fromCode(RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE,
                                             what + QStringLiteral(": no OffsetCommit by name"));
                    return QStringList();
                };
            const BrokerConnection::PendingAnswer sent =
                connection.send(api, *version, request, deadline());
            return [&, &connection = connection, sent] {
                Result<Struct> answer = connection.receive(sent, deadline());
                if (!answer) {
                    failure = answer.error();
                    return QStringList();
                }
                QList<PartitionOutcome> answered;
                for (const auto& [answeredTp, code] : answeredPartitions(answer.value())) {
                    // A copy, not the binding: clang 14 does not let a lambda capture one.
                    const TopicPartition tp = answeredTp;
                    // The group-level answers come on every partition: a moved coordinator
                    // is asked again, as a whole.
                    if (ClusterConnections::isCoordinatorMoving(code))
                        return QStringList{groupId};
                    const auto asked = std::find_if(offsets.cbegin(), offsets.cend(),
                                                    [&](const auto& o) { return o.first == tp; });
                    answered.append({tp, asked == offsets.cend() ? -1 : asked->second,
                                     code == 0 ? KafkaError()
                                               : KafkaError::fromCode(int(code), tp.toString())});
                }
                outcomes = answered;
                return QStringList();
            };
        },
        [&](const QString&, const KafkaError& error) { failure = error; });
    if (failure)
        return withContext(failure, what);
    return sorted(outcomes);
}

Result<QList<PartitionOutcome>>
GroupWriteClient::deleteOffsets(const QString& groupId, const QList<TopicPartition>& partitions) {
    const protocol::ApiSpec& api = protocol::offsetDeleteApi();
    QMap<QString, QList<int32_t>> byTopic;
    for (const TopicPartition& tp : partitions)
        byTopic[tp.topic].append(tp.partition);
    Struct request = MessageCodec::make(api.request);
    request.set("GroupId", groupId);
    for (auto topic = byTopic.cbegin(); topic != byTopic.cend(); ++topic) {
        Struct& entry = request.add("Topics").set("Name", topic.key());
        for (int32_t partition : topic.value())
            entry.add("Partitions").set("PartitionIndex", partition);
    }
    const QString what = QStringLiteral("deleting the committed offsets of group %1").arg(groupId);
    QList<PartitionOutcome> outcomes;
    KafkaError failure;
    m_coordinators.forEachCoordinator(
        {groupId}, deadline(),
        CoordinatorRequests::oneRequest(
            api, deadline(), [&](const QStringList&) { return request; },
            [&](const QStringList&, const Result<Struct>& answer) {
                if (!answer) {
                    failure = answer.error();
                    return QStringList();
                }
                const int64_t groupCode = answer.value().integer("ErrorCode");
                if (ClusterConnections::isCoordinatorMoving(groupCode))
                    return QStringList{groupId};
                // A group-level error (the group does not exist, has members, ...) applies to
                // every partition, as librdkafka and Kafka's admin client report it.
                const KafkaError groupError =
                    groupCode == 0 ? KafkaError() : KafkaError::fromCode(int(groupCode), what);
                QList<PartitionOutcome> answered;
                for (const auto& [tp, code] : answeredPartitions(answer.value()))
                    answered.append(
                        {tp, -1,
                         code != 0 ? KafkaError::fromCode(int(code), tp.toString()) : groupError});
                if (answered.isEmpty() && groupError) {
                    failure = groupError;
                    return QStringList();
                }
                outcomes = answered;
                return QStringList();
            }),
        [&](const QString&, const KafkaError& error) { failure = error; });
    if (failure)
        return withContext(failure, what);
    return sorted(outcomes);
}

} // namespace groupscope::kafka
