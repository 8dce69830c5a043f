#pragma once
// Value types describing consumer groups as the Admin API reports them.

#include "kafka/KafkaError.h"
#include "kafka/SharedError.h"
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
    Reconciling,
    NotReady // streams groups: the topology's internal topics are missing or not yet created
};

// Kafka's own spelling ("Stable", "PreparingRebalance", ...), as kafka-consumer-groups prints.
QString groupStateName(GroupState state);
GroupState groupStateFromName(const QString& name);
// Whether the group's partitions are moving: a classic rebalance, or a consumer-protocol
// group assigning or reconciling.
bool isRebalancing(GroupState state);
// Whether the group has no members (Empty, or Dead: gone): Kafka changes the offsets of such
// a group only.
bool isInactive(GroupState state);

// Which protocol a group uses (Kafka 4's "group type"): Classic is the JoinGroup/
// SyncGroup protocol of every Kafka before 4 (and of simple, offsets-only groups);
// Consumer is KIP-848's (`group.protocol=consumer`); Share is KIP-932's share groups
// (queues: members share partitions, the group keeps a start offset per partition instead
// of committed offsets); Streams is KIP-1071's (Kafka Streams applications: members own
// tasks). Unknown: the broker does not say (Kafka before 3.8 has no types; all classic).
enum class GroupType { Unknown, Classic, Consumer, Share, Streams };

// As Kafka 4.4's kafka-groups --list prints it: "Classic", "Consumer", "Share", "Streams".
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
    // "consumer" for classic and consumer groups, "share", "streams"; empty for simple
    // groups (kafka-groups --list's PROTOCOL column).
    QString protocolType;
};

struct BrokerNode {
    int32_t id = -1;
    QString host;
    int port = 0;
    QString toString() const {
        return QStringLiteral("%1:%2 (id: %3)").arg(host).arg(port).arg(id);
    }
};

// A Kafka Streams task: a subtopology's partition group, numbered by partition.
struct StreamsTaskIds {
    QString subtopologyId;
    QList<int32_t> partitions;
    friend bool operator==(const StreamsTaskIds&, const StreamsTaskIds&) = default;
};

// What a streams-group member runs: active tasks process records, standby tasks keep a
// copy of the state, warm-up tasks catch up before taking over as active.
struct StreamsTasks {
    QList<StreamsTaskIds> active;
    QList<StreamsTaskIds> standby;
    QList<StreamsTaskIds> warmup;
    friend bool operator==(const StreamsTasks&, const StreamsTasks&) = default;
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
    // Consumer, share and streams groups: the member's epoch (the assignment epoch it has
    // reached) and, for consumer groups, the epoch of its target assignment. Unset for
    // classic groups, whose members have no epochs.
    std::optional<int32_t> memberEpoch = std::nullopt;
    std::optional<int32_t> targetEpoch = std::nullopt;
    // Streams groups only: the tasks it runs now and the ones it is to run.
    std::optional<StreamsTasks> tasks = std::nullopt;
    std::optional<StreamsTasks> targetTasks = std::nullopt;
    QString rackId;
    QString processId; // streams: the Kafka Streams instance the member belongs to
    // Streams groups: "streams", or "classic" for a member still on the classic protocol.
    QString memberProtocol;

    // Still moving towards its target: partitions (consumer groups) or tasks (streams).
    bool isReconciling() const {
        return (targetAssignment && *targetAssignment != assignment) ||
               (targetTasks && *targetTasks != tasks.value_or(StreamsTasks()));
    }
};

struct GroupDescription {
    QString groupId;
    GroupState state = GroupState::Unknown;
    GroupType type = GroupType::Unknown;
    QString protocolType; // "consumer" for consumer groups, empty for simple groups
    QString partitionAssignor;
    BrokerNode coordinator;
    QList<MemberDescription> members;
    // Consumer, share and streams groups: the group's epoch (bumped on every membership or
    // subscription change) and the epoch of the target assignment computed for it. When
    // they differ the coordinator has yet to compute the new assignment (Assigning).
    std::optional<int32_t> groupEpoch = std::nullopt;
    std::optional<int32_t> assignmentEpoch = std::nullopt;
    // Streams groups: the topology epoch the members run.
    std::optional<int32_t> topologyEpoch = std::nullopt;
    SharedError error; // set when the broker could not describe this group
};

// A share group's start offset on one partition: the first record it has yet to deliver
// to a member (records below it were acknowledged or archived). Lag is log end - start.
struct ShareStartOffset {
    TopicPartition topicPartition;
    int64_t startOffset = -1; // -1: the group has not started on the partition
    int32_t leaderEpoch = -1;
    int64_t lag = -1; // as the broker reports it (Kafka 4.2+), -1 when it does not
    KafkaError error;
};

struct CommittedOffset {
    TopicPartition topicPartition;
    int64_t offset = -1;
    QString metadata;
    // Share groups: the offset is the start offset, and the lag is the broker's count of
    // records not yet acknowledged (not log end - start: records below the log end may
    // already be acknowledged). -1 when the broker does not report it.
    int64_t shareLag = -1;
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
