#pragma once
// Value types describing consumer groups as the Admin API reports them.

#include "kafka/KafkaError.h"
#include "kafka/TopicPartition.h"

#include <QList>
#include <QMetaType>
#include <QString>

#include <cstdint>
#include <optional>

namespace groupscope::kafka {

// The classic protocol's states, then the consumer protocol's own two (Kafka 4): Assigning
// (the coordinator computes a new target assignment) and Reconciling (members converge on
// it, revoking and receiving partitions one by one). Both protocols share Stable, Empty
// and Dead.
enum class GroupState {
    Unknown,
    PreparingRebalance,
    CompletingRebalance,
    Stable,
    Dead,
    Empty,
    Assigning,
    Reconciling
};

// Kafka's own spelling ("Stable", "PreparingRebalance", ...), as kafka-consumer-groups prints.
QString groupStateName(GroupState state);
GroupState groupStateFromName(const QString& name);
// Whether the group's partitions are moving: a classic rebalance, or a consumer-protocol
// group assigning or reconciling.
bool isRebalancing(GroupState state);

// Which rebalance protocol a group uses (Kafka 4's "group type"): Classic is the JoinGroup/
// SyncGroup protocol of every Kafka before 4 (and of simple, offsets-only groups);
// Consumer is KIP-848's (`group.protocol=consumer`). Unknown: the broker or client does not
// say (Kafka before 3.8 has no types; they are all classic).
enum class GroupType { Unknown, Classic, Consumer };

// As Kafka 4.4's kafka-consumer-groups --list --type prints it: "Classic", "Consumer".
QString groupTypeName(GroupType type);
// From a name in any case ("classic", "CONSUMER"); nullopt for anything else.
std::optional<GroupType> groupTypeFromName(const QString& name);

struct GroupListing {
    QString groupId;
    GroupState state = GroupState::Unknown;
    GroupType type = GroupType::Unknown;
    // A "simple" group only stores offsets (no members, no protocol): the protocol type is
    // empty on the broker.
    bool isSimpleConsumerGroup = false;
};

struct BrokerNode {
    int32_t id = -1;
    QString host;
    int port = 0;
    QString toString() const {
        return QStringLiteral("%1:%2 (id: %3)").arg(host).arg(port).arg(id);
    }
};

struct MemberDescription {
    QString memberId;
    QString groupInstanceId; // empty unless the member is static
    QString clientId;
    QString host;
    QList<TopicPartition> assignment; // what it owns now (sorted)
    // Consumer protocol only: what the group coordinator has decided it should own
    // (sorted). A member whose assignment differs is still reconciling: it has yet to
    // revoke the partitions it owns beyond the target and then receive the missing ones.
    std::optional<QList<TopicPartition>> targetAssignment = std::nullopt;

    bool isReconciling() const { return targetAssignment && *targetAssignment != assignment; }
};

struct GroupDescription {
    QString groupId;
    GroupState state = GroupState::Unknown;
    GroupType type = GroupType::Unknown;
    QString protocolType; // "consumer" for consumer groups, empty for simple groups
    QString partitionAssignor;
    BrokerNode coordinator;
    QList<MemberDescription> members;
    KafkaError error; // set when the broker could not describe this group
};

struct CommittedOffset {
    TopicPartition topicPartition;
    int64_t offset = -1;
    QString metadata;
};

// Log start (earliest retained) and log end (next offset to be written) of a partition.
struct LogOffsets {
    TopicPartition topicPartition;
    int64_t logStartOffset = -1;
    int64_t logEndOffset = -1;
    KafkaError error;
};

// A partition as cluster metadata describes it.
struct PartitionInfo {
    TopicPartition topicPartition;
    int32_t leader = -1; // -1: no leader right now
};

// The outcome of a write (alter or delete of a committed offset) for one partition.
struct PartitionOutcome {
    TopicPartition topicPartition;
    int64_t offset = -1; // the offset written; -1 for a delete
    KafkaError error;
};

} // namespace groupscope::kafka

Q_DECLARE_METATYPE(groupscope::kafka::GroupState)
