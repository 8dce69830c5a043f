#pragma once
// Value types describing consumer groups as the Admin API reports them.

#include "kafka/KafkaError.h"
#include "kafka/TopicPartition.h"

#include <QList>
#include <QMetaType>
#include <QString>

#include <cstdint>

namespace groupscope::kafka {

// Assigning and Reconciling are the states of consumer-protocol (KIP-848) groups: the
// target assignment is behind the group epoch, or members have yet to reach it.
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

struct GroupListing {
    QString groupId;
    GroupState state = GroupState::Unknown;
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
    QList<TopicPartition> assignment;
};

struct GroupDescription {
    QString groupId;
    GroupState state = GroupState::Unknown;
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
