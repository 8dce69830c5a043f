// The records of consumer groups (KIP-848, group.protocol=consumer) in __consumer_offsets:
// record types 3 to 8 and 16.

#include "kafka/protocol/CoordinatorRecords.h"

namespace groupscope::kafka::protocol {

using detail::flexibleValue;
using detail::groupKey;
using detail::memberKey;

namespace {

// Partitions of one topic by topic id; in the current assignment with the epoch each was
// assigned at (tagged, Kafka 4.1+).
std::vector<FieldSpec> topicPartitionFields(bool withAssignmentEpochs) {
    using enum FieldType;
    std::vector<FieldSpec> fields{
        field("TopicId", Uuid, since(0)),
        field("Partitions", Int32Array, since(0)),
    };
    if (withAssignmentEpochs)
        fields.push_back(field("AssignmentEpochs", Int32Array, since(0))
                             .nullable(since(0))
                             .taggedIn(since(0), 0)
                             .nullByDefault());
    return fields;
}

} // namespace

const MessageSpec& consumerGroupMetadataKey() {
    static const MessageSpec spec = groupKey("ConsumerGroupMetadataKey");
    return spec;
}

const MessageSpec& consumerGroupMetadataValue() {
    using enum FieldType;
    static const MessageSpec spec =
        flexibleValue("ConsumerGroupMetadataValue",
                      {
                          field("Epoch", Int32, since(0)),
                          field("MetadataHash", Int64, since(0)).taggedIn(since(0), 0),
                      });
    return spec;
}

const MessageSpec& consumerGroupPartitionMetadataKey() {
    static const MessageSpec spec = groupKey("ConsumerGroupPartitionMetadataKey");
    return spec;
}

const MessageSpec& consumerGroupPartitionMetadataValue() {
    using enum FieldType;
    static const MessageSpec spec =
        flexibleValue("ConsumerGroupPartitionMetadataValue",
                      {
                          structArray("Topics", since(0),
                                      {
                                          field("TopicId", Uuid, since(0)),
                                          field("TopicName", String, since(0)),
                                          field("NumPartitions", Int32, since(0)),
                                          structArray("PartitionMetadata", since(0),
                                                      {
                                                          field("Partition", Int32, since(0)),
                                                          field("Racks", StringArray, since(0)),
                                                      }),
                                      }),
                      });
    return spec;
}

const MessageSpec& consumerGroupMemberMetadataKey() {
    static const MessageSpec spec = memberKey("ConsumerGroupMemberMetadataKey");
    return spec;
}

const MessageSpec& consumerGroupMemberMetadataValue() {
    using enum FieldType;
    static const MessageSpec spec = flexibleValue(
        "ConsumerGroupMemberMetadataValue",
        {
            field("InstanceId", String, since(0)).nullable(since(0)).nullByDefault(),
            field("RackId", String, since(0)).nullable(since(0)).nullByDefault(),
            field("ClientId", String, since(0)),
            field("ClientHost", String, since(0)),
            field("SubscribedTopicNames", StringArray, since(0)),
            field("SubscribedTopicRegex", String, since(0)).nullable(since(0)).nullByDefault(),
            field("RebalanceTimeoutMs", Int32, since(0)).defaultsTo(-1),
            field("ServerAssignor", String, since(0)).nullable(since(0)).nullByDefault(),
            // Present for a classic-protocol consumer in a consumer group.
            structField("ClassicMemberMetadata", since(0),
                        {
                            field("SessionTimeoutMs", Int32, since(0)),
                            structArray("SupportedProtocols", since(0),
                                        {
                                            field("Name", String, since(0)),
                                            field("Metadata", Bytes, since(0)),
                                        }),
                        })
                .nullable(since(0))
                .taggedIn(since(0), 0)
                .nullByDefault(),
        });
    return spec;
}

const MessageSpec& consumerGroupTargetAssignmentMetadataKey() {
    static const MessageSpec spec = groupKey("ConsumerGroupTargetAssignmentMetadataKey");
    return spec;
}

const MessageSpec& consumerGroupTargetAssignmentMetadataValue() {
    using enum FieldType;
    static const MessageSpec spec =
        flexibleValue("ConsumerGroupTargetAssignmentMetadataValue",
                      {
                          field("AssignmentEpoch", Int32, since(0)),
                          field("AssignmentTimestamp", Int64, since(0)).taggedIn(since(0), 0),
                      });
    return spec;
}

const MessageSpec& consumerGroupTargetAssignmentMemberKey() {
    static const MessageSpec spec = memberKey("ConsumerGroupTargetAssignmentMemberKey");
    return spec;
}

const MessageSpec& consumerGroupTargetAssignmentMemberValue() {
    static const MessageSpec spec =
        flexibleValue("ConsumerGroupTargetAssignmentMemberValue",
                      {structArray("TopicPartitions", since(0), topicPartitionFields(false))});
    return spec;
}

const MessageSpec& consumerGroupCurrentMemberAssignmentKey() {
    static const MessageSpec spec = memberKey("ConsumerGroupCurrentMemberAssignmentKey");
    return spec;
}

const MessageSpec& consumerGroupCurrentMemberAssignmentValue() {
    using enum FieldType;
    static const MessageSpec spec = flexibleValue(
        "ConsumerGroupCurrentMemberAssignmentValue",
        {
            field("MemberEpoch", Int32, since(0)),
            field("PreviousMemberEpoch", Int32, since(0)),
            field("State", Int8, since(0)),
            structArray("AssignedPartitions", since(0), topicPartitionFields(true)),
            structArray("PartitionsPendingRevocation", since(0), topicPartitionFields(true)),
        });
    return spec;
}

const MessageSpec& consumerGroupRegularExpressionKey() {
    using enum FieldType;
    static const MessageSpec spec{"ConsumerGroupRegularExpressionKey",
                                  between(0, 0),
                                  never(),
                                  {
                                      field("GroupId", String, since(0)),
                                      field("RegularExpression", String, since(0)),
                                  }};
    return spec;
}

// The topics a subscription's regular expression resolved to, and when.
const MessageSpec& consumerGroupRegularExpressionValue() {
    using enum FieldType;
    static const MessageSpec spec = flexibleValue("ConsumerGroupRegularExpressionValue",
                                                  {
                                                      field("Topics", StringArray, since(0)),
                                                      field("Version", Int64, since(0)),
                                                      field("Timestamp", Int64, since(0)),
                                                  });
    return spec;
}

} // namespace groupscope::kafka::protocol
