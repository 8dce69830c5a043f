#include "kafka/GroupProtocolClient.h"

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/ClusterConnections.h"
#include "kafka/protocol/MessageCodec.h"
#include "kafka/protocol/ProtocolError.h"

#include <QMap>

#include <algorithm>

// The group protocol client's read of share groups' start offsets (GroupWriteClient sets
// and deletes them).

namespace groupscope::kafka {

using protocol::BrokerConnection;
using protocol::ClusterConnections;
using protocol::MessageCodec;
using protocol::Struct;

using protocol::answerError;

Result<QHash<QString, QList<ShareStartOffset>>>
GroupProtocolClient::shareStartOffsets(const QStringList& groupIds) {
    QHash<QString, QList<ShareStartOffset>> offsets;
    if (groupIds.isEmpty())
        return offsets;
    QHash<QString, KafkaError> failures;
    const protocol::ApiSpec& api = protocol::describeShareGroupOffsetsApi();
    m_coordinators.forEachCoordinator(
        groupIds, deadline(),
        CoordinatorRequests::oneRequest(
            api, deadline(),
            [&](const QStringList& ids) {
                Struct request = MessageCodec::make(api.request);
                for (const QString& groupId : ids)
                    request.add("Groups").set("GroupId", groupId).setNull("Topics"); // all topics
                return request;
            },
            [&](const QStringList& ids, const Result<Struct>& answer) {
                QStringList moved;
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
                            group,
                            QStringLiteral("start offsets of share group %1").arg(groupId))) {
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
            }),
        [&](const QString& groupId, const KafkaError& error) { failures.insert(groupId, error); });
    if (!failures.isEmpty() && failures.size() == groupIds.size())
        return failures.value(groupIds.front());
    return offsets;
}

} // namespace groupscope::kafka
