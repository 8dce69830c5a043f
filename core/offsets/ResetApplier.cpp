#include "offsets/ResetApplier.h"

#include "offsets/JournaledWrite.h"
#include "offsets/ResetPlanner.h"

#include <QDeadlineTimer>
#include <QThread>

namespace groupscope::offsets {

using kafka::GroupState;
using kafka::KafkaError;
using kafka::TopicPartition;

namespace {

// The broker refuses an offsets write without a member id to a group that has members:
// the group was empty when checked, and a consumer joined before the write arrived.
bool isRefusalOfAnActiveGroup(int code) {
    constexpr int illegalGeneration = 22, unknownMemberId = 25, rebalanceInProgress = 27,
                  fencedMemberEpoch = 110, staleMemberEpoch = 113;
    return code == illegalGeneration || code == unknownMemberId || code == rebalanceInProgress ||
           code == fencedMemberEpoch || code == staleMemberEpoch;
}

void explainRefusalsOfAnActiveGroup(QList<kafka::PartitionOutcome>& outcomes) {
    for (kafka::PartitionOutcome& outcome : outcomes)
        if (isRefusalOfAnActiveGroup(outcome.error.code))
            outcome.error.message =
                QStringLiteral("refused: the group has members again (a consumer joined after "
                               "the check), and Kafka changes the offsets of an empty group only");
}

// The broker refused every partition of the write for the group's members, and the read
// back found none of them changed: nothing was written.
bool wholeWriteRefusedForMembers(const JournaledWrite::Outcomes& outcomes,
                                 const GroupApplyResult& result) {
    return outcomes && !outcomes.value().isEmpty() &&
           std::all_of(outcomes.value().cbegin(), outcomes.value().cend(),
                       [](const kafka::PartitionOutcome& outcome) {
                           return isRefusalOfAnActiveGroup(outcome.error.code);
                       }) &&
           result.journalError.isEmpty() && result.failedPartitions() == result.partitions.size();
}

bool isCancelled(const ApplyOptions& options) {
    return options.cancelled && options.cancelled->load();
}

// Specs whose target does not depend on where the group stands or on the moment: they keep
// their target when the group moved on (only the drift itself is reported).
bool isAbsolute(const ResetSpec& spec) {
    return spec.mode == ResetMode::ToOffset || spec.mode == ResetMode::ToDatetime ||
           spec.mode == ResetMode::ToGroup;
}

std::optional<int64_t> committedAt(const QHash<TopicPartition, int64_t>& committed,
                                   const TopicPartition& tp) {
    const auto found = committed.constFind(tp);
    return found == committed.cend() ? std::nullopt : std::optional<int64_t>(*found);
}

// The partitions of the write, as the journal's intent records them.
QList<JournalPartition> intendedPartitions(const QList<PlanRow>& rows,
                                           const QList<TopicPartition>& deletions,
                                           const QList<kafka::CommittedOffset>& committed) {
    QHash<TopicPartition, const kafka::CommittedOffset*> now;
    for (const auto& offset : committed)
        now.insert(offset.topicPartition, &offset);
    auto partitionOf = [&](const TopicPartition& tp, std::optional<int64_t> planned) {
        JournalPartition partition;
        partition.topicPartition = tp;
        if (const auto* offset = now.value(tp)) {
            partition.before = offset->offset;
            partition.beforeMetadata = offset->metadata;
        }
        partition.planned = planned;
        return partition;
    };
    QList<JournalPartition> partitions;
    for (const PlanRow& row : rows)
        if (row.newOffset)
            partitions.append(partitionOf(row.topicPartition, row.newOffset));
    for (const TopicPartition& tp : deletions)
        partitions.append(partitionOf(tp, std::nullopt));
    return partitions;
}

} // namespace

bool GroupApplyResult::fullySucceeded() const {
    return refusal.isEmpty() && failedPartitions() == 0 && overwrittenPartitions().isEmpty();
}

int GroupApplyResult::failedPartitions() const {
    return int(std::count_if(partitions.cbegin(), partitions.cend(),
                             [](const JournalPartition& p) { return !p.error.isEmpty(); }));
}

QList<JournalPartition> GroupApplyResult::overwrittenPartitions() const {
    QList<JournalPartition> overwritten;
    for (const JournalPartition& partition : partitions)
        if (partition.overwritten())
            overwritten.append(partition);
    return overwritten;
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

kafka::Result<kafka::GroupDescription>
ResetApplier::waitUntilInactive(const QString& groupId, const ApplyOptions& options, bool* waited) {
    QDeadlineTimer deadline(options.waitForEmpty);
    *waited = false;
    for (;;) {
        auto described = m_admin.describeGroups({groupId});
        if (!described)
            return described.error();
        if (described.value().isEmpty())
            return KafkaError::invalidArgument(
                QStringLiteral("group '%1' was not described").arg(groupId));
        const kafka::GroupDescription& group = described.value().first();
        if (kafka::isInactive(group.state) || deadline.hasExpired() || isCancelled(options))
            return group;
        // Armed: poll the group's state about once a second until it empties or time is up.
        *waited = true;
        QThread::msleep(std::min<qint64>(1000, std::max<qint64>(1, deadline.remainingTime())));
    }
}

bool ResetApplier::checkDrift(QList<PlanRow>& rows, const QHash<TopicPartition, int64_t>& committed,
                              bool waited, const ApplyOptions& options, GroupApplyResult& result) {
    for (const PlanRow& row : rows)
        if (row.committedOffset != committedAt(committed, row.topicPartition))
            result.drift.append({row.topicPartition, row.committedOffset,
                                 committedAt(committed, row.topicPartition), row.newOffset,
                                 row.newOffset, row.spec.describe()});
    if (result.drift.isEmpty() && !waited)
        return true;
    // Resolved again as Kafka's tool would resolve the same specs if run now.
    QList<RowRequest> requests;
    for (const PlanRow& row : rows)
        if (!isAbsolute(row.spec))
            requests.append({row.groupId, row.topicPartition, row.spec, row.origin});
    QHash<TopicPartition, PlanRow> replanned;
    if (!requests.isEmpty()) {
        auto plan = ResetPlanner(m_admin).plan(requests);
        if (!plan) {
            result.refusalKind = RefusalKind::Failed;
            result.refusal = QStringLiteral("the plan could not be resolved again against the "
                                            "group's current offsets: ") +
                             plan.error().message;
            return false;
        }
        for (const PlanRow& row : plan.value().rows)
            replanned.insert(row.topicPartition, row);
    }
    for (PlanRow& row : rows) {
        const std::optional<int64_t> previewed = row.newOffset;
        if (replanned.contains(row.topicPartition))
            row = replanned.value(row.topicPartition);
        else
            row.committedOffset = committedAt(committed, row.topicPartition);
        auto drift = std::find_if(result.drift.begin(), result.drift.end(), [&](const RowDrift& d) {
            return d.topicPartition == row.topicPartition;
        });
        if (drift != result.drift.end())
            drift->newOffset = row.newOffset;
        else if (row.newOffset != previewed) // an armed wait: the log moved, not the group
            result.drift.append({row.topicPartition, row.committedOffset, row.committedOffset,
                                 previewed, row.newOffset, row.spec.describe()});
    }
    result.replannedRows = rows;
    const auto rowError = std::find_if(rows.cbegin(), rows.cend(),
                                       [](const PlanRow& row) { return !row.error.isEmpty(); });
    if (rowError != rows.cend()) {
        result.refusalKind = RefusalKind::Failed;
        result.refusal = QStringLiteral("resolved again against the group's current offsets, "
                                        "%1 has an error: %2")
                             .arg(rowError->topicPartition.toString(), rowError->error);
        return false;
    }
    if (options.onDrift == DriftPolicy::Stop && !waited &&
        std::any_of(result.drift.cbegin(), result.drift.cend(),
                    [](const RowDrift& d) { return d.plannedAgainst != d.committedNow; })) {
        result.refusalKind = RefusalKind::Drift;
        result.refusal = QStringLiteral("the committed offsets of group '%1' moved since the "
                                        "preview (%2 partition(s)); nothing was written. Review "
                                        "the plan resolved again and confirm it.")
                             .arg(result.groupId)
                             .arg(result.drift.size());
        return false;
    }
    return true;
}

GroupApplyResult ResetApplier::applyToGroup(const QString& groupId, const QList<PlanRow>& rows,
                                            const ApplyOptions& options) {
    const QDeadlineTimer armedUntil(options.waitForEmpty);
    ApplyOptions attemptOptions = options;
    QStringList refusedEntries;
    for (bool waitedBefore = false;; waitedBefore = true) {
        Attempt attempt = attemptWrite(groupId, rows, attemptOptions, waitedBefore);
        if (!attempt.waitAgain) {
            attempt.result.refusedForMembersEntries = refusedEntries;
            return attempt.result;
        }
        if (!attempt.result.journalId.isEmpty())
            refusedEntries.append(attempt.result.journalId);
        // Each try starts from the rows as planned: the next one resolves them again.
        attemptOptions.waitForEmpty = std::chrono::milliseconds(armedUntil.remainingTime());
    }
}

ResetApplier::Attempt ResetApplier::attemptWrite(const QString& groupId, QList<PlanRow> rows,
                                                 const ApplyOptions& options, bool waitedBefore) {
    Attempt attempt;
    GroupApplyResult& result = attempt.result;
    result.groupId = groupId;
    auto refuse = [&](RefusalKind kind, const QString& why) {
        result.refusalKind = kind;
        result.refusal = why;
        return attempt;
    };
    const QDeadlineTimer armedUntil(options.waitForEmpty);
    auto armedTimeLeft = [&] { return armedUntil.remainingTime() > 0 && !isCancelled(options); };
    bool waited = false;
    auto group = waitUntilInactive(groupId, options, &waited);
    waited = waited || waitedBefore;
    if (!group)
        return refuse(RefusalKind::Failed, group.error().message);
    const int64_t emptySinceMs = waited ? QDateTime::currentMSecsSinceEpoch() : -1;
    if (isCancelled(options))
        return refuse(RefusalKind::Failed, QStringLiteral("cancelled; nothing was written"));
    // Deleting offsets alone is sent to an active group too, as Kafka's tool does: the
    // broker itself refuses the partitions of topics the group subscribes to
    // (GROUP_SUBSCRIBED_TO_TOPIC) and deletes the others, and each row reports its answer.
    const QList<TopicPartition> deletes = options.deletions.value(groupId);
    const bool onlyDeletes = rows.isEmpty() && !deletes.isEmpty();
    const bool inactive = kafka::isInactive(group.value().state);
    if (!inactive && !onlyDeletes)
        return refuse(RefusalKind::ActiveMembers, activeGroupRefusal(group.value()));

    // A plan is a claim about the state it saw: read that state again just before writing.
    auto committed = m_admin.listCommittedOffsets({groupId});
    if (!committed)
        return refuse(RefusalKind::Failed, committed.error().message);
    QHash<TopicPartition, int64_t> committedNow;
    for (const auto& offset : committed.value().value(groupId))
        committedNow.insert(offset.topicPartition, offset.offset);
    if (!checkDrift(rows, committedNow, waited, options, result))
        return attempt;

    if (inactive && !options.ignoreRecentCommits) {
        RecentCommits::Options look = options.recentCommits;
        look.cancelled = options.cancelled;
        look.ignoreBeforeMs = std::max(look.ignoreBeforeMs, emptySinceMs);
        look.ownWrites = RecentCommits::ownWritesOf(m_journal, groupId, look.history);
        auto recent = RecentCommits::find(m_admin, groupId, look);
        if (!recent)
            return refuse(RefusalKind::Failed,
                          QStringLiteral("could not check for consumers that still commit: ") +
                              recent.error().message);
        result.recentCommits = recent.value();
        if (!recent.value().isEmpty())
            return refuse(RefusalKind::RecentCommits,
                          recent.value().refusalText(groupId, QDateTime::currentMSecsSinceEpoch()));
    }
    if (isCancelled(options))
        return refuse(RefusalKind::Failed, QStringLiteral("cancelled; nothing was written"));
    // An armed wait (whether or not it had to wait so far): a consumer restarting in a
    // loop may have rejoined while the commits were read (a second or more), and Kafka
    // would refuse the write for it. The wait the user asked for is not over then: wait
    // again, within what is left of it, rather than send a write bound to fail.
    if (inactive && armedTimeLeft()) {
        auto again = m_admin.describeGroups({groupId});
        if (again && !again.value().isEmpty() && !kafka::isInactive(again.value().first().state)) {
            attempt.waitAgain = true;
            return attempt;
        }
    }

    JournalEntry entry;
    entry.groupId = groupId;
    entry.description = options.description;
    entry.undoOf = options.undoOf;
    entry.partitions = intendedPartitions(rows, deletes, committed.value().value(groupId));
    JournaledWrite write(m_admin, m_journal);
    if (auto begun = write.begin(entry, options.tool); !begun)
        return refuse(RefusalKind::NotRecorded,
                      begun.error().message + QStringLiteral("; nothing was written"));
    result.journalId = entry.id;

    QList<QPair<TopicPartition, int64_t>> writes;
    for (const PlanRow& row : rows)
        if (row.newOffset)
            writes.append({row.topicPartition, *row.newOffset});
    JournaledWrite::Outcomes outcomes = QList<kafka::PartitionOutcome>{};
    if (!writes.isEmpty())
        outcomes = m_admin.alterCommittedOffsets(groupId, writes, options.metadata.value(groupId));
    if (outcomes)
        explainRefusalsOfAnActiveGroup(outcomes.value());
    if (outcomes && !deletes.isEmpty()) {
        auto deleted = m_admin.deleteCommittedOffsets(groupId, deletes);
        if (!deleted)
            outcomes = deleted.error();
        else
            outcomes.value().append(deleted.value());
    }
    if (auto finished = write.finish(entry, outcomes); !finished)
        result.journalError = finished.error().message;
    result.partitions = entry.partitions;
    // The consumer rejoined in the moment between the last look and the write (the
    // journal's record and one round trip): the broker refused it all, nothing changed,
    // and the armed wait is not over either.
    attempt.waitAgain =
        inactive && armedTimeLeft() && wholeWriteRefusedForMembers(outcomes, result);
    return attempt;
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
    if (auto opened = m_journal.open(); !opened)
        return KafkaError::invalidArgument(opened.error().message +
                                           QStringLiteral("; nothing was applied"));
    QList<GroupApplyResult> results;
    for (const QString& groupId : groups)
        results.append(applyToGroup(groupId, plan.rowsOf(groupId), options));
    return results;
}

void ResetApplier::verify(QList<GroupApplyResult>& results, std::chrono::milliseconds settle,
                          const std::atomic<bool>* cancelled) {
    QDeadlineTimer until(settle);
    while (!until.hasExpired() && !(cancelled && cancelled->load()))
        QThread::msleep(std::min<qint64>(50, std::max<qint64>(1, until.remainingTime())));
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (GroupApplyResult& result : results) {
        if (result.journalId.isEmpty())
            continue;
        auto committed = JournaledWrite::readCommitted(m_admin, result.groupId);
        auto entry = m_journal.find(result.journalId);
        if (!committed || !entry)
            continue; // the write and its outcome stand as recorded
        bool changed = false;
        for (JournalPartition& partition : entry.value().partitions) {
            if (!partition.error.isEmpty() || partition.overwritten())
                continue;
            const std::optional<int64_t> held =
                committedAt(committed.value(), partition.topicPartition);
            if (held == partition.after)
                continue;
            partition.overwrittenWith = held.value_or(-1);
            partition.overwrittenAt = now;
            changed = true;
        }
        if (!changed)
            continue;
        if (auto updated = m_journal.update(entry.value()); !updated)
            result.journalError = updated.error().message;
        result.partitions = entry.value().partitions;
    }
}

} // namespace groupscope::offsets
