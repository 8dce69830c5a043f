#include "offsets/ResetRowResolution.h"

#include <QSet>

#include <algorithm>

namespace groupscope::offsets {

namespace {

// Kafka's checkOffsetsRange: below the log start -> log start, above the log end -> log
// end, each with a warning.
int64_t clampToLog(PlanRow& row, int64_t requested) {
    if (requested > row.logEndOffset) {
        row.warnings.append(QStringLiteral("offset %1 is after the log end; clamped to %2")
                                .arg(requested)
                                .arg(row.logEndOffset));
        return row.logEndOffset;
    }
    if (requested < row.logStartOffset) {
        row.warnings.append(QStringLiteral("offset %1 is before the log start; clamped to %2")
                                .arg(requested)
                                .arg(row.logStartOffset));
        return row.logStartOffset;
    }
    return requested;
}

// Why the row's partition cannot be planned (empty when it can); fills its log range.
QString checkPartition(PlanRow& row, const PlanFacts& facts) {
    const kafka::TopicPartition& tp = row.topicPartition;
    if (const auto error = facts.topicErrors.constFind(tp.topic); error != facts.topicErrors.cend())
        return *error;
    const auto leaders = facts.leadersByTopic.constFind(tp.topic);
    const qsizetype partitionCount = leaders == facts.leadersByTopic.cend() ? 0 : leaders->size();
    if (partitionCount == 0 || !leaders->contains(tp.partition))
        return QStringLiteral("partition %1 does not exist (topic '%2' has %3 partitions)")
            .arg(tp.partition)
            .arg(tp.topic)
            .arg(partitionCount);
    if (leaders->value(tp.partition) < 0)
        return QStringLiteral("partition %1 has no leader").arg(tp.toString());
    const auto log = facts.logs.constFind(tp);
    if (log == facts.logs.cend())
        return QStringLiteral("no log offsets for %1").arg(tp.toString());
    if (log->error)
        return log->error.message;
    row.setLogRange(*log);
    return {};
}

void resolveShift(PlanRow& row) {
    int64_t shifted = 0;
    if (!row.committedOffset)
        row.error = QStringLiteral("cannot shift %1: the group has no committed offset there")
                        .arg(row.topicPartition.toString());
    else if (__builtin_add_overflow(*row.committedOffset, row.spec.offset, &shifted))
        row.error = QStringLiteral("shift by %1 overflows the offset range").arg(row.spec.offset);
    else
        row.newOffset = clampToLog(row, shifted);
}

void resolveTime(PlanRow& row, const PlanFacts& facts) {
    const int64_t timestamp = row.spec.lookupTimestampMs(facts.plannedAtMs);
    const int64_t offset = facts.offsetsForTimes.value({timestamp, row.topicPartition}, -1);
    if (offset >= 0) {
        row.newOffset = offset;
        return;
    }
    row.newOffset = row.logEndOffset;
    row.warnings.append(QStringLiteral("no record at or after %1; falls back to the log end %2")
                            .arg(formatResetDateTime(timestamp))
                            .arg(row.logEndOffset));
}

void resolveToCurrent(PlanRow& row) {
    if (row.committedOffset) {
        row.newOffset = *row.committedOffset;
        return;
    }
    row.newOffset = row.logEndOffset;
    row.warnings.append(QStringLiteral("no committed offset; to-current takes the log end %1")
                            .arg(row.logEndOffset));
}

// Where the source group stands; a partition it has no commit for stays where it is, and
// the row says so.
void resolveToGroup(PlanRow& row, const PlanFacts& facts) {
    const auto source = facts.committed.constFind({row.spec.sourceGroup, row.topicPartition});
    if (source != facts.committed.cend()) {
        row.newOffset = clampToLog(row, *source);
        return;
    }
    row.newOffset = row.committedOffset;
    row.warnings.append(QStringLiteral("group '%1' has no commit on %2; left unchanged")
                            .arg(row.spec.sourceGroup, row.topicPartition.toString()));
}

} // namespace

PlanRow resolveResetRow(const RowRequest& request, const PlanFacts& facts) {
    PlanRow row;
    row.groupId = request.groupId;
    row.topicPartition = request.topicPartition;
    row.spec = request.spec;
    row.origin = request.origin;
    if (const auto found = facts.committed.constFind({request.groupId, request.topicPartition});
        found != facts.committed.cend())
        row.committedOffset = *found;
    row.error = checkPartition(row, facts);
    if (!row.error.isEmpty())
        return row;

    switch (row.spec.mode) {
    case ResetMode::ToOffset:
        row.newOffset = clampToLog(row, row.spec.offset);
        break;
    case ResetMode::ShiftBy:
        resolveShift(row);
        break;
    case ResetMode::ToDatetime:
    case ResetMode::ByDuration:
        resolveTime(row, facts);
        break;
    case ResetMode::ToEarliest:
        row.newOffset = row.logStartOffset;
        break;
    case ResetMode::ToLatest:
        row.newOffset = row.logEndOffset;
        break;
    case ResetMode::ToCurrent:
        resolveToCurrent(row);
        break;
    case ResetMode::ToGroup:
        resolveToGroup(row, facts);
        break;
    }
    return row;
}

ResetPlan resolveResetPlan(const QList<RowRequest>& requests, const PlanFacts& facts) {
    ResetPlan plan;
    plan.plannedAtMs = facts.plannedAtMs;
    plan.rows.reserve(requests.size());
    // Through a hash: plans of thousands of partitions must not cost rows x rows.
    QSet<QPair<QString, kafka::TopicPartition>> seen;
    for (const RowRequest& request : requests) {
        if (seen.contains({request.groupId, request.topicPartition})) {
            PlanRow row;
            row.groupId = request.groupId;
            row.topicPartition = request.topicPartition;
            row.spec = request.spec;
            row.origin = request.origin;
            row.error = QStringLiteral("partition %1 appears twice for group '%2'")
                            .arg(request.topicPartition.toString(), request.groupId);
            plan.rows.append(row);
            continue;
        }
        seen.insert({request.groupId, request.topicPartition});
        plan.rows.append(resolveResetRow(request, facts));
    }
    for (PlanRow& row : plan.rows)
        if (!row.error.isEmpty() && !row.origin.isEmpty())
            row.error = row.origin + QStringLiteral(": ") + row.error;
    std::stable_sort(plan.rows.begin(), plan.rows.end(), [](const PlanRow& a, const PlanRow& b) {
        if (a.groupId != b.groupId)
            return a.groupId < b.groupId;
        return a.topicPartition < b.topicPartition;
    });
    return plan;
}

} // namespace groupscope::offsets
