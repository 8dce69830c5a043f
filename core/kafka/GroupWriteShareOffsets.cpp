#include "kafka/GroupWriteClient.h"

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/MessageCodec.h"
#include "kafka/protocol/ProtocolError.h"

#include <QMap>

// GroupWriteClient's writes of a share group's start offsets: set, deleted per topic.

namespace groupscope::kafka {

using protocol::MessageCodec;
using protocol::Struct;

Result<QList<PartitionOutcome>>
GroupWriteClient::alterShareStartOffsets(const QString& groupId,
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
    const Result<Struct> answer = m_coordinators.ask(
        groupId, api, request,
        QStringLiteral("setting the start offsets of share group %1").arg(groupId), deadline());
    if (!answer)
        return answer.error();
    QList<PartitionOutcome> written;
    for (const Struct& topic : answer.value().structs("Responses"))
        for (const Struct& partition : topic.structs("Partitions")) {
            const TopicPartition where{topic.string("TopicName"),
                                       int32_t(partition.integer("PartitionIndex"))};
            written.append({where, asked.value(where, -1),
                            protocol::answerError(partition, where.toString())});
        }
    return written;
}

Result<QList<PartitionOutcome>>
GroupWriteClient::deleteShareStartOffsets(const QString& groupId, const QStringList& topics,
                                          const QList<ShareStartOffset>& started) {
    // The outcome is per topic; it is reported on every partition the group had started on.
    const protocol::ApiSpec& api = protocol::deleteShareGroupOffsetsApi();
    Struct request = MessageCodec::make(api.request);
    request.set("GroupId", groupId);
    for (const QString& topic : topics)
        request.add("Topics").set("TopicName", topic);
    const Result<Struct> answer = m_coordinators.ask(
        groupId, api, request,
        QStringLiteral("deleting the start offsets of share group %1").arg(groupId), deadline());
    if (!answer)
        return answer.error();
    QHash<QString, KafkaError> byTopic;
    for (const Struct& topic : answer.value().structs("Responses"))
        byTopic.insert(topic.string("TopicName"),
                       protocol::answerError(topic, topic.string("TopicName")));
    QList<PartitionOutcome> deleted;
    for (const ShareStartOffset& offset : started)
        if (byTopic.contains(offset.topicPartition.topic))
            deleted.append({offset.topicPartition, -1, byTopic.value(offset.topicPartition.topic)});
    return deleted;
}

} // namespace groupscope::kafka
