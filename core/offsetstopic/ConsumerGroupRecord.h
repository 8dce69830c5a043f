#pragma once
// Value types for the records a KIP-848 consumer-protocol group (group.protocol=consumer)
// leaves in `__consumer_offsets`: key types 3 to 8, each value at version 0 (flexible:
// compact strings and arrays, tagged fields). Field names follow Kafka's message schemas
// (ConsumerGroupMetadataKey/Value ... ConsumerGroupCurrentMemberAssignmentKey/Value).
// Such groups write no GroupMetadata (key type 2) records.

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <variant>

namespace groupscope::offsetstopic {

// The key type that opens every record key ("version" in the oldest schemas).
enum class ConsumerGroupRecordType : int16_t {
    GroupEpoch = 3,             // ConsumerGroupMetadata
    PartitionMetadata = 4,      // ConsumerGroupPartitionMetadata (not written since Kafka 4.1)
    MemberMetadata = 5,         // ConsumerGroupMemberMetadata
    TargetAssignmentEpoch = 6,  // ConsumerGroupTargetAssignmentMetadata
    TargetAssignmentMember = 7, // ConsumerGroupTargetAssignmentMember
    CurrentMemberAssignment = 8,
};

QString consumerGroupRecordTypeName(ConsumerGroupRecordType type);

// Partitions of one topic, named by its topic id: these records never name topics.
struct TopicIdPartitions {
    QString topicId; // Kafka's text form of the 16-byte Uuid (URL-safe base64, no padding)
    QList<int32_t> partitions;
    // The member epoch each partition was assigned at (tagged field 0, Kafka 4.1+): empty
    // when absent, else as long as `partitions`.
    QList<int32_t> assignmentEpochs;
    friend bool operator==(const TopicIdPartitions&, const TopicIdPartitions&) = default;
};

// ConsumerGroupMetadataValue: the group epoch, bumped on every change of membership or
// subscription.
struct ConsumerGroupEpochValue {
    int32_t epoch = -1;
    std::optional<int64_t> metadataHash; // tagged field 0 (Kafka 4.1+)
};

// ConsumerGroupPartitionMetadataValue: the subscribed topics' ids, names and sizes.
struct ConsumerGroupPartitionMetadataValue {
    struct Topic {
        QString topicId;
        QString topicName;
        int32_t numPartitions = 0;
    };
    QList<Topic> topics;
};

// ConsumerGroupMemberMetadataValue: who the member is and what it subscribes to.
struct ConsumerGroupMemberMetadataValue {
    QString instanceId; // empty unless static (group.instance.id)
    QString rackId;
    QString clientId;
    QString clientHost;
    QStringList subscribedTopicNames;
    QString subscribedTopicRegex;
    int32_t rebalanceTimeoutMs = -1;
    QString serverAssignor; // empty when the member left the choice to the broker
    // Tagged field 0 (ClassicMemberMetadata) present: a classic-protocol consumer in a
    // consumer group (it joined with JoinGroup and the coordinator translates for it).
    bool classicMember = false;
};

// ConsumerGroupTargetAssignmentMetadataValue: the epoch the target assignment is for.
struct ConsumerGroupTargetAssignmentEpochValue {
    int32_t assignmentEpoch = -1;
    std::optional<int64_t> assignmentTimestamp; // tagged field 0 (Kafka 4.2+)
};

// ConsumerGroupTargetAssignmentMemberValue: the partitions the member should own.
struct ConsumerGroupTargetAssignmentMemberValue {
    QList<TopicIdPartitions> topicPartitions;
};

// Kafka's MemberState values, as stored in ConsumerGroupCurrentMemberAssignmentValue.
enum class ConsumerMemberState : int8_t {
    Stable = 0,               // owns its target assignment
    UnrevokedPartitions = 1,  // must revoke partitions before it gets more
    UnreleasedPartitions = 2, // waits for partitions other members still own
    Unknown = 127,
};

QString consumerMemberStateName(int8_t state);

// ConsumerGroupCurrentMemberAssignmentValue: where the member's reconciliation stands.
struct ConsumerGroupCurrentMemberAssignmentValue {
    int32_t memberEpoch = -1;
    int32_t previousMemberEpoch = -1;
    int8_t state = int8_t(ConsumerMemberState::Unknown);
    QList<TopicIdPartitions> assignedPartitions;
    QList<TopicIdPartitions> partitionsPendingRevocation;
};

// One record of types 3-8. A tombstone (a null value) deletes what the key names: the
// member left (5, 7, 8), or the group is being deleted (3, 4, 6).
struct ConsumerGroupRecord {
    ConsumerGroupRecordType type = ConsumerGroupRecordType::GroupEpoch;
    QString group;
    QString memberId;          // types 5, 7 and 8 only
    int16_t valueVersion = -1; // -1 for a tombstone
    int64_t recordTimestamp = -1;
    std::variant<std::monostate, ConsumerGroupEpochValue, ConsumerGroupPartitionMetadataValue,
                 ConsumerGroupMemberMetadataValue, ConsumerGroupTargetAssignmentEpochValue,
                 ConsumerGroupTargetAssignmentMemberValue,
                 ConsumerGroupCurrentMemberAssignmentValue>
        value;

    bool isTombstone() const { return std::holds_alternative<std::monostate>(value); }
};

} // namespace groupscope::offsetstopic
