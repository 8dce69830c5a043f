#pragma once
// Value types of a group's rebalance history, as RebalanceTimeline builds them.

#include "kafka/GroupTypes.h"
#include "kafka/TopicPartition.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace groupscope::timeline {

struct GenerationMember {
    QString memberId;
    QString groupInstanceId;
    QString clientId;
    QString host;
    friend bool operator==(const GenerationMember&, const GenerationMember&) = default;
};

// A static member (group.instance.id) that came back under a new member id without
// leaving the group: the same consumer restarted within its session timeout.
struct MemberReplacement {
    QString groupInstanceId;
    QString oldMemberId;
    QString newMemberId;
    int64_t atMs = 0; // when the coordinator stored the new member id
    friend bool operator==(const MemberReplacement&, const MemberReplacement&) = default;
};

// One generation of a classic group, from the rebalance that formed it to the next one; or
// one group epoch of a consumer-protocol, share or streams group (protocolType "consumer",
// "share" or "streams" and GroupTimeline::protocol Consumer, Share or Streams; a share
// group's partition has every member it is shared by as its owner, their ids joined by
// ", "), from the change of membership or subscription that
// bumped it to the next: its members are those of that epoch, its owners the epoch's
// target assignment (where each partition is headed; GroupTimeline::ownership has who
// really owned it when).
struct Generation {
    // Kafka's generation id (the group epoch); -1 when inferred from polling.
    int32_t generationId = -1;
    // Inferred from polls: start and end are the polls that first saw the change, so they
    // may be late by up to one poll interval, and quick rebalances between polls are missed.
    bool approximate = false;
    int64_t startMs = 0;
    // Formed before the history window and seen only by a poll: startMs is the window's
    // start, the generation really began at or before it (its id and leader are unknown).
    bool startedBeforeWindow = false;
    std::optional<int64_t> endMs; // none while it is the current generation
    QString protocolType;
    QString protocol;                // the assignor, e.g. "range"; empty for an Empty group
    QString leader;                  // member id of the leader; unknown (empty) when polling
    QList<GenerationMember> members; // sorted by member id
    QStringList joinedMemberIds;     // members not in the previous generation
    QStringList leftMemberIds;       // previous generation's members not in this one
    // Static members that restarted under a new member id: neither joined nor left, and
    // their partitions did not change owner.
    QList<MemberReplacement> replacedMembers;
    QMap<kafka::TopicPartition, QString> ownerByPartition; // partition -> member id

    int64_t durationMs(int64_t nowMs) const { return endMs.value_or(nowMs) - startMs; }

    // The member's static identity (group.instance.id), or its member id when it has none:
    // what stays the same when a static member restarts.
    QString memberIdentity(const QString& memberId) const {
        for (const GenerationMember& member : members)
            if (member.memberId == memberId && !member.groupInstanceId.isEmpty())
                return member.groupInstanceId;
        return memberId;
    }
    QString ownerIdentity(const kafka::TopicPartition& partition) const {
        const QString owner = ownerByPartition.value(partition);
        return owner.isEmpty() ? owner : memberIdentity(owner);
    }
};

// Whether the partition's owner changed from `before` to `after`: a static member that
// restarted under a new member id still owns what it owned.
inline bool ownerChanged(const Generation& before, const Generation& after,
                         const kafka::TopicPartition& partition) {
    return before.ownerIdentity(partition) != after.ownerIdentity(partition);
}

// A stretch of time the group spent in one state.
struct StateSpan {
    kafka::GroupState state = kafka::GroupState::Unknown;
    int64_t startMs = 0;
    std::optional<int64_t> endMs;
    bool approximate = false; // seen by polling: the change happened since the previous poll

    int64_t durationMs(int64_t nowMs) const { return endMs.value_or(nowMs) - startMs; }
};

// Which rebalance protocol the group's timeline follows.
enum class GroupProtocol {
    Classic,  // generations: a group-wide stop (JoinGroup/SyncGroup) for every change
    Consumer, // KIP-848: group epochs, a target assignment, members reconciling one by one
    Share,    // KIP-932: as Consumer, but members share partitions and never revoke them
    Streams,  // KIP-1071: as Consumer, with active tasks (subtopology id, partition) for
              // partitions: TopicPartition::topic holds the subtopology id
};

// Share and streams groups follow the consumer protocol's model: group epochs, target
// assignments, each member's epoch and reconciliation, ownership spans.
inline bool followsGroupEpochs(GroupProtocol protocol) {
    return protocol != GroupProtocol::Classic;
}

// A consumer-protocol group's target assignment as of one assignment epoch.
struct TargetAssignment {
    int32_t assignmentEpoch = -1;
    int64_t atMs = 0;
    QMap<kafka::TopicPartition, QString> ownerByPartition; // partition -> member id
};

// One step of a member's reconciliation, as a CurrentMemberAssignment record stored it:
// where the member stood and how far it was from its target.
struct ReconciliationStep {
    QString memberId;
    int64_t atMs = 0;
    int32_t memberEpoch = -1;
    int32_t previousMemberEpoch = -1;
    QString memberState;                   // Kafka's MemberState: Stable, UnrevokedPartitions, ...
    QList<kafka::TopicPartition> assigned; // owned, and kept
    QList<kafka::TopicPartition> pendingRevocation; // owned, to be given up
    int32_t targetEpoch = -1;                       // the target assignment's epoch then
    QList<kafka::TopicPartition> target;            // the member's target then
    // Owns exactly its target at the target's epoch.
    bool reachedTarget() const {
        return memberEpoch == targetEpoch && pendingRevocation.isEmpty() && assigned == target;
    }
};

// A stretch of time one member owned a partition (consumer-protocol groups): ownership
// moves partition by partition, so each span starts and ends on its own.
struct OwnershipSpan {
    kafka::TopicPartition partition;
    QString ownerId;
    int64_t startMs = 0;
    std::optional<int64_t> endMs;             // none while it still owns it
    std::optional<int64_t> revocationStartMs; // from then on it was told to give it up
};

struct GroupTimeline {
    QString group;
    GroupProtocol protocol = GroupProtocol::Classic;
    QList<Generation> generations; // oldest first, at most the configured number
    QList<StateSpan> states;       // oldest first, at most the configured number
    int droppedGenerations = 0;    // older generations forgotten to bound memory
    int droppedStates = 0;
    bool deleted = false; // the group's metadata was removed (a tombstone was seen)

    // Consumer-protocol groups only; all oldest first and bounded like the generations.
    QList<TargetAssignment> targetAssignments;
    QList<ReconciliationStep> reconciliation;
    QList<OwnershipSpan> ownership; // sorted by partition, then start
    // Topic ids of the records that no topic name is known for yet: their partitions carry
    // the id in place of the name.
    QStringList unresolvedTopicIds;
};

} // namespace groupscope::timeline
