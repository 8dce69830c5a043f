#pragma once
// Value types for the records of Kafka's internal `__consumer_offsets` topic, as
// OffsetsTopicDecoder produces them. Field names follow Kafka's message schemas
// (OffsetCommitKey/Value, GroupMetadataKey/Value, ConsumerProtocolAssignment/Subscription;
// consumer, share and streams groups' records in ConsumerGroupRecord.h).

#include "kafka/TopicPartition.h"
#include "offsetstopic/ConsumerGroupRecord.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <variant>

namespace groupscope::offsetstopic {

// A committed offset, or (isTombstone) the deletion of one: the offset expired or the
// group's offsets were deleted. Tombstones carry only the key's fields.
struct OffsetCommit {
    QString group;
    kafka::TopicPartition topicPartition;
    int64_t offset = -1;
    std::optional<int32_t> leaderEpoch; // value v3+, absent when the committer sent none
    QString metadata;
    int64_t commitTimestamp = -1;
    std::optional<int64_t> expireTimestamp; // value v1 only
    int16_t keyVersion = 0;
    int16_t valueVersion = -1; // -1 for a tombstone
    int64_t recordTimestamp = -1;
    bool isTombstone = false;
};

// The consumer protocol's assignment of one member (ConsumerProtocolAssignment).
struct ConsumerAssignment {
    int16_t version = 0;
    QList<kafka::TopicPartition> partitions;
    int userDataSize = 0; // -1 when user data is null
};

// The consumer protocol's subscription of one member (ConsumerProtocolSubscription).
struct ConsumerSubscription {
    int16_t version = 0;
    QStringList topics;
    int userDataSize = 0;                         // -1 when user data is null
    QList<kafka::TopicPartition> ownedPartitions; // v1+
    std::optional<int32_t> generationId;          // v2+, absent when -1
};

struct GroupMemberMetadata {
    QString memberId;
    QString groupInstanceId; // empty unless the member is static (value v3+)
    QString clientId;
    QString clientHost;
    std::optional<int32_t> rebalanceTimeoutMs; // value v1+
    int32_t sessionTimeoutMs = 0;
    int subscriptionSize = 0;
    int assignmentSize = 0;
    // Decoded only for the "consumer" protocol type: other protocols (Kafka Connect, for
    // one) put their own formats in these bytes.
    std::optional<ConsumerSubscription> subscription;
    std::optional<ConsumerAssignment> assignment;
    // Why the subscription or assignment bytes could not be decoded; the member and the
    // rest of the record are still valid.
    QString subscriptionError;
    QString assignmentError;
};

// One generation of a classic-protocol group as the coordinator stored it, or
// (isTombstone) the group's removal.
struct GroupMetadata {
    QString group;
    QString protocolType;
    int32_t generation = -1;
    QString protocol; // empty when no protocol was chosen (an Empty group)
    QString leader;
    std::optional<int64_t> currentStateTimestamp; // value v2+, absent when -1
    QList<GroupMemberMetadata> members;
    int16_t keyVersion = 2;
    int16_t valueVersion = -1;
    int64_t recordTimestamp = -1;
    bool isTombstone = false;
};

// A record this decoder does not understand: a record type or a value version newer than
// Kafka 4.4's. Callers count and skip.
struct UnknownOffsetsTopicRecord {
    int16_t keyVersion = -1; // the record type
    std::optional<int16_t> valueVersion;
    QString description;
    int64_t recordTimestamp = -1;
};

// Bytes that do not follow the schema: where decoding stopped and why.
struct OffsetsTopicDecodeError {
    QString part;      // "key", "value", "subscription" or "assignment"
    QString structure; // e.g. "OffsetCommitValue v3"
    QString field;     // e.g. "metadata"
    int byteOffset = 0;
    QString reason;
    int64_t recordTimestamp = -1;

    // "OffsetCommitValue v3 field 'metadata' at value byte 12: <reason>"
    QString toString() const;
};

using OffsetsTopicRecord = std::variant<OffsetCommit, GroupMetadata, ConsumerGroupRecord,
                                        UnknownOffsetsTopicRecord, OffsetsTopicDecodeError>;

// The partition of `__consumer_offsets` that holds a group's records (and whose leader is
// the group's coordinator): Kafka's Utils.abs(groupId.hashCode()) % partitionCount, with
// Java's String.hashCode over the id's UTF-16 code units.
int32_t offsetsTopicPartitionOf(const QString& groupId, int partitionCount);

} // namespace groupscope::offsetstopic
