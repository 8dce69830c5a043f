#include "kafka/GroupProtocolClient.h"

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/ClusterConnections.h"
#include "kafka/protocol/MessageCodec.h"

#include <QMap>

#include <algorithm>

// The group protocol client's share-group offsets: start offsets read, altered, deleted.

namespace groupscope::kafka {

using protocol::BrokerConnection;
using protocol::ClusterConnections;
using protocol::MessageCodec;
using protocol::Struct;

namespace {

KafkaError answerError(const Struct& answer, const QString& what) {
    const int64_t code = answer.integer("ErrorCode");
    if (code == 0)
        return {};
    const QString message = answer.string("ErrorMessage");
    return KafkaError::fromCode(int(code),
                                message.isEmpty() ? what : what + QStringLiteral(": ") + message);
}

} // namespace

Result<QHash<QString, QList<ShareStartOffset>>>
GroupProtocolClient::shareStartOffsets(const QStringList& groupIds) {
    QHash<QString, QList<ShareStartOffset>> offsets;
    if (groupIds.isEmpty())
        return offsets;
    QHash<QString, KafkaError> failures;
    const protocol::ApiSpec& api = protocol::describeShareGroupOffsetsApi();
    forEachCoordinator(
        groupIds, deadline(),
        [&](BrokerConnection& connection, const QStringList& ids) {
            QStringList moved;
            Struct request = MessageCodec::make(api.request);
            for (const QString& groupId : ids)
                request.add("Groups").set("GroupId", groupId).setNull("Topics"); // all topics
            Result<Struct> answer = connection.call(api, request, deadline());
            if (!answer) {
                for (const QString& groupId : ids)
                    failures.insert(groupId, answer.error());
                return moved;
            }
            for (const Struct& group : answer.value().structs("Groups")) {
                const QString groupId = group.string("GroupId");
                if (ClusterConnections::isCoordinatorMoving(group.integer("ErrorCode"))) {
                    moved.append(groupId);
                    continue;
                }
                if (KafkaError error = answerError(
                        group, QStringLiteral("start offsets of share group %1").arg(groupId))) {
                    failures.insert(groupId, error);
                    continue;
                }
                QList<ShareStartOffset>& started = offsets[groupId];
                for (const Struct& topic : group.structs("Topics")) {
                    for (const Struct& partition : topic.structs("Partitions")) {
                        ShareStartOffset offset;
                        offset.topicPartition = {topic.string("TopicName"),
                                                 int32_t(partition.integer("PartitionIndex"))};
                        offset.startOffset = partition.integer("StartOffset");
                        offset.leaderEpoch = int32_t(partition.integer("LeaderEpoch"));
                        offset.lag = partition.integer("Lag");
                        offset.error = answerError(partition, offset.topicPartition.toString());
                        started.append(offset);
                    }
                }
                std::sort(started.begin(), started.end(), [](const auto& a, const auto& b) {
                    return a.topicPartition < b.topicPartition;
                });
            }
            return moved;
        },
        [&](const QString& groupId, const KafkaError& error) { failures.insert(groupId, error); });
    if (!failures.isEmpty() && failures.size() == groupIds.size())
        return failures.value(groupIds.front());
    return offsets;
}

Result<protocol::Struct> GroupProtocolClient::askGroupCoordinator(const QString& groupId,
                                                                  const protocol::ApiSpec& api,
                                                                  const protocol::Struct& request,
                                                                  const QString& doing) {
    Result<Struct> outcome = KafkaError();
    forEachCoordinator(
        {groupId}, deadline(),
        [&](BrokerConnection& connection, const QStringList&) {
            Result<Struct> answer = connection.call(api, request, deadline());
            if (answer &&
                ClusterConnections::isCoordinatorMoving(answer.value().integer("ErrorCode")))
                return QStringList{groupId};
            if (answer)
                if (KafkaError error = answerError(answer.value(), doing))
                    answer = error;
            outcome = std::move(answer);
            return QStringList();
        },
        [&](const QString&, const KafkaError& error) { outcome = error; });
    return outcome;
}

Result<QList<PartitionOutcome>>
GroupProtocolClient::alterShareStartOffsets(const QString& groupId,
                                            const QList<QPair<TopicPartition, int64_t>>& offsets) {
    const protocol::ApiSpec& api = protocol::alterShareGroupOffsetsApi();
    Struct request = MessageCodec::make(api.request);
    request.set("GroupId", groupId);
    QMap<QString, QList<QPair<int32_t, int64_t>>> byTopic;
    QHash<TopicPartition, int64_t> asked;
    for (const auto& [partition, offset] : offsets) {
        byTopic[partition.topic].append({partition.partition, offset});
        asked.insert(partition, offset);
    }
    for (auto it = byTopic.cbegin(); it != byTopic.cend(); ++it) {
        Struct& topic = request.add("Topics").set("TopicName", it.key());
        for (const auto& [partition, offset] : it.value())
            topic.add("Partitions").set("PartitionIndex", partition).set("StartOffset", offset);
    }
    const Result<Struct> answer = askGroupCoordinator(
        groupId, api, request,
        QStringLiteral("setting the start offsets of share group %1").arg(groupId));
    if (!answer)
        return answer.error();
    QList<PartitionOutcome> written;
    for (const Struct& topic : answer.value().structs("Responses"))
        for (const Struct& partition : topic.structs("Partitions")) {
            const TopicPartition where{topic.string("TopicName"),
                                       int32_t(partition.integer("PartitionIndex"))};
            written.append(
                {where, asked.value(where, -1), answerError(partition, where.toString())});
        }
    return written;
}

Result<QList<PartitionOutcome>>
GroupProtocolClient::deleteShareStartOffsets(const QString& groupId, const QStringList& topics) {
    // The outcome is per topic; it is reported on every partition the group had started on.
    Result<QHash<QString, QList<ShareStartOffset>>> before = shareStartOffsets({groupId});
    if (!before)
        return before.error();
    const protocol::ApiSpec& api = protocol::deleteShareGroupOffsetsApi();
    Struct request = MessageCodec::make(api.request);
    request.set("GroupId", groupId);
    for (const QString& topic : topics)
        request.add("Topics").set("TopicName", topic);
    const Result<Struct> answer = askGroupCoordinator(
        groupId, api, request,
        QStringLiteral("deleting the start offsets of share group %1").arg(groupId));
    if (!answer)
        return answer.error();
    QHash<QString, KafkaError> byTopic;
    for (const Struct& topic : answer.value().structs("Responses"))
        byTopic.insert(topic.string("TopicName"), answerError(topic, topic.string("TopicName")));
    QList<PartitionOutcome> deleted;
    for (const ShareStartOffset& started : before.value().value(groupId))
        if (byTopic.contains(started.topicPartition.topic))
            deleted.append(
                {started.topicPartition, -1, byTopic.value(started.topicPartition.topic)});
    return deleted;
}

} // namespace groupscope::kafka
