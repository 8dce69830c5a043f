#include "offsets/GroupDeleter.h"

namespace groupscope::offsets {

using kafka::GroupState;

QString GroupDeleter::refusalFor(const kafka::GroupDescription& group, int commits) {
    if (!group.members.isEmpty())
        return QStringLiteral("group '%1' is %2 with %3 active member(s); Kafka deletes only a "
                              "group without members (NON_EMPTY_GROUP). Stop its consumers "
                              "first. Live members: %4")
            .arg(group.groupId, kafka::groupStateName(group.state))
            .arg(group.members.size())
            .arg(ResetApplier::liveMembersText(group));
    if (group.state == GroupState::Dead && commits == 0)
        return QStringLiteral("group '%1' does not exist: nothing to delete").arg(group.groupId);
    return {};
}

QString GroupDeleter::auditDescription(kafka::GroupType type) {
    switch (type) {
    case kafka::GroupType::Share:
        return QStringLiteral("delete share group");
    case kafka::GroupType::Streams:
        return QStringLiteral("delete streams group");
    case kafka::GroupType::Classic:
    case kafka::GroupType::Consumer:
    case kafka::GroupType::Unknown:
        break;
    }
    return QStringLiteral("delete group");
}

bool GroupDeleter::cannotRecreate(const AuditEntry& entry) {
    return entry.description == auditDescription(kafka::GroupType::Share) ||
           entry.description == auditDescription(kafka::GroupType::Streams);
}

kafka::Result<QList<GroupDeletionPreview>> GroupDeleter::preview(const QStringList& groupIds) {
    auto described = m_admin.describeGroups(groupIds);
    if (!described)
        return described.error();
    auto committed = m_admin.listCommittedOffsets(groupIds);
    if (!committed)
        return committed.error();
    QList<GroupDeletionPreview> previews;
    for (const QString& groupId : groupIds) {
        GroupDeletionPreview preview;
        preview.group.groupId = groupId;
        preview.group.state = GroupState::Dead;
        for (const kafka::GroupDescription& group : described.value())
            if (group.groupId == groupId)
                preview.group = group;
        preview.commits = committed.value().value(groupId);
        preview.refusal = refusalFor(preview.group, int(preview.commits.size()));
        previews.append(preview);
    }
    return previews;
}

kafka::Result<QList<GroupApplyResult>> GroupDeleter::deleteGroups(const QStringList& groupIds,
                                                                  const QString& tool) {
    // Read just before the delete: "before" in the audit log is what the group had when
    // it went, not what a dry run saw minutes earlier.
    auto previews = preview(groupIds);
    if (!previews)
        return previews.error();
    QStringList deletable;
    for (const GroupDeletionPreview& preview : previews.value())
        if (preview.refusal.isEmpty())
            deletable.append(preview.group.groupId);
    QHash<QString, kafka::KafkaError> outcomes;
    if (!deletable.isEmpty()) {
        auto deleted = m_admin.deleteGroups(deletable);
        if (!deleted)
            for (const QString& groupId : deletable)
                outcomes.insert(groupId, deleted.error());
        else
            outcomes = deleted.value();
    }
    QList<GroupApplyResult> results;
    for (const GroupDeletionPreview& preview : previews.value()) {
        GroupApplyResult result;
        result.groupId = preview.group.groupId;
        result.refusal = preview.refusal;
        if (!result.refusal.isEmpty()) {
            results.append(result);
            continue;
        }
        const kafka::KafkaError error = outcomes.value(result.groupId);
        if (error && preview.commits.isEmpty()) {
            result.refusal = error.toString();
            results.append(result);
            continue;
        }
        for (const kafka::CommittedOffset& commit : preview.commits) {
            AuditPartition partition;
            partition.topicPartition = commit.topicPartition;
            partition.before = commit.offset;
            if (error) {
                partition.error = error.toString();
                partition.after = partition.before; // the group is still there
            }
            result.partitions.append(partition);
        }
        ApplyOptions options;
        options.description = auditDescription(preview.group.type);
        options.tool = tool;
        ResetApplier::recordInAudit(m_audit, m_admin.profile().bootstrapServers, result, options);
        results.append(result);
    }
    return results;
}

} // namespace groupscope::offsets
