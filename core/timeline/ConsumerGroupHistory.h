#pragma once

#include "timeline/GroupTimeline.h"

#include <QHash>
#include <QMap>

#include <optional>

namespace groupscope::offsetstopic {
struct ConsumerGroupRecord;
} // namespace groupscope::offsetstopic

namespace groupscope::timeline {

// The history of one consumer-protocol (KIP-848) group, from its records in the offsets
// topic (key types 3-8), in the order the coordinator wrote them:
//
// - a member joins: its MemberMetadata, then the bumped group epoch; the target assignment
//   follows (TargetAssignmentMember per changed member, then TargetAssignmentMetadata with
//   the new assignment epoch);
// - each member then reconciles on its own heartbeats: CurrentMemberAssignment records
//   with partitions pending revocation, then without them, and the member epoch raised to
//   the target's once the partitions it waits for are released by their old owners;
// - a member leaves: tombstones of its current and target assignment and its metadata,
//   then the bumped group epoch; a group's deletion tombstones the group epoch.
//
// Partitions are named by topic id here (TopicPartition::topic holds the id): these records
// never name topics. RebalanceTimeline turns the ids into names when it hands out a timeline.
//
// Share and streams groups write the same sequence under their own record types, and are
// followed the same way: a share group's members share partitions (a partition may have
// several owners at once, and nothing is pending revocation); a streams group's active
// tasks take the place of partitions (TopicPartition{subtopology id, partition}), its
// standby and warm-up tasks are not ownership.
class ConsumerGroupHistory {
public:
    struct Options {
        int maxTargetAssignments = 100;
        int maxReconciliationSteps = 1000;
        int maxClosedOwnershipSpans = 5000;
    };

    // What one record changed, for RebalanceTimeline to put into the group's timeline.
    struct Changes {
        std::optional<Generation> newEpoch; // a group epoch began
        // A target assignment was stored for this epoch (its owners by partition).
        std::optional<TargetAssignment> targetAssignment;
        kafka::GroupState state = kafka::GroupState::Unknown; // the group's state after it
        bool deleted = false;                                 // the group was deleted
        QHash<QString, QString> topicNames;                   // topic id -> name learned
    };

    ConsumerGroupHistory() = default;
    explicit ConsumerGroupHistory(Options options)
        : m_options(options) {}

    Changes apply(const offsetstopic::ConsumerGroupRecord& record);

    int32_t groupEpoch() const { return m_groupEpoch; }
    const QList<TargetAssignment>& targetAssignments() const { return m_targets; }
    const QList<ReconciliationStep>& reconciliation() const { return m_steps; }
    // Every span, sorted by partition and start.
    QList<OwnershipSpan> ownership() const;
    // Members of the current epoch, sorted by member id.
    QList<GenerationMember> members() const;

private:
    struct Member {
        GenerationMember identity;
        QString serverAssignor;
        bool targetKnown = false;
        QList<kafka::TopicPartition> target;
        bool assignmentKnown = false;
        int32_t memberEpoch = -1;
        QList<kafka::TopicPartition> assigned;
        QList<kafka::TopicPartition> pendingRevocation;
    };

    Member& member(const QString& memberId);
    void applyGroupEpoch(const offsetstopic::ConsumerGroupRecord& record, Changes& changes);
    void applyTargetEpoch(const offsetstopic::ConsumerGroupRecord& record, Changes& changes);
    void applyCurrentAssignment(const offsetstopic::ConsumerGroupRecord& record);
    void applyTombstone(const offsetstopic::ConsumerGroupRecord& record, Changes& changes);
    // Opens and closes the member's spans so that it owns exactly `owned` from `atMs` on.
    void updateOwnership(const QString& memberId, const Member& member, int64_t atMs);
    void closeSpans(const QString& memberId, int64_t atMs);
    void closeSpan(const kafka::TopicPartition& partition, const QString& memberId, int64_t atMs);
    QMap<kafka::TopicPartition, QString> targetOwners() const;
    QString serverAssignor() const;
    kafka::GroupState state() const;

    Options m_options;
    kafka::GroupType m_groupType = kafka::GroupType::Consumer;
    QMap<QString, Member> m_members;
    int32_t m_groupEpoch = -1;
    int32_t m_targetEpoch = -1;
    QList<TargetAssignment> m_targets;
    QList<ReconciliationStep> m_steps;
    // Open spans by partition, then owner; closed ones in the order they closed.
    QHash<kafka::TopicPartition, QMap<QString, OwnershipSpan>> m_openSpans;
    QList<OwnershipSpan> m_closedSpans;
};

} // namespace groupscope::timeline
