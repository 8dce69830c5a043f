#include "offsets/GroupDeleter.h"

#include "offsets/JournaledWrite.h"

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

bool GroupDeleter::cannotRecreate(const JournalEntry& entry) {
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
    // Read just before the delete: "before" in the journal is what the group had when
    // it went, not what a dry run saw minutes earlier.
    auto previews = preview(groupIds);
    if (!previews)
        return previews.error();
    if (auto opened = m_journal.open(); !opened)
        return kafka::KafkaError::invalidArgument(opened.error().message +
                                                  QStringLiteral("; nothing was deleted"));
    QList<GroupApplyResult> results;
    QHash<QString, JournalEntry> intents;
    JournaledWrite write(m_admin, m_journal);
    for (const GroupDeletionPreview& preview : previews.value()) {
        GroupApplyResult result;
        result.groupId = preview.group.groupId;
        result.refusal = preview.refusal;
        if (result.refusal.isEmpty()) {
            // The journal is the only copy of a deleted group's offsets: it is written first.
            JournalEntry entry;
            entry.groupId = result.groupId;
            entry.description = auditDescription(preview.group.type);
            for (const kafka::CommittedOffset& commit : preview.commits) {
                JournalPartition partition;
                partition.topicPartition = commit.topicPartition;
                partition.before = commit.offset;
                partition.beforeMetadata = commit.metadata;
                entry.partitions.append(partition); // planned: none, the group goes
            }
            if (auto begun = write.begin(entry, tool); !begun) {
                result.refusalKind = RefusalKind::NotRecorded;
                result.refusal = begun.error().message + QStringLiteral("; it was not deleted");
            } else {
                result.journalId = entry.id;
                intents.insert(result.groupId, entry);
            }
        } else {
            result.refusalKind = RefusalKind::ActiveMembers;
        }
        results.append(result);
    }
    if (intents.isEmpty())
        return results;
    QHash<QString, kafka::KafkaError> outcomes;
    auto deleted = m_admin.deleteGroups(intents.keys());
    if (!deleted)
        for (const QString& groupId : intents.keys())
            outcomes.insert(groupId, deleted.error());
    else
        outcomes = deleted.value();
    for (GroupApplyResult& result : results) {
        if (!intents.contains(result.groupId))
            continue;
        JournalEntry& entry = intents[result.groupId];
        const kafka::KafkaError error = outcomes.value(result.groupId);
        QList<kafka::PartitionOutcome> answers;
        for (const JournalPartition& partition : entry.partitions)
            answers.append({partition.topicPartition, -1, error});
        if (auto finished = write.finish(entry, answers); !finished)
            result.journalError = finished.error().message;
        result.partitions = entry.partitions;
        if (error && entry.partitions.isEmpty())
            result.refusal = error.toString();
    }
    return results;
}

} // namespace groupscope::offsets
