#include "offsets/ResetApplier.h"

#include <QDeadlineTimer>
#include <QThread>

namespace groupscope::offsets {

using kafka::GroupState;
using kafka::KafkaError;
using kafka::TopicPartition;

namespace {
bool isInactive(GroupState state) {
    return state == GroupState::Empty || state == GroupState::Dead;
}
} // namespace

bool GroupApplyResult::fullySucceeded() const {
    return refusal.isEmpty() && failedPartitions() == 0;
}

int GroupApplyResult::failedPartitions() const {
    return int(std::count_if(partitions.cbegin(), partitions.cend(),
                             [](const AuditPartition& p) { return !p.error.isEmpty(); }));
}

QString ResetApplier::liveMembersText(const kafka::GroupDescription& group) {
    QStringList members;
    for (const auto& member : group.members)
        members.append(
            QStringLiteral("%1 on %2 (%3)").arg(member.clientId, member.host, member.memberId));
    return members.join(QStringLiteral("; "));
}

QString ResetApplier::activeGroupRefusal(const kafka::GroupDescription& group) {
    QString text =
        QStringLiteral(
            "group '%1' is %2 with %3 active member(s); Kafka only accepts offset changes "
            "for a group without members. Stop its consumers first, or wait until it is Empty.")
            .arg(group.groupId, kafka::groupStateName(group.state))
            .arg(group.members.size());
    if (!group.members.isEmpty())
        text += QStringLiteral(" Live members: ") + liveMembersText(group);
    return text;
}

QList<RowRequest> ResetApplier::undoRequests(const AuditEntry& entry,
                                             QList<TopicPartition>* deletions) {
    QList<RowRequest> requests;
    for (const AuditPartition& partition : entry.partitions) {
        if (!partition.error.isEmpty() || partition.before == partition.after)
            continue; // this partition did not change
        if (partition.before)
            requests.append(
                {entry.groupId, partition.topicPartition, ResetSpec::toOffset(*partition.before)});
        else if (deletions)
            deletions->append(partition.topicPartition);
    }
    return requests;
}

kafka::Result<kafka::GroupDescription>
ResetApplier::waitUntilInactive(const QString& groupId, const ApplyOptions& options) {
    QDeadlineTimer deadline(options.waitForEmpty);
    for (;;) {
        auto described = m_admin.describeGroups({groupId});
        if (!described)
            return described.error();
        if (described.value().isEmpty())
            return KafkaError::invalidArgument(
                QStringLiteral("group '%1' was not described").arg(groupId));
        const kafka::GroupDescription& group = described.value().first();
        if (isInactive(group.state) || deadline.hasExpired() ||
            (options.cancelled && options.cancelled->load()))
            return group;
        // Armed: poll the group's state about once a second until it empties or time is up.
        QThread::msleep(std::min<qint64>(1000, std::max<qint64>(1, deadline.remainingTime())));
    }
}

void ResetApplier::recordInAudit(AuditLog& audit, const QString& cluster, GroupApplyResult& result,
                                 const ApplyOptions& options) {
    AuditEntry entry;
    entry.id = AuditLog::newEntryId();
    entry.time = QDateTime::currentDateTimeUtc();
    entry.cluster = cluster;
    entry.groupId = result.groupId;
    entry.appliedBy = AuditLog::currentUser() + QStringLiteral(" via ") + options.tool;
    entry.description = options.description;
    entry.undoOf = options.undoOf;
    entry.partitions = result.partitions;
    if (auto appended = audit.append(entry); !appended)
        result.auditError = appended.error().message;
    else
        result.auditId = entry.id;
}

GroupApplyResult ResetApplier::applyToGroup(const QString& groupId, const QList<PlanRow>& rows,
                                            const ApplyOptions& options) {
    GroupApplyResult result;
    result.groupId = groupId;
    auto group = waitUntilInactive(groupId, options);
    if (!group) {
        result.refusal = group.error().message;
        return result;
    }
    // Deleting offsets alone is sent to an active group too, as Kafka's tool does: the
    // broker itself refuses the partitions of topics the group subscribes to
    // (GROUP_SUBSCRIBED_TO_TOPIC) and deletes the others, and each row reports its answer.
    const bool onlyDeletes = rows.isEmpty() && !options.deletions.value(groupId).isEmpty();
    if (!isInactive(group.value().state) && !onlyDeletes) {
        result.refusal = activeGroupRefusal(group.value());
        return result;
    }
    // "Before" is what the group has now, read just before writing, not what the plan saw.
    auto committed = m_admin.listCommittedOffsets({groupId});
    if (!committed) {
        result.refusal = committed.error().message;
        return result;
    }
    QHash<TopicPartition, int64_t> before;
    for (const auto& offset : committed.value().value(groupId))
        before.insert(offset.topicPartition, offset.offset);

    QList<QPair<TopicPartition, int64_t>> writes;
    for (const PlanRow& row : rows)
        if (row.newOffset)
            writes.append({row.topicPartition, *row.newOffset});
    const QList<TopicPartition> deletes = options.deletions.value(groupId);
    QHash<TopicPartition, int64_t> writtenOffsets;
    for (const auto& [tp, offset] : writes)
        writtenOffsets.insert(tp, offset);

    auto recordOutcomes = [&](const kafka::Result<QList<kafka::PartitionOutcome>>& outcomes,
                              const QList<TopicPartition>& requested, bool isDelete) {
        QHash<TopicPartition, KafkaError> errors;
        if (outcomes)
            for (const auto& outcome : outcomes.value())
                errors.insert(outcome.topicPartition, outcome.error);
        for (const TopicPartition& tp : requested) {
            AuditPartition partition;
            partition.topicPartition = tp;
            if (before.contains(tp))
                partition.before = before.value(tp);
            KafkaError error = outcomes ? errors.value(tp) : outcomes.error();
            if (outcomes && !errors.contains(tp))
                error =
                    KafkaError::invalidArgument(QStringLiteral("the broker reported no outcome"));
            if (error) {
                partition.error = error.toString();
                partition.after = partition.before; // unchanged, as far as we know
            } else if (!isDelete) {
                partition.after = writtenOffsets.value(tp);
            }
            result.partitions.append(partition);
        }
    };
    QList<TopicPartition> written;
    for (const auto& write : writes)
        written.append(write.first);
    if (!writes.isEmpty())
        recordOutcomes(m_admin.alterCommittedOffsets(groupId, writes), written, false);
    if (!deletes.isEmpty())
        recordOutcomes(m_admin.deleteCommittedOffsets(groupId, deletes), deletes, true);

    recordInAudit(m_audit, m_admin.profile().bootstrapServers, result, options);
    return result;
}

kafka::Result<QList<GroupApplyResult>> ResetApplier::apply(const ResetPlan& plan,
                                                           const ApplyOptions& options) {
    if (const int errors = plan.errorCount(); errors > 0)
        return KafkaError::invalidArgument(
            QStringLiteral("the plan has %1 row(s) with errors; nothing was applied").arg(errors));
    QStringList groups = plan.groups();
    for (auto it = options.deletions.cbegin(); it != options.deletions.cend(); ++it)
        if (!groups.contains(it.key()))
            groups.append(it.key());
    if (groups.isEmpty())
        return KafkaError::invalidArgument(
            QStringLiteral("the plan is empty; nothing was applied"));
    QList<GroupApplyResult> results;
    for (const QString& groupId : groups)
        results.append(applyToGroup(groupId, plan.rowsOf(groupId), options));
    return results;
}

} // namespace groupscope::offsets
