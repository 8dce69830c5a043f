#include "monitor/SnapshotDiff.h"

#include <QMap>

namespace groupscope::monitor {

using kafka::TopicPartition;

namespace {

QString offsetText(const std::optional<int64_t>& offset) {
    return offset ? QString::number(*offset) : QStringLiteral("-");
}

} // namespace

QString ChangeEvent::describe() const {
    switch (kind) {
    case Kind::GroupAppeared:
        return QStringLiteral("group %1 appeared").arg(groupId);
    case Kind::GroupDisappeared:
        return QStringLiteral("group %1 disappeared").arg(groupId);
    case Kind::StateChanged:
        return QStringLiteral("group %1: %2 -> %3").arg(groupId, before, after);
    case Kind::MemberJoined:
        return QStringLiteral("group %1: member %2 joined (%3)").arg(groupId, member, after);
    case Kind::MemberLeft:
        return QStringLiteral("group %1: member %2 left (%3)").arg(groupId, member, before);
    case Kind::AssignmentChanged:
        return QStringLiteral("group %1: %2 moved from %3 to %4")
            .arg(groupId, topicPartition.toString(),
                 before.isEmpty() ? QStringLiteral("nobody") : before,
                 after.isEmpty() ? QStringLiteral("nobody") : after);
    case Kind::CommitMoved:
        return QStringLiteral("group %1: %2 committed %3 -> %4")
            .arg(groupId, topicPartition.toString(), before, after);
    case Kind::CommitAppeared:
        return QStringLiteral("group %1: %2 first commit at %3")
            .arg(groupId, topicPartition.toString(), after);
    case Kind::CommitDeleted:
        return QStringLiteral("group %1: %2 commit %3 deleted")
            .arg(groupId, topicPartition.toString(), before);
    }
    return {};
}

QList<ChangeEvent> diffGroups(const GroupSnapshot* previous, const GroupSnapshot* current) {
    using Kind = ChangeEvent::Kind;
    QList<ChangeEvent> events;
    if (!previous && !current)
        return events;
    const QString groupId = current ? current->groupId() : previous->groupId();
    if (!previous) {
        events.append({Kind::GroupAppeared, groupId, {}, {}, {}, {}});
    } else if (!current) {
        events.append({Kind::GroupDisappeared, groupId, {}, {}, {}, {}});
        return events;
    } else if (previous->description.state != current->description.state) {
        events.append({Kind::StateChanged,
                       groupId,
                       {},
                       {},
                       kafka::groupStateName(previous->description.state),
                       kafka::groupStateName(current->description.state)});
    }

    // Members, keyed by member id.
    QMap<QString, QString> before, after; // member id -> "client id on host"
    if (previous)
        for (const auto& member : previous->description.members)
            before.insert(member.memberId,
                          QStringLiteral("%1 on %2").arg(member.clientId, member.host));
    for (const auto& member : current->description.members)
        after.insert(member.memberId, QStringLiteral("%1 on %2").arg(member.clientId, member.host));
    for (auto it = after.cbegin(); it != after.cend(); ++it)
        if (!before.contains(it.key()))
            events.append({Kind::MemberJoined, groupId, it.key(), {}, {}, it.value()});
    for (auto it = before.cbegin(); it != before.cend(); ++it)
        if (!after.contains(it.key()))
            events.append({Kind::MemberLeft, groupId, it.key(), {}, it.value(), {}});

    // Partitions: owner and committed offset.
    QMap<TopicPartition, const PartitionSnapshot*> oldRows, newRows;
    if (previous)
        for (const auto& row : previous->partitions)
            oldRows.insert(row.topicPartition, &row);
    for (const auto& row : current->partitions)
        newRows.insert(row.topicPartition, &row);
    QList<TopicPartition> partitions = oldRows.keys() + newRows.keys();
    std::sort(partitions.begin(), partitions.end());
    partitions.erase(std::unique(partitions.begin(), partitions.end()), partitions.end());
    QList<ChangeEvent> commits;
    for (const TopicPartition& tp : partitions) {
        const PartitionSnapshot* oldRow = oldRows.value(tp);
        const PartitionSnapshot* newRow = newRows.value(tp);
        const QString oldOwner = oldRow ? oldRow->memberId : QString();
        const QString newOwner = newRow ? newRow->memberId : QString();
        if (previous && oldOwner != newOwner)
            events.append({Kind::AssignmentChanged, groupId, newOwner, tp, oldOwner, newOwner});
        const auto oldCommit = oldRow ? oldRow->committedOffset : std::nullopt;
        const auto newCommit = newRow ? newRow->committedOffset : std::nullopt;
        if (oldCommit == newCommit)
            continue;
        if (!oldCommit)
            commits.append({Kind::CommitAppeared, groupId, {}, tp, {}, offsetText(newCommit)});
        else if (!newCommit)
            commits.append({Kind::CommitDeleted, groupId, {}, tp, offsetText(oldCommit), {}});
        else
            commits.append(
                {Kind::CommitMoved, groupId, {}, tp, offsetText(oldCommit), offsetText(newCommit)});
    }
    return events + commits;
}

QList<ChangeEvent> diffSnapshots(const ClusterSnapshot& previous, const ClusterSnapshot& current) {
    QMap<QString, const GroupSnapshot*> before, after;
    for (const auto& group : previous.groups)
        before.insert(group.groupId(), &group);
    for (const auto& group : current.groups)
        after.insert(group.groupId(), &group);
    QStringList ids = before.keys() + after.keys();
    ids.sort();
    ids.removeDuplicates();
    QList<ChangeEvent> events;
    for (const QString& id : ids)
        events.append(diffGroups(before.value(id), after.value(id)));
    return events;
}

} // namespace groupscope::monitor
