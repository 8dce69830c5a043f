// The records of share groups (KIP-932) in __consumer_offsets: record types 10 to 15. A
// share group's members share partitions (records are acquired one by one), so a partition
// may be in several members' assignments and nothing is ever pending revocation.

#include "kafka/protocol/CoordinatorRecords.h"

namespace groupscope::kafka::protocol {

using detail::flexibleValue;
using detail::groupKey;
using detail::memberKey;

namespace {

std::vector<FieldSpec> topicPartitionFields() {
    using enum FieldType;
    return {field("TopicId", Uuid, since(0)), field("Partitions", Int32Array, since(0))};
}

// A topic whose share-partition state the share coordinator keeps (or is setting up, or
// deleting).
std::vector<FieldSpec> stateTopicFields(bool withPartitions) {
    using enum FieldType;
    std::vector<FieldSpec> fields{field("TopicId", Uuid, since(0)),
                                  field("TopicName", String, since(0))};
    if (withPartitions)
        fields.push_back(field("Partitions", Int32Array, since(0)));
    return fields;
}

} // namespace

const MessageSpec& shareGroupMemberMetadataKey() {
    static const MessageSpec spec = memberKey("ShareGroupMemberMetadataKey");
    return spec;
}

const MessageSpec& shareGroupMemberMetadataValue() {
    using enum FieldType;
    static const MessageSpec spec =
        flexibleValue("ShareGroupMemberMetadataValue",
                      {
                          field("RackId", String, since(0)).nullable(since(0)).nullByDefault(),
                          field("ClientId", String, since(0)),
                          field("ClientHost", String, since(0)),
                          field("SubscribedTopicNames", StringArray, since(0)),
                      });
    return spec;
}

const MessageSpec& shareGroupMetadataKey() {
    static const MessageSpec spec = groupKey("ShareGroupMetadataKey");
    return spec;
}

const MessageSpec& shareGroupMetadataValue() {
    using enum FieldType;
    static const MessageSpec spec =
        flexibleValue("ShareGroupMetadataValue", {
                                                     field("Epoch", Int32, since(0)),
                                                     field("MetadataHash", Int64, since(0)),
                                                 });
    return spec;
}

const MessageSpec& shareGroupTargetAssignmentMetadataKey() {
    static const MessageSpec spec = groupKey("ShareGroupTargetAssignmentMetadataKey");
    return spec;
}

const MessageSpec& shareGroupTargetAssignmentMetadataValue() {
    using enum FieldType;
    static const MessageSpec spec =
        flexibleValue("ShareGroupTargetAssignmentMetadataValue",
                      {
                          field("AssignmentEpoch", Int32, since(0)),
                          field("AssignmentTimestamp", Int64, since(0)).taggedIn(since(0), 0),
                      });
    return spec;
}

const MessageSpec& shareGroupTargetAssignmentMemberKey() {
    static const MessageSpec spec = memberKey("ShareGroupTargetAssignmentMemberKey");
    return spec;
}

const MessageSpec& shareGroupTargetAssignmentMemberValue() {
    static const MessageSpec spec =
        flexibleValue("ShareGroupTargetAssignmentMemberValue",
                      {structArray("TopicPartitions", since(0), topicPartitionFields())});
    return spec;
}

const MessageSpec& shareGroupCurrentMemberAssignmentKey() {
    static const MessageSpec spec = memberKey("ShareGroupCurrentMemberAssignmentKey");
    return spec;
}

const MessageSpec& shareGroupCurrentMemberAssignmentValue() {
    using enum FieldType;
    static const MessageSpec spec =
        flexibleValue("ShareGroupCurrentMemberAssignmentValue",
                      {
                          field("MemberEpoch", Int32, since(0)),
                          field("PreviousMemberEpoch", Int32, since(0)),
                          field("State", Int8, since(0)),
                          structArray("AssignedPartitions", since(0), topicPartitionFields()),
                      });
    return spec;
}

const MessageSpec& shareGroupStatePartitionMetadataKey() {
    static const MessageSpec spec = groupKey("ShareGroupStatePartitionMetadataKey");
    return spec;
}

const MessageSpec& shareGroupStatePartitionMetadataValue() {
    static const MessageSpec spec =
        flexibleValue("ShareGroupStatePartitionMetadataValue",
                      {
                          structArray("InitializingTopics", since(0), stateTopicFields(true)),
                          structArray("InitializedTopics", since(0), stateTopicFields(true)),
                          structArray("DeletingTopics", since(0), stateTopicFields(false)),
                      });
    return spec;
}

} // namespace groupscope::kafka::protocol
