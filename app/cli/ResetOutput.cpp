#include "cli/ResetOutput.h"

#include "cli/TextTable.h"
#include "offsets/OffsetsCsv.h"

#include <QJsonObject>

namespace groupscope::cli {

using namespace groupscope::offsets;

namespace {

QString signedText(const std::optional<int64_t>& value) {
    if (!value)
        return QStringLiteral("-");
    return (*value > 0 ? QStringLiteral("+") : QString()) + QString::number(*value);
}

} // namespace

QString offsetText(const std::optional<int64_t>& offset) {
    return offset ? QString::number(*offset) : QStringLiteral("-");
}

void printPlan(const CommandContext& context, const ResetPlan& plan, const Previews& previews) {
    QStringList header{QStringLiteral("GROUP"),
                       QStringLiteral("TOPIC"),
                       QStringLiteral("PARTITION"),
                       QStringLiteral("CURRENT-OFFSET"),
                       QStringLiteral("NEW-OFFSET"),
                       QStringLiteral("DELTA"),
                       QStringLiteral("LOG-START-OFFSET"),
                       QStringLiteral("LOG-END-OFFSET")};
    if (!previews.isEmpty())
        header.append(QStringLiteral("NEXT-RECORD"));
    header.append(QStringLiteral("NOTE"));
    TextTable table(header);
    for (const PlanRow& row : plan.rows) {
        QStringList cells{
            row.groupId,
            row.topicPartition.topic,
            QString::number(row.topicPartition.partition),
            offsetText(row.committedOffset),
            offsetText(row.newOffset),
            signedText(row.delta()),
            row.logStartOffset >= 0 ? QString::number(row.logStartOffset) : QStringLiteral("-"),
            row.logEndOffset >= 0 ? QString::number(row.logEndOffset) : QStringLiteral("-")};
        if (!previews.isEmpty())
            cells.append(row.newOffset
                             ? previews.value({row.topicPartition, *row.newOffset}).describe()
                             : QStringLiteral("-"));
        cells.append(row.error.isEmpty() ? row.warnings.join(QStringLiteral("; "))
                                         : QStringLiteral("ERROR: ") + row.error);
        table.addRow(cells);
    }
    table.print(context.out);
}

QJsonArray planToJson(const ResetPlan& plan, const Previews& previews) {
    QJsonArray rows;
    auto optional = [](const std::optional<int64_t>& v) {
        return v ? QJsonValue(qint64(*v)) : QJsonValue();
    };
    for (const PlanRow& row : plan.rows) {
        QJsonObject object{{QStringLiteral("group"), row.groupId},
                           {QStringLiteral("topic"), row.topicPartition.topic},
                           {QStringLiteral("partition"), row.topicPartition.partition},
                           {QStringLiteral("mode"), resetModeName(row.spec.mode)},
                           {QStringLiteral("currentOffset"), optional(row.committedOffset)},
                           {QStringLiteral("newOffset"), optional(row.newOffset)},
                           {QStringLiteral("delta"), optional(row.delta())},
                           {QStringLiteral("logStartOffset"), qint64(row.logStartOffset)},
                           {QStringLiteral("logEndOffset"), qint64(row.logEndOffset)},
                           {QStringLiteral("warnings"), QJsonArray::fromStringList(row.warnings)}};
        if (!row.error.isEmpty())
            object.insert(QStringLiteral("error"), row.error);
        if (row.newOffset && previews.contains({row.topicPartition, *row.newOffset})) {
            const RecordPreview& preview = previews.value({row.topicPartition, *row.newOffset});
            QJsonObject next{{QStringLiteral("atLogEnd"), preview.atLogEnd}};
            if (!preview.atLogEnd && preview.error.isEmpty()) {
                next.insert(QStringLiteral("offset"), qint64(preview.offset));
                next.insert(QStringLiteral("timestamp"), qint64(preview.timestampMs));
                next.insert(QStringLiteral("keyHead"), QString::fromUtf8(preview.keyHead));
                next.insert(QStringLiteral("valueHead"), QString::fromUtf8(preview.valueHead));
                next.insert(QStringLiteral("valueSize"), qint64(preview.valueSize));
            }
            if (!preview.error.isEmpty())
                next.insert(QStringLiteral("error"), preview.error);
            object.insert(QStringLiteral("nextRecord"), next);
        }
        rows.append(object);
    }
    return rows;
}

void printPlanSummary(const CommandContext& context, const ResetPlan& plan) {
    context.err << QStringLiteral(
                       "Plan: %1 partition(s) in %2 group(s); replays %3 message(s), skips %4")
                       .arg(plan.rows.size())
                       .arg(plan.groups().size())
                       .arg(plan.messagesReplayed())
                       .arg(plan.messagesSkipped());
    if (const int errors = plan.errorCount())
        context.err << QStringLiteral("; %1 row(s) with errors").arg(errors);
    context.err << ".\n";
}

namespace {

// "orders:0 moved since the plan (40 -> 410): shift by -5 now writes 405 (the preview said 35)"
void reportDrift(const CommandContext& context, const GroupApplyResult& result) {
    for (const RowDrift& drift : result.drift) {
        context.err << QStringLiteral("Note: group '%1' %2 ")
                           .arg(result.groupId, drift.topicPartition.toString());
        if (drift.plannedAgainst != drift.committedNow)
            context.err << QStringLiteral("moved since the plan (committed %1 then, %2 now)")
                               .arg(offsetText(drift.plannedAgainst),
                                    offsetText(drift.committedNow));
        else
            context.err << QStringLiteral("was resolved again when the group became empty");
        if (drift.targetMoved())
            context.err << QStringLiteral(": %1 now gives %2, the preview said %3")
                               .arg(drift.spec, offsetText(drift.newOffset),
                                    offsetText(drift.plannedOffset));
        else
            context.err << QStringLiteral(": %1 keeps its target %2")
                               .arg(drift.spec, offsetText(drift.newOffset));
        context.err << u'\n';
    }
}

QString statusText(const JournalPartition& partition) {
    if (!partition.error.isEmpty())
        return QStringLiteral("FAILED: ") + partition.error;
    if (partition.overwritten())
        return QStringLiteral("OVERWRITTEN: now %1 (at %2)")
            .arg(partition.overwrittenWith == -1 ? QStringLiteral("no commit")
                                                 : QString::number(*partition.overwrittenWith),
                 partition.overwrittenAt.toString(Qt::ISODateWithMs));
    return QStringLiteral("ok");
}

} // namespace

int reportApply(const CommandContext& context, const QList<GroupApplyResult>& results) {
    int exitCode = ExitSuccess;
    for (const GroupApplyResult& result : results) {
        for (const QString& entry : result.refusedForMembersEntries)
            context.err << QStringLiteral("Note: the write of journal entry %1 was refused: a "
                                          "consumer of group '%2' rejoined just before it "
                                          "arrived, so nothing changed; waited for the group to "
                                          "empty again.\n")
                               .arg(entry, result.groupId);
        reportDrift(context, result);
        if (!result.refusal.isEmpty()) {
            context.err << "Error: nothing changed for group '" << result.groupId
                        << "': " << result.refusal << u'\n';
            if (result.refusalKind == RefusalKind::RecentCommits)
                context.err << "(add --force to write anyway; the write is then checked for "
                               "being overwritten)\n";
            exitCode = ExitFailure;
            continue;
        }
        if (!result.recentCommits.limitation.isEmpty())
            context.err << "Note: " << result.recentCommits.limitation << u'\n';
        TextTable table({QStringLiteral("GROUP"), QStringLiteral("TOPIC"),
                         QStringLiteral("PARTITION"), QStringLiteral("BEFORE"),
                         QStringLiteral("AFTER"), QStringLiteral("STATUS")});
        for (const JournalPartition& partition : result.partitions)
            table.addRow({result.groupId, partition.topicPartition.topic,
                          QString::number(partition.topicPartition.partition),
                          offsetText(partition.before), offsetText(partition.after),
                          statusText(partition)});
        table.print(context.out);
        const int failed = result.failedPartitions();
        const qsizetype overwritten = result.overwrittenPartitions().size();
        context.err << QStringLiteral("Group '%1': %2 of %3 partition(s) applied")
                           .arg(result.groupId)
                           .arg(result.partitions.size() - failed)
                           .arg(result.partitions.size());
        if (!result.journalId.isEmpty())
            context.err << QStringLiteral(
                               "; journal entry %1 (undo: groupscope-cli undo --entry %1)")
                               .arg(result.journalId);
        context.err << ".\n";
        if (overwritten > 0)
            context.err << QStringLiteral("Warning: %1 partition(s) of group '%2' were overwritten "
                                          "after the write: a consumer still commits to it.\n")
                               .arg(overwritten)
                               .arg(result.groupId);
        if (!result.journalError.isEmpty())
            context.err << "Warning: the outcome is not recorded yet: " << result.journalError
                        << u'\n';
        if (failed > 0 || overwritten > 0)
            exitCode = ExitFailure;
    }
    return exitCode;
}

void printPlanCsv(const CommandContext& context, const ResetPlan& plan, bool withGroup) {
    QList<OffsetsCsvRow> rows;
    for (const PlanRow& row : plan.rows)
        if (row.newOffset)
            rows.append({row.groupId, row.topicPartition, *row.newOffset, 0});
        else // not in the CSV, so said here rather than dropped without a word
            context.err << QStringLiteral("Error: %1 %2: %3\n")
                               .arg(row.groupId, row.topicPartition.toString(), row.error);
    // Byte for byte Kafka's --export, which prints an empty line after the rows.
    context.out << QString::fromUtf8(OffsetsCsv::write(rows, withGroup)) << u'\n';
}

} // namespace groupscope::cli
