#include "offsetstopic/ConsumerGroupRecordDecoder.h"

#include "kafka/protocol/WireReader.h"
#include "offsetstopic/OffsetsTopicDecodeSupport.h"

namespace groupscope::offsetstopic {

namespace {

using Type = ConsumerGroupRecordType;

// The fewest bytes one element can take: a Uuid, a one-byte compact array length and the
// tagged-field count.
constexpr int minimumTopicPartitionsSize = 16 + 1 + 1;
// A Uuid, a compact string, the partition count, an empty array and the tagged-field count.
constexpr int minimumTopicMetadataSize = 16 + 1 + 4 + 1 + 1;
constexpr int minimumPartitionMetadataSize = 4 + 1 + 1;

bool hasMemberId(Type type) {
    return type == Type::MemberMetadata || type == Type::TargetAssignmentMember ||
           type == Type::CurrentMemberAssignment;
}

QString keyStructure(Type type) {
    return consumerGroupRecordTypeName(type) + QStringLiteral("Key");
}

QString valueStructure(Type type) {
    return consumerGroupRecordTypeName(type) + QStringLiteral("Value");
}

QList<int32_t> readInt32Array(WireReader& reader, const char* field) {
    QList<int32_t> values;
    const int count = reader.readArrayLength(field, true, 4);
    values.reserve(count);
    for (int i = 0; i < count && !reader.failed(); ++i)
        values.append(reader.readInt32(field));
    return values;
}

QStringList readStringArray(WireReader& reader, const char* field) {
    QStringList values;
    const int count = reader.readArrayLength(field, true, 1);
    for (int i = 0; i < count && !reader.failed(); ++i)
        values.append(reader.readString(field, true));
    return values;
}

// TopicPartitions of the target and current assignments; `withAssignmentEpochs` for the
// current assignment's struct, whose tagged field 0 holds the epochs (Kafka 4.1+).
QList<TopicIdPartitions> readTopicPartitions(WireReader& reader, const char* field,
                                             bool withAssignmentEpochs) {
    QList<TopicIdPartitions> topics;
    const int count = reader.readArrayLength(field, true, minimumTopicPartitionsSize);
    for (int i = 0; i < count && !reader.failed(); ++i) {
        TopicIdPartitions topic;
        topic.topicId = reader.readUuid("topicId");
        topic.partitions = readInt32Array(reader, "partitions");
        reader.readTaggedFields(
            "topicPartitions.taggedFields", [&](uint32_t tag, WireReader& tagged) {
                if (!withAssignmentEpochs || tag != 0)
                    return false;
                topic.assignmentEpochs = readInt32Array(tagged, "assignmentEpochs");
                return true;
            });
        topics.append(std::move(topic));
    }
    return topics;
}

// A tagged int64 with tag 0: ConsumerGroupMetadataValue's MetadataHash and the target
// assignment's AssignmentTimestamp.
std::optional<int64_t> readTaggedInt64(WireReader& reader, const char* name) {
    std::optional<int64_t> value;
    reader.readTaggedFields("taggedFields", [&](uint32_t tag, WireReader& tagged) {
        if (tag != 0)
            return false;
        value = tagged.readInt64(name);
        return true;
    });
    return value;
}

ConsumerGroupPartitionMetadataValue readPartitionMetadata(WireReader& reader) {
    ConsumerGroupPartitionMetadataValue value;
    const int count = reader.readArrayLength("topics", true, minimumTopicMetadataSize);
    for (int i = 0; i < count && !reader.failed(); ++i) {
        ConsumerGroupPartitionMetadataValue::Topic topic;
        topic.topicId = reader.readUuid("topicId");
        topic.topicName = reader.readString("topicName", true);
        topic.numPartitions = reader.readInt32("numPartitions");
        // Rack information (unused since Kafka 4.0): read to stay in step, not kept.
        const int partitions =
            reader.readArrayLength("partitionMetadata", true, minimumPartitionMetadataSize);
        for (int p = 0; p < partitions && !reader.failed(); ++p) {
            reader.readInt32("partition");
            readStringArray(reader, "racks");
            reader.skipTaggedFields("partitionMetadata.taggedFields");
        }
        reader.skipTaggedFields("topics.taggedFields");
        value.topics.append(std::move(topic));
    }
    reader.skipTaggedFields("taggedFields");
    return value;
}

ConsumerGroupMemberMetadataValue readMemberMetadata(WireReader& reader) {
    ConsumerGroupMemberMetadataValue value;
    value.instanceId = reader.readNullableString("instanceId", true).value_or(QString());
    value.rackId = reader.readNullableString("rackId", true).value_or(QString());
    value.clientId = reader.readString("clientId", true);
    value.clientHost = reader.readString("clientHost", true);
    value.subscribedTopicNames = readStringArray(reader, "subscribedTopicNames");
    value.subscribedTopicRegex =
        reader.readNullableString("subscribedTopicRegex", true).value_or(QString());
    value.rebalanceTimeoutMs = reader.readInt32("rebalanceTimeoutMs");
    value.serverAssignor = reader.readNullableString("serverAssignor", true).value_or(QString());
    reader.readTaggedFields("taggedFields", [&](uint32_t tag, WireReader&) {
        if (tag != 0)
            return false;
        // Its presence is what matters here: the member speaks the classic protocol.
        value.classicMember = true;
        return true;
    });
    return value;
}

ConsumerGroupCurrentMemberAssignmentValue readCurrentAssignment(WireReader& reader) {
    ConsumerGroupCurrentMemberAssignmentValue value;
    value.memberEpoch = reader.readInt32("memberEpoch");
    value.previousMemberEpoch = reader.readInt32("previousMemberEpoch");
    value.state = reader.readInt8("state");
    value.assignedPartitions = readTopicPartitions(reader, "assignedPartitions", true);
    value.partitionsPendingRevocation =
        readTopicPartitions(reader, "partitionsPendingRevocation", true);
    reader.skipTaggedFields("taggedFields");
    return value;
}

void readValue(Type type, WireReader& reader, ConsumerGroupRecord& record) {
    switch (type) {
    case Type::GroupEpoch: {
        ConsumerGroupEpochValue value;
        value.epoch = reader.readInt32("epoch");
        value.metadataHash = readTaggedInt64(reader, "metadataHash");
        record.value = value;
        return;
    }
    case Type::PartitionMetadata:
        record.value = readPartitionMetadata(reader);
        return;
    case Type::MemberMetadata:
        record.value = readMemberMetadata(reader);
        return;
    case Type::TargetAssignmentEpoch: {
        ConsumerGroupTargetAssignmentEpochValue value;
        value.assignmentEpoch = reader.readInt32("assignmentEpoch");
        value.assignmentTimestamp = readTaggedInt64(reader, "assignmentTimestamp");
        record.value = value;
        return;
    }
    case Type::TargetAssignmentMember: {
        ConsumerGroupTargetAssignmentMemberValue value;
        value.topicPartitions = readTopicPartitions(reader, "topicPartitions", false);
        reader.skipTaggedFields("taggedFields");
        record.value = std::move(value);
        return;
    }
    case Type::CurrentMemberAssignment:
        record.value = readCurrentAssignment(reader);
        return;
    }
}

} // namespace

OffsetsTopicRecord ConsumerGroupRecordDecoder::decode(int16_t keyType, WireReader& keyReader,
                                                      std::optional<QByteArrayView> value,
                                                      int64_t recordTimestamp) {
    const Type type = Type(keyType);
    ConsumerGroupRecord record;
    record.type = type;
    record.recordTimestamp = recordTimestamp;
    record.group = keyReader.readString("groupId", false);
    if (hasMemberId(type))
        record.memberId = keyReader.readString("memberId", false);
    keyReader.expectEnd("end");
    if (keyReader.failed())
        return detail::errorFrom(keyReader, QStringLiteral("key"), keyStructure(type),
                                 recordTimestamp);
    if (!value)
        return record; // a tombstone: what the key names is deleted

    WireReader reader(*value);
    const int16_t version = detail::readValueVersion(reader);
    if (reader.failed())
        return detail::errorFrom(reader, QStringLiteral("value"), valueStructure(type),
                                 recordTimestamp);
    if (version > newestValueVersion)
        return detail::unknownValueVersion(valueStructure(type), keyType, version,
                                           newestValueVersion, recordTimestamp);
    record.valueVersion = version;
    readValue(type, reader, record);
    reader.expectEnd("end");
    if (reader.failed())
        return detail::errorFrom(reader, QStringLiteral("value"),
                                 detail::versioned(valueStructure(type), version), recordTimestamp);
    return record;
}

} // namespace groupscope::offsetstopic
