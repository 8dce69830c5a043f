#pragma once
// The records Kafka's group coordinator writes to `__consumer_offsets`, described as
// message specs from Kafka's own (group-coordinator/src/main/resources/common/message/
// *Key.json and *Value.json; TestSpecsAgainstKafka compares them with the generated
// classes of the group-coordinator jar). A record's key is an int16 record type followed by
// the type's key structure (version 0, never flexible); its value, an int16 version followed
// by the type's value structure in that version; a null value is a tombstone.

#include "kafka/protocol/MessageSchema.h"

#include <QList>

#include <cstdint>

namespace groupscope::kafka::protocol {

// Kafka 4.4's CoordinatorRecordType: the leading int16 of every key (the "key version" of
// the oldest formats). 9 and 18 were share and streams groups' partition metadata, never
// written by a released Kafka.
enum class CoordinatorRecordType : int16_t {
    LegacyOffsetCommit = 0,
    OffsetCommit = 1,
    GroupMetadata = 2,
    ConsumerGroupMetadata = 3,
    ConsumerGroupPartitionMetadata = 4,
    ConsumerGroupMemberMetadata = 5,
    ConsumerGroupTargetAssignmentMetadata = 6,
    ConsumerGroupTargetAssignmentMember = 7,
    ConsumerGroupCurrentMemberAssignment = 8,
    ShareGroupMemberMetadata = 10,
    ShareGroupMetadata = 11,
    ShareGroupTargetAssignmentMetadata = 12,
    ShareGroupTargetAssignmentMember = 13,
    ShareGroupCurrentMemberAssignment = 14,
    ShareGroupStatePartitionMetadata = 15,
    ConsumerGroupRegularExpression = 16,
    StreamsGroupMetadata = 17,
    StreamsGroupMemberMetadata = 19,
    StreamsGroupTargetAssignmentMetadata = 20,
    StreamsGroupTargetAssignmentMember = 21,
    StreamsGroupCurrentMemberAssignment = 22,
    StreamsGroupTopology = 23,
};

// The key and value of one record type.
struct CoordinatorRecordSpecs {
    CoordinatorRecordType type;
    const MessageSpec* key;
    const MessageSpec* value;
};

// The specs of a record type, or null for a type Kafka 4.4 does not write (a newer Kafka's,
// or corruption).
const CoordinatorRecordSpecs* coordinatorRecordSpecs(int16_t recordType);
// Every record type, in type order.
const QList<CoordinatorRecordSpecs>& everyCoordinatorRecord();

// Classic groups (CoordinatorRecordsClassic.cpp): committed offsets and group metadata,
// and the consumer protocol's subscription inside GroupMetadataValue's member bytes
// (ConsumerProtocolAssignment, the other half, is in Apis.h).
const MessageSpec& legacyOffsetCommitKey();
const MessageSpec& offsetCommitKey();
const MessageSpec& offsetCommitValue();
const MessageSpec& groupMetadataKey();
const MessageSpec& groupMetadataValue();
const MessageSpec& consumerProtocolSubscription();

// Consumer groups, KIP-848 (CoordinatorRecordsConsumerGroups.cpp).
const MessageSpec& consumerGroupMetadataKey();
const MessageSpec& consumerGroupMetadataValue();
const MessageSpec& consumerGroupPartitionMetadataKey();
const MessageSpec& consumerGroupPartitionMetadataValue();
const MessageSpec& consumerGroupMemberMetadataKey();
const MessageSpec& consumerGroupMemberMetadataValue();
const MessageSpec& consumerGroupTargetAssignmentMetadataKey();
const MessageSpec& consumerGroupTargetAssignmentMetadataValue();
const MessageSpec& consumerGroupTargetAssignmentMemberKey();
const MessageSpec& consumerGroupTargetAssignmentMemberValue();
const MessageSpec& consumerGroupCurrentMemberAssignmentKey();
const MessageSpec& consumerGroupCurrentMemberAssignmentValue();
const MessageSpec& consumerGroupRegularExpressionKey();
const MessageSpec& consumerGroupRegularExpressionValue();

// Share groups, KIP-932 (CoordinatorRecordsShareGroups.cpp).
const MessageSpec& shareGroupMemberMetadataKey();
const MessageSpec& shareGroupMemberMetadataValue();
const MessageSpec& shareGroupMetadataKey();
const MessageSpec& shareGroupMetadataValue();
const MessageSpec& shareGroupTargetAssignmentMetadataKey();
const MessageSpec& shareGroupTargetAssignmentMetadataValue();
const MessageSpec& shareGroupTargetAssignmentMemberKey();
const MessageSpec& shareGroupTargetAssignmentMemberValue();
const MessageSpec& shareGroupCurrentMemberAssignmentKey();
const MessageSpec& shareGroupCurrentMemberAssignmentValue();
const MessageSpec& shareGroupStatePartitionMetadataKey();
const MessageSpec& shareGroupStatePartitionMetadataValue();

// Streams groups, KIP-1071 (CoordinatorRecordsStreamsGroups.cpp).
const MessageSpec& streamsGroupMetadataKey();
const MessageSpec& streamsGroupMetadataValue();
const MessageSpec& streamsGroupMemberMetadataKey();
const MessageSpec& streamsGroupMemberMetadataValue();
const MessageSpec& streamsGroupTargetAssignmentMetadataKey();
const MessageSpec& streamsGroupTargetAssignmentMetadataValue();
const MessageSpec& streamsGroupTargetAssignmentMemberKey();
const MessageSpec& streamsGroupTargetAssignmentMemberValue();
const MessageSpec& streamsGroupCurrentMemberAssignmentKey();
const MessageSpec& streamsGroupCurrentMemberAssignmentValue();
const MessageSpec& streamsGroupTopologyKey();
const MessageSpec& streamsGroupTopologyValue();

namespace detail {
// The keys of the newer group types: the group id, and the member id where the record is
// a member's. Version 0 only, never flexible.
MessageSpec groupKey(const char* name);
MessageSpec memberKey(const char* name);
// A record value of the newer group types: version 0, flexible.
MessageSpec flexibleValue(const char* name, std::vector<FieldSpec> fields);
} // namespace detail

} // namespace groupscope::kafka::protocol
