#include "offsetstopic/OffsetsTopicConsumerProtocol.h"

#include "kafka/protocol/WireReader.h"
#include "offsetstopic/OffsetsTopicDecodeSupport.h"

namespace groupscope::offsetstopic {

namespace {

// A topic name (int16 length) and a partition array (int32 count) at the very least.
constexpr int minimumTopicPartitionsSize = 2 + 4;

QList<kafka::TopicPartition> readTopicPartitions(WireReader& reader, const char* arrayField) {
    QList<kafka::TopicPartition> partitions;
    const int topicCount = reader.readArrayLength(arrayField, false, minimumTopicPartitionsSize);
    for (int t = 0; t < topicCount && !reader.failed(); ++t) {
        const QString topic = reader.readString("topic", false);
        const int partitionCount = reader.readArrayLength("partitions", false, 4);
        for (int p = 0; p < partitionCount && !reader.failed(); ++p) {
            const int32_t partition = reader.readInt32("partitions");
            if (!reader.failed())
                partitions.append({topic, partition});
        }
    }
    return partitions;
}

int sizeOf(const std::optional<QByteArrayView>& bytes) {
    return bytes ? int(bytes->size()) : -1;
}

} // namespace

std::variant<ConsumerAssignment, OffsetsTopicDecodeError>
OffsetsTopicConsumerProtocol::decodeAssignment(QByteArrayView bytes) {
    WireReader reader(bytes);
    ConsumerAssignment assignment;
    assignment.version = reader.readInt16("version");
    if (!reader.failed() && assignment.version < 0)
        reader.fail("version", 0, QStringLiteral("negative version %1").arg(assignment.version));
    assignment.partitions = readTopicPartitions(reader, "assignedPartitions");
    assignment.userDataSize = sizeOf(reader.readNullableBytes("userData", false));
    const QString structure =
        QStringLiteral("ConsumerProtocolAssignment v%1").arg(assignment.version);
    if (reader.failed())
        return detail::errorFrom(reader, QStringLiteral("assignment"), structure, -1);
    return assignment;
}

std::variant<ConsumerSubscription, OffsetsTopicDecodeError>
OffsetsTopicConsumerProtocol::decodeSubscription(QByteArrayView bytes) {
    WireReader reader(bytes);
    ConsumerSubscription subscription;
    subscription.version = reader.readInt16("version");
    if (!reader.failed() && subscription.version < 0)
        reader.fail("version", 0, QStringLiteral("negative version %1").arg(subscription.version));
    const int topicCount = reader.readArrayLength("topics", false, 2);
    for (int t = 0; t < topicCount && !reader.failed(); ++t) {
        const QString topic = reader.readString("topics", false);
        if (!reader.failed())
            subscription.topics.append(topic);
    }
    subscription.userDataSize = sizeOf(reader.readNullableBytes("userData", false));
    if (subscription.version >= 1)
        subscription.ownedPartitions = readTopicPartitions(reader, "ownedPartitions");
    if (subscription.version >= 2) {
        const int32_t generationId = reader.readInt32("generationId");
        if (generationId != -1)
            subscription.generationId = generationId;
    }
    const QString structure =
        QStringLiteral("ConsumerProtocolSubscription v%1").arg(subscription.version);
    if (reader.failed())
        return detail::errorFrom(reader, QStringLiteral("subscription"), structure, -1);
    return subscription;
}

} // namespace groupscope::offsetstopic
