#include "offsetstopic/ConsumerGroupRecordReader.h"

#include "kafka/protocol/CoordinatorRecords.h"
#include "offsetstopic/RecordPartDecoder.h"

namespace groupscope::offsetstopic {

namespace {

using kafka::GroupType;
using kafka::protocol::FieldName;
using kafka::protocol::Struct;
using kafka::protocol::StructList;
using RecordType = kafka::protocol::CoordinatorRecordType;
using Type = ConsumerGroupRecordType;

QList<TopicIdPartitions> topicIdPartitions(const StructList& topics) {
    QList<TopicIdPartitions> converted;
    for (const Struct& topic : topics) {
        TopicIdPartitions partitions;
        partitions.topicId = detail::uuidText(topic.bytes("TopicId"));
        partitions.partitions = detail::int32List(topic.integers("Partitions"));
        // Only current assignments have the field (a tagged one).
        if (topic.fields()->size() > 2)
            partitions.assignmentEpochs = detail::int32List(topic.integers("AssignmentEpochs"));
        converted.append(std::move(partitions));
    }
    return converted;
}

QList<SubtopologyTasks> subtopologyTasks(const StructList& subtopologies) {
    QList<SubtopologyTasks> converted;
    for (const Struct& subtopology : subtopologies) {
        SubtopologyTasks tasks;
        tasks.subtopologyId = subtopology.string("SubtopologyId");
        tasks.partitions = detail::int32List(subtopology.integers("Partitions"));
        if (subtopology.fields()->size() > 2)
            tasks.assignmentEpochs = detail::int32List(subtopology.integers("AssignmentEpochs"));
        converted.append(std::move(tasks));
    }
    return converted;
}

StreamsTasks streamsTasks(const Struct& value, FieldName active, FieldName standby,
                          FieldName warmup) {
    return {subtopologyTasks(value.structs(active)), subtopologyTasks(value.structs(standby)),
            subtopologyTasks(value.structs(warmup))};
}

ConsumerGroupEpochValue groupEpoch(const Struct& value) {
    ConsumerGroupEpochValue epoch;
    epoch.epoch = int32_t(value.integer("Epoch"));
    if (value.has("MetadataHash")) // tagged for consumer groups
        epoch.metadataHash = value.integer("MetadataHash");
    return epoch;
}

ConsumerGroupPartitionMetadataValue partitionMetadata(const Struct& value) {
    ConsumerGroupPartitionMetadataValue metadata;
    for (const Struct& topic : value.structs("Topics"))
        metadata.topics.append({detail::uuidText(topic.bytes("TopicId")), topic.string("TopicName"),
                                int32_t(topic.integer("NumPartitions"))});
    return metadata;
}

ConsumerGroupMemberMetadataValue memberMetadata(GroupType groupType, const Struct& value) {
    ConsumerGroupMemberMetadataValue metadata;
    metadata.rackId = value.string("RackId");
    metadata.clientId = value.string("ClientId");
    metadata.clientHost = value.string("ClientHost");
    if (groupType == GroupType::Share) {
        metadata.subscribedTopicNames = value.strings("SubscribedTopicNames");
        return metadata;
    }
    metadata.instanceId = value.string("InstanceId");
    metadata.rebalanceTimeoutMs = int32_t(value.integer("RebalanceTimeoutMs"));
    if (groupType == GroupType::Streams) {
        metadata.topologyEpoch = int32_t(value.integer("TopologyEpoch"));
        metadata.processId = value.string("ProcessId");
        if (!value.isNull("UserEndpoint")) {
            const Struct endpoint = value.child("UserEndpoint");
            metadata.userEndpoint =
                QStringLiteral("%1:%2").arg(endpoint.string("Host")).arg(endpoint.integer("Port"));
        }
        return metadata;
    }
    metadata.subscribedTopicNames = value.strings("SubscribedTopicNames");
    metadata.subscribedTopicRegex = value.string("SubscribedTopicRegex");
    metadata.serverAssignor = value.string("ServerAssignor");
    // Its presence is what matters here: the member speaks the classic protocol.
    metadata.classicMember =
        value.has("ClassicMemberMetadata") && !value.isNull("ClassicMemberMetadata");
    return metadata;
}

ConsumerGroupTargetAssignmentEpochValue targetAssignmentEpoch(const Struct& value) {
    ConsumerGroupTargetAssignmentEpochValue epoch;
    epoch.assignmentEpoch = int32_t(value.integer("AssignmentEpoch"));
    if (value.has("AssignmentTimestamp"))
        epoch.assignmentTimestamp = value.integer("AssignmentTimestamp");
    return epoch;
}

ConsumerGroupTargetAssignmentMemberValue targetAssignmentMember(GroupType groupType,
                                                                const Struct& value) {
    ConsumerGroupTargetAssignmentMemberValue target;
    if (groupType == GroupType::Streams)
        target.tasks = streamsTasks(value, "ActiveTasks", "StandbyTasks", "WarmupTasks");
    else
        target.topicPartitions = topicIdPartitions(value.structs("TopicPartitions"));
    return target;
}

ConsumerGroupCurrentMemberAssignmentValue currentAssignment(GroupType groupType,
                                                            const Struct& value) {
    ConsumerGroupCurrentMemberAssignmentValue current;
    current.memberEpoch = int32_t(value.integer("MemberEpoch"));
    current.previousMemberEpoch = int32_t(value.integer("PreviousMemberEpoch"));
    current.state = int8_t(value.integer("State"));
    switch (groupType) {
    case GroupType::Streams:
        current.tasks = streamsTasks(value, "ActiveTasks", "StandbyTasks", "WarmupTasks");
        current.tasksPendingRevocation =
            streamsTasks(value, "ActiveTasksPendingRevocation", "StandbyTasksPendingRevocation",
                         "WarmupTasksPendingRevocation");
        break;
    case GroupType::Share: // shared partitions are never revoked
        current.assignedPartitions = topicIdPartitions(value.structs("AssignedPartitions"));
        break;
    default:
        current.assignedPartitions = topicIdPartitions(value.structs("AssignedPartitions"));
        current.partitionsPendingRevocation =
            topicIdPartitions(value.structs("PartitionsPendingRevocation"));
        break;
    }
    return current;
}

QList<ShareGroupStatePartitionMetadataValue::Topic> stateTopics(const StructList& topics) {
    QList<ShareGroupStatePartitionMetadataValue::Topic> converted;
    for (const Struct& topic : topics) {
        ShareGroupStatePartitionMetadataValue::Topic stateTopic;
        stateTopic.topicId = detail::uuidText(topic.bytes("TopicId"));
        stateTopic.topicName = topic.string("TopicName");
        if (topic.fields()->size() > 2) // deleting topics list no partitions
            stateTopic.partitions = detail::int32List(topic.integers("Partitions"));
        converted.append(std::move(stateTopic));
    }
    return converted;
}

QStringList topicNames(const StructList& topics) {
    QStringList names;
    for (const Struct& topic : topics)
        names.append(topic.string("Name"));
    return names;
}

StreamsGroupTopologyValue topology(const Struct& value) {
    StreamsGroupTopologyValue converted;
    converted.epoch = int32_t(value.integer("Epoch"));
    for (const Struct& subtopology : value.structs("Subtopologies"))
        converted.subtopologies.append(
            {subtopology.string("SubtopologyId"), subtopology.strings("SourceTopics"),
             subtopology.strings("SourceTopicRegex"), subtopology.strings("RepartitionSinkTopics"),
             topicNames(subtopology.structs("RepartitionSourceTopics")),
             topicNames(subtopology.structs("StateChangelogTopics"))});
    return converted;
}

void readValue(ConsumerGroupRecord& record, const Struct& value) {
    switch (record.type) {
    case Type::GroupEpoch:
        record.value = groupEpoch(value);
        return;
    case Type::PartitionMetadata:
        record.value = partitionMetadata(value);
        return;
    case Type::MemberMetadata:
        record.value = memberMetadata(record.groupType, value);
        return;
    case Type::TargetAssignmentEpoch:
        record.value = targetAssignmentEpoch(value);
        return;
    case Type::TargetAssignmentMember:
        record.value = targetAssignmentMember(record.groupType, value);
        return;
    case Type::CurrentMemberAssignment:
        record.value = currentAssignment(record.groupType, value);
        return;
    case Type::RegularExpression:
        record.value = ConsumerGroupRegularExpressionValue{
            value.strings("Topics"), value.integer("Version"), value.integer("Timestamp")};
        return;
    case Type::StatePartitionMetadata:
        record.value =
            ShareGroupStatePartitionMetadataValue{stateTopics(value.structs("InitializingTopics")),
                                                  stateTopics(value.structs("InitializedTopics")),
                                                  stateTopics(value.structs("DeletingTopics"))};
        return;
    case Type::Topology:
        record.value = topology(value);
        return;
    }
}

} // namespace

std::optional<ConsumerGroupRecordReader::Kind> ConsumerGroupRecordReader::kindOf(int16_t keyType) {
    switch (RecordType(keyType)) {
    case RecordType::ConsumerGroupMetadata:
        return Kind{GroupType::Consumer, Type::GroupEpoch};
    case RecordType::ConsumerGroupPartitionMetadata:
        return Kind{GroupType::Consumer, Type::PartitionMetadata};
    case RecordType::ConsumerGroupMemberMetadata:
        return Kind{GroupType::Consumer, Type::MemberMetadata};
    case RecordType::ConsumerGroupTargetAssignmentMetadata:
        return Kind{GroupType::Consumer, Type::TargetAssignmentEpoch};
    case RecordType::ConsumerGroupTargetAssignmentMember:
        return Kind{GroupType::Consumer, Type::TargetAssignmentMember};
    case RecordType::ConsumerGroupCurrentMemberAssignment:
        return Kind{GroupType::Consumer, Type::CurrentMemberAssignment};
    case RecordType::ConsumerGroupRegularExpression:
        return Kind{GroupType::Consumer, Type::RegularExpression};
    case RecordType::ShareGroupMemberMetadata:
        return Kind{GroupType::Share, Type::MemberMetadata};
    case RecordType::ShareGroupMetadata:
        return Kind{GroupType::Share, Type::GroupEpoch};
    case RecordType::ShareGroupTargetAssignmentMetadata:
        return Kind{GroupType::Share, Type::TargetAssignmentEpoch};
    case RecordType::ShareGroupTargetAssignmentMember:
        return Kind{GroupType::Share, Type::TargetAssignmentMember};
    case RecordType::ShareGroupCurrentMemberAssignment:
        return Kind{GroupType::Share, Type::CurrentMemberAssignment};
    case RecordType::ShareGroupStatePartitionMetadata:
        return Kind{GroupType::Share, Type::StatePartitionMetadata};
    case RecordType::StreamsGroupMetadata:
        return Kind{GroupType::Streams, Type::GroupEpoch};
    case RecordType::StreamsGroupMemberMetadata:
        return Kind{GroupType::Streams, Type::MemberMetadata};
    case RecordType::StreamsGroupTargetAssignmentMetadata:
        return Kind{GroupType::Streams, Type::TargetAssignmentEpoch};
    case RecordType::StreamsGroupTargetAssignmentMember:
        return Kind{GroupType::Streams, Type::TargetAssignmentMember};
    case RecordType::StreamsGroupCurrentMemberAssignment:
        return Kind{GroupType::Streams, Type::CurrentMemberAssignment};
    case RecordType::StreamsGroupTopology:
        return Kind{GroupType::Streams, Type::Topology};
    case RecordType::LegacyOffsetCommit:
    case RecordType::OffsetCommit:
    case RecordType::GroupMetadata:
        break;
    }
    return std::nullopt;
}

ConsumerGroupRecord ConsumerGroupRecordReader::read(int16_t keyType, const Struct& key,
                                                    const std::optional<Struct>& value,
                                                    int16_t valueVersion, int64_t recordTimestamp) {
    const Kind kind = *kindOf(keyType);
    ConsumerGroupRecord record;
    record.groupType = kind.groupType;
    record.type = kind.type;
    record.keyType = keyType;
    record.recordTimestamp = recordTimestamp;
    record.group = key.string("GroupId");
    const auto& keyFields = *key.fields();
    for (const auto& field : keyFields) {
        if (qstrcmp(field.name, "MemberId") == 0)
            record.memberId = key.string("MemberId");
        else if (qstrcmp(field.name, "RegularExpression") == 0)
            record.regularExpression = key.string("RegularExpression");
    }
    if (!value)
        return record; // a tombstone: what the key names is deleted
    record.valueVersion = valueVersion;
    readValue(record, *value);
    return record;
}

} // namespace groupscope::offsetstopic
