#include "timeline/ConsumerGroupHistory.h"

#include "offsetstopic/ConsumerGroupRecord.h"

#include <QSet>

#include <algorithm>

namespace groupscope::timeline {

namespace {

using offsetstopic::ConsumerGroupRecord;
using Type = offsetstopic::ConsumerGroupRecordType;

QList<kafka::TopicPartition> partitionsOf(const QList<offsetstopic::TopicIdPartitions>& topics) {
    QList<kafka::TopicPartition> partitions;
    for (const offsetstopic::TopicIdPartitions& topic : topics)
        for (int32_t partition : topic.partitions)
            partitions.append({topic.topicId, partition});
    std::sort(partitions.begin(), partitions.end());
    return partitions;
}

// A streams group's active tasks, as partitions of their subtopology.
QList<kafka::TopicPartition> activeTasksOf(const offsetstopic::StreamsTasks& tasks) {
    QList<kafka::TopicPartition> partitions;
    for (const offsetstopic::SubtopologyTasks& subtopology : tasks.active)
        for (int32_t partition : subtopology.partitions)
            partitions.append({subtopology.subtopologyId, partition});
    std::sort(partitions.begin(), partitions.end());
    return partitions;
}

QString protocolTypeOf(kafka::GroupType type) {
    switch (type) {
    case kafka::GroupType::Share:
        return QStringLiteral("share");
    case kafka::GroupType::Streams:
        return QStringLiteral("streams");
    default:
        return QStringLiteral("consumer");
    }
}

template <typename T> void keepNewest(QList<T>& list, int limit) {
    while (list.size() > std::max(1, limit))
        list.removeFirst();
}

} // namespace

ConsumerGroupHistory::Member& ConsumerGroupHistory::member(const QString& memberId) {
    auto it = m_members.find(memberId);
    if (it == m_members.end()) {
        // A member whose metadata was written before the history window: known by id only.
        it = m_members.insert(memberId, Member());
        it->identity.memberId = memberId;
    }
    return *it;
}

ConsumerGroupHistory::Changes ConsumerGroupHistory::apply(const ConsumerGroupRecord& record) {
    Changes changes;
    m_groupType = record.groupType;
    if (record.isTombstone()) {
        applyTombstone(record, changes);
    } else if (const auto* metadata =
                   std::get_if<offsetstopic::ConsumerGroupMemberMetadataValue>(&record.value)) {
        Member& known = member(record.memberId);
        known.identity = {record.memberId, metadata->instanceId, metadata->clientId,
                          metadata->clientHost};
        known.serverAssignor = metadata->serverAssignor;
    } else if (const auto* target =
                   std::get_if<offsetstopic::ConsumerGroupTargetAssignmentMemberValue>(
                       &record.value)) {
        Member& known = member(record.memberId);
        known.targetKnown = true;
        known.target = record.groupType == kafka::GroupType::Streams
                           ? activeTasksOf(target->tasks)
                           : partitionsOf(target->topicPartitions);
    } else if (const auto* topics =
                   std::get_if<offsetstopic::ConsumerGroupPartitionMetadataValue>(&record.value)) {
        for (const auto& topic : topics->topics)
            changes.topicNames.insert(topic.topicId, topic.topicName);
    } else if (record.type == Type::GroupEpoch) {
        applyGroupEpoch(record, changes);
    } else if (record.type == Type::TargetAssignmentEpoch) {
        applyTargetEpoch(record, changes);
    } else if (record.type == Type::CurrentMemberAssignment) {
        applyCurrentAssignment(record);
    }
    if (!changes.deleted)
        changes.state = state();
    return changes;
}

void ConsumerGroupHistory::applyGroupEpoch(const ConsumerGroupRecord& record, Changes& changes) {
    const int32_t epoch = std::get<offsetstopic::ConsumerGroupEpochValue>(record.value).epoch;
    if (epoch == m_groupEpoch)
        return; // stored again (e.g. a new metadata hash): not a new epoch
    m_groupEpoch = epoch;
    // A group created with nobody in it yet has an epoch but no history to show.
    if (m_members.isEmpty() && epoch == 0)
        return;
    Generation generation;
    generation.generationId = epoch;
    generation.startMs = record.recordTimestamp;
    generation.protocolType = protocolTypeOf(m_groupType);
    generation.protocol = serverAssignor();
    generation.members = members();
    // Until the epoch's target assignment is stored, the partitions are headed where the
    // previous target sent them.
    generation.ownerByPartition = targetOwners();
    changes.newEpoch = std::move(generation);
}

void ConsumerGroupHistory::applyTargetEpoch(const ConsumerGroupRecord& record, Changes& changes) {
    m_targetEpoch = std::get<offsetstopic::ConsumerGroupTargetAssignmentEpochValue>(record.value)
                        .assignmentEpoch;
    TargetAssignment target{m_targetEpoch, record.recordTimestamp, targetOwners()};
    if (!m_targets.isEmpty() && m_targets.last().assignmentEpoch == m_targetEpoch)
        m_targets.last() = target;
    else
        m_targets.append(target);
    keepNewest(m_targets, m_options.maxTargetAssignments);
    changes.targetAssignment = std::move(target);
}

void ConsumerGroupHistory::applyCurrentAssignment(const ConsumerGroupRecord& record) {
    const auto& value =
        std::get<offsetstopic::ConsumerGroupCurrentMemberAssignmentValue>(record.value);
    Member& known = member(record.memberId);
    known.assignmentKnown = true;
    known.memberEpoch = value.memberEpoch;
    if (record.groupType == kafka::GroupType::Streams) {
        known.assigned = activeTasksOf(value.tasks);
        known.pendingRevocation = activeTasksOf(value.tasksPendingRevocation);
    } else {
        known.assigned = partitionsOf(value.assignedPartitions);
        known.pendingRevocation = partitionsOf(value.partitionsPendingRevocation);
    }
    updateOwnership(record.memberId, known, record.recordTimestamp);

    ReconciliationStep step;
    step.memberId = record.memberId;
    step.atMs = record.recordTimestamp;
    step.memberEpoch = value.memberEpoch;
    step.previousMemberEpoch = value.previousMemberEpoch;
    step.memberState = offsetstopic::consumerMemberStateName(value.state);
    step.assigned = known.assigned;
    step.pendingRevocation = known.pendingRevocation;
    step.targetEpoch = m_targetEpoch;
    step.target = known.target;
    m_steps.append(std::move(step));
    keepNewest(m_steps, m_options.maxReconciliationSteps);
}

void ConsumerGroupHistory::applyTombstone(const ConsumerGroupRecord& record, Changes& changes) {
    switch (record.type) {
    case Type::CurrentMemberAssignment:
        // The member left: what it still owned is free from now on.
        closeSpans(record.memberId, record.recordTimestamp);
        if (auto it = m_members.find(record.memberId); it != m_members.end()) {
            it->assignmentKnown = false;
            it->assigned.clear();
            it->pendingRevocation.clear();
        }
        return;
    case Type::TargetAssignmentMember:
        if (auto it = m_members.find(record.memberId); it != m_members.end()) {
            it->targetKnown = false;
            it->target.clear();
        }
        return;
    case Type::MemberMetadata:
        closeSpans(record.memberId, record.recordTimestamp);
        m_members.remove(record.memberId);
        return;
    case Type::GroupEpoch:
        // The group is deleted (its other records are tombstoned just before).
        for (const QString& memberId : m_members.keys())
            closeSpans(memberId, record.recordTimestamp);
        m_members.clear();
        m_groupEpoch = -1;
        m_targetEpoch = -1;
        changes.deleted = true;
        changes.state = kafka::GroupState::Dead;
        return;
    case Type::PartitionMetadata:
    case Type::TargetAssignmentEpoch:
    case Type::StatePartitionMetadata:
    case Type::RegularExpression:
    case Type::Topology:
        return;
    }
}

void ConsumerGroupHistory::updateOwnership(const QString& memberId, const Member& member,
                                           int64_t atMs) {
    QSet<kafka::TopicPartition> owned(member.assigned.cbegin(), member.assigned.cend());
    for (const kafka::TopicPartition& partition : member.pendingRevocation)
        owned.insert(partition);
    // Released: the member acknowledged the revocation, or lost the partition.
    QList<kafka::TopicPartition> released;
    for (auto it = m_openSpans.cbegin(); it != m_openSpans.cend(); ++it)
        if (it->contains(memberId) && !owned.contains(it.key()))
            released.append(it.key());
    for (const kafka::TopicPartition& partition : released)
        closeSpan(partition, memberId, atMs);
    for (const kafka::TopicPartition& partition : owned) {
        QMap<QString, OwnershipSpan>& owners = m_openSpans[partition];
        auto span = owners.find(memberId);
        if (span == owners.end())
            span = owners.insert(memberId, {partition, memberId, atMs, std::nullopt, std::nullopt});
        if (member.pendingRevocation.contains(partition) && !span->revocationStartMs)
            span->revocationStartMs = atMs;
    }
}

void ConsumerGroupHistory::closeSpan(const kafka::TopicPartition& partition,
                                     const QString& memberId, int64_t atMs) {
    auto owners = m_openSpans.find(partition);
    if (owners == m_openSpans.end())
        return;
    auto span = owners->find(memberId);
    if (span == owners->end())
        return;
    OwnershipSpan closed = *span;
    closed.endMs = std::max(atMs, closed.startMs);
    owners->erase(span);
    if (owners->isEmpty())
        m_openSpans.erase(owners);
    m_closedSpans.append(std::move(closed));
    keepNewest(m_closedSpans, m_options.maxClosedOwnershipSpans);
}

void ConsumerGroupHistory::closeSpans(const QString& memberId, int64_t atMs) {
    QList<kafka::TopicPartition> partitions;
    for (auto it = m_openSpans.cbegin(); it != m_openSpans.cend(); ++it)
        if (it->contains(memberId))
            partitions.append(it.key());
    for (const kafka::TopicPartition& partition : partitions)
        closeSpan(partition, memberId, atMs);
}

QList<OwnershipSpan> ConsumerGroupHistory::ownership() const {
    QList<OwnershipSpan> spans = m_closedSpans;
    for (const QMap<QString, OwnershipSpan>& owners : m_openSpans)
        for (const OwnershipSpan& span : owners)
            spans.append(span);
    std::sort(spans.begin(), spans.end(), [](const OwnershipSpan& a, const OwnershipSpan& b) {
        if (a.partition != b.partition)
            return a.partition < b.partition;
        return a.startMs < b.startMs;
    });
    return spans;
}

QList<GenerationMember> ConsumerGroupHistory::members() const {
    QList<GenerationMember> members;
    for (const Member& member : m_members) // a QMap: sorted by member id
        members.append(member.identity);
    return members;
}

QMap<kafka::TopicPartition, QString> ConsumerGroupHistory::targetOwners() const {
    // A share group's partition is shared by every member assigned it: all of them are
    // its owner (members are in id order, so the joined ids are too).
    QMap<kafka::TopicPartition, QString> owners;
    for (auto it = m_members.cbegin(); it != m_members.cend(); ++it)
        for (const kafka::TopicPartition& partition : it->target) {
            QString& owner = owners[partition];
            owner = owner.isEmpty() ? it.key() : owner + QStringLiteral(", ") + it.key();
        }
    return owners;
}

QString ConsumerGroupHistory::serverAssignor() const {
    // Members may name one each; the group uses the most common (Kafka's tie-break aside).
    QHash<QString, int> votes;
    for (const Member& member : m_members)
        if (!member.serverAssignor.isEmpty())
            ++votes[member.serverAssignor];
    QString chosen;
    for (auto it = votes.cbegin(); it != votes.cend(); ++it)
        if (chosen.isEmpty() || it.value() > votes.value(chosen) ||
            (it.value() == votes.value(chosen) && it.key() < chosen))
            chosen = it.key();
    return chosen;
}

kafka::GroupState ConsumerGroupHistory::state() const {
    // As Kafka's coordinator derives it: no members, Empty; a target assignment behind the
    // group epoch, Assigning; a member not yet at its target, Reconciling; else Stable.
    if (m_members.isEmpty())
        return m_groupEpoch < 0 ? kafka::GroupState::Unknown : kafka::GroupState::Empty;
    // A share group is Stable as soon as it has members: shared partitions need no
    // hand-over, and Kafka's share groups have no Assigning or Reconciling state.
    if (m_groupType == kafka::GroupType::Share)
        return kafka::GroupState::Stable;
    if (m_targetEpoch >= 0 && m_targetEpoch < m_groupEpoch)
        return kafka::GroupState::Assigning;
    for (const Member& member : m_members) {
        // Joined, and not assigned anything yet.
        if (!member.assignmentKnown)
            return kafka::GroupState::Reconciling;
        if (!member.pendingRevocation.isEmpty())
            return kafka::GroupState::Reconciling;
        if (m_targetEpoch >= 0 && member.memberEpoch != m_targetEpoch)
            return kafka::GroupState::Reconciling;
        if (member.targetKnown && member.assigned != member.target)
            return kafka::GroupState::Reconciling;
    }
    return kafka::GroupState::Stable;
}

} // namespace groupscope::timeline
