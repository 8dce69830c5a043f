#pragma once
// Value types for the records of the group types that follow KIP-848's model, each with a
// group epoch, members with their own epochs, a target assignment and each member's current
// assignment, as they are in `__consumer_offsets`:
//
// - consumer groups (group.protocol=consumer): key types 3-8 and 16;
// - share groups (KIP-932): key types 10-15; partitions are shared, never revoked;
// - streams groups (KIP-1071): key types 17 and 19-23; tasks (subtopology, partition) in
//   place of topic partitions.
//
// Each value at version 0 (flexible: compact strings and arrays, tagged fields). Field names
// follow Kafka's message schemas (ConsumerGroupMetadataKey/Value ...
// StreamsGroupTopologyKey/Value). Such groups write no GroupMetadata (key type 2) records.

#include "kafka/GroupTypes.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <variant>

namespace groupscope::offsetstopic {

// What a record is about, the same for the three group types. The numbers are the consumer
// group's key types (the key type that opens every record key, "version" in the oldest
// schemas); ConsumerGroupRecord::keyType has the share or streams group's own.
enum class ConsumerGroupRecordType : int16_t {
    GroupEpoch = 3,              // ConsumerGroupMetadata; ShareGroup 11, StreamsGroup 17
    PartitionMetadata = 4,       // ConsumerGroupPartitionMetadata (not written since Kafka 4.1)
    MemberMetadata = 5,          // ConsumerGroupMemberMetadata; ShareGroup 10, StreamsGroup 19
    TargetAssignmentEpoch = 6,   // ...TargetAssignmentMetadata; ShareGroup 12, StreamsGroup 20
    TargetAssignmentMember = 7,  // ...TargetAssignmentMember; ShareGroup 13, StreamsGroup 21
    CurrentMemberAssignment = 8, // ...CurrentMemberAssignment; ShareGroup 14, StreamsGroup 22
    StatePartitionMetadata = 15, // ShareGroupStatePartitionMetadata (share groups only)
    RegularExpression = 16,      // ConsumerGroupRegularExpression (consumer groups only)
    Topology = 23,               // StreamsGroupTopology (streams groups only)
};

// Kafka's name of the record, without Key or Value: "ShareGroupMetadata".
QString consumerGroupRecordTypeName(ConsumerGroupRecordType type,
                                    kafka::GroupType groupType = kafka::GroupType::Consumer);

// Partitions of one topic, named by its topic id: these records never name topics.
struct TopicIdPartitions {
    QString topicId; // Kafka's text form of the 16-byte Uuid (URL-safe base64, no padding)
    QList<int32_t> partitions;
    // The member epoch each partition was assigned at (tagged field 0, Kafka 4.1+): empty
    // when absent, else as long as `partitions`.
    QList<int32_t> assignmentEpochs;
    friend bool operator==(const TopicIdPartitions&, const TopicIdPartitions&) = default;
};

// The tasks of one subtopology of a streams group (a task is a subtopology and a
// partition number).
struct SubtopologyTasks {
    QString subtopologyId;
    QList<int32_t> partitions;
    QList<int32_t> assignmentEpochs; // current assignments only, as for TopicIdPartitions
    friend bool operator==(const SubtopologyTasks&, const SubtopologyTasks&) = default;
};

// A streams group member's tasks: active tasks are owned by one member each; standby and
// warm-up tasks keep copies of state stores beside them.
struct StreamsTasks {
    QList<SubtopologyTasks> active;
    QList<SubtopologyTasks> standby;
    QList<SubtopologyTasks> warmup;
    friend bool operator==(const StreamsTasks&, const StreamsTasks&) = default;
};

// ConsumerGroupMetadataValue (ShareGroup..., StreamsGroup...): the group epoch, bumped on
// every change of membership or subscription.
struct ConsumerGroupEpochValue {
    int32_t epoch = -1;
    // Tagged field 0 for consumer groups (Kafka 4.1+); always there for share and streams.
    std::optional<int64_t> metadataHash;
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

// ConsumerGroupMemberMetadataValue (ShareGroup..., StreamsGroup...): who the member is and
// what it subscribes to. Share members have no instance id, regex, timeout or assignor;
// streams members subscribe through their topology instead of topic names.
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
    // Streams groups only.
    int32_t topologyEpoch = -1;
    QString processId;
    QString userEndpoint; // "host:port", empty when the member has none
};

// ConsumerGroupTargetAssignmentMetadataValue: the epoch the target assignment is for.
struct ConsumerGroupTargetAssignmentEpochValue {
    int32_t assignmentEpoch = -1;
    std::optional<int64_t> assignmentTimestamp; // tagged field 0 (Kafka 4.2+)
};

// ConsumerGroupTargetAssignmentMemberValue (ShareGroup...): the partitions the member
// should own; StreamsGroup...: the tasks.
struct ConsumerGroupTargetAssignmentMemberValue {
    QList<TopicIdPartitions> topicPartitions;
    StreamsTasks tasks; // streams groups only
};

// Kafka's MemberState values, as stored in ConsumerGroupCurrentMemberAssignmentValue.
enum class ConsumerMemberState : int8_t {
    Stable = 0,               // owns its target assignment
    UnrevokedPartitions = 1,  // must revoke partitions before it gets more
    UnreleasedPartitions = 2, // waits for partitions other members still own
    Unknown = 127,
};

QString consumerMemberStateName(int8_t state);

// ConsumerGroupCurrentMemberAssignmentValue (ShareGroup..., StreamsGroup...): where the
// member's reconciliation stands.
struct ConsumerGroupCurrentMemberAssignmentValue {
    int32_t memberEpoch = -1;
    int32_t previousMemberEpoch = -1;
    int8_t state = int8_t(ConsumerMemberState::Unknown);
    QList<TopicIdPartitions> assignedPartitions;
    QList<TopicIdPartitions> partitionsPendingRevocation; // never for share groups
    // Streams groups only.
    StreamsTasks tasks;
    StreamsTasks tasksPendingRevocation;
};

// ConsumerGroupRegularExpressionValue: the topics a subscribed regular expression (the
// record's key) resolved to.
struct ConsumerGroupRegularExpressionValue {
    QStringList topics;
    int64_t version = -1; // of the metadata image it was resolved against
    int64_t timestamp = -1;
};

// ShareGroupStatePartitionMetadataValue: the topics whose share-partition state exists.
struct ShareGroupStatePartitionMetadataValue {
    struct Topic {
        QString topicId;
        QString topicName;
        QList<int32_t> partitions; // none for deleting topics
    };
    QList<Topic> initializing;
    QList<Topic> initialized;
    QList<Topic> deleting;
};

// StreamsGroupTopologyValue: the application's topology at a topology epoch.
struct StreamsGroupTopologyValue {
    struct Subtopology {
        QString subtopologyId;
        QStringList sourceTopics;
        QStringList sourceTopicRegex;
        QStringList repartitionSinkTopics;
        QStringList repartitionSourceTopics;
        QStringList stateChangelogTopics;
    };
    int32_t epoch = -1;
    QList<Subtopology> subtopologies;
};

// One record of a consumer, share or streams group. A tombstone (a null value) deletes
// what the key names: the member left (member metadata, target and current assignment), or
// the group is being deleted (the others).
struct ConsumerGroupRecord {
    kafka::GroupType groupType = kafka::GroupType::Consumer;
    ConsumerGroupRecordType type = ConsumerGroupRecordType::GroupEpoch;
    int16_t keyType = 3; // the record's own key type (11 for a share group's epoch)
    QString group;
    QString memberId;          // members' records only
    QString regularExpression; // RegularExpression records only
    int16_t valueVersion = -1; // -1 for a tombstone
    int64_t recordTimestamp = -1;
    std::variant<std::monostate, ConsumerGroupEpochValue, ConsumerGroupPartitionMetadataValue,
                 ConsumerGroupMemberMetadataValue, ConsumerGroupTargetAssignmentEpochValue,
                 ConsumerGroupTargetAssignmentMemberValue,
                 ConsumerGroupCurrentMemberAssignmentValue, ConsumerGroupRegularExpressionValue,
                 ShareGroupStatePartitionMetadataValue, StreamsGroupTopologyValue>
        value;

    bool isTombstone() const { return std::holds_alternative<std::monostate>(value); }
};

} // namespace groupscope::offsetstopic
