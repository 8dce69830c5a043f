#include "cli/ResetCommands.h"

#include "cli/TextTable.h"
#include "kafka/AdminClient.h"
#include "offsets/AuditLog.h"
#include "offsets/KafkaCommandLine.h"
#include "offsets/OffsetsCsv.h"
#include "offsets/RecordPreviewer.h"
#include "offsets/ResetApplier.h"
#include "offsets/ResetPlanner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace groupscope::cli {

using namespace groupscope::offsets;
using kafka::AdminClient;
using kafka::KafkaError;

namespace {

int fail(const CommandContext& context, const QString& message, int code = ExitFailure) {
    context.err << "Error: " << message << u'\n';
    return code;
}

int rejectLeftovers(const CommandContext& context, const ArgumentList& arguments) {
    if (!arguments.error().isEmpty())
        return fail(context, arguments.error(), ExitUsage);
    if (!arguments.remaining().isEmpty())
        return fail(context,
                    QStringLiteral("unexpected argument \"%1\" (see groupscope-cli --help)")
                        .arg(arguments.remaining().first()),
                    ExitUsage);
    return ExitSuccess;
}

QString offsetText(const std::optional<int64_t>& offset) {
    return offset ? QString::number(*offset) : QStringLiteral("-");
}

QString signedText(const std::optional<int64_t>& value) {
    if (!value)
        return QStringLiteral("-");
    return (*value > 0 ? QStringLiteral("+") : QString()) + QString::number(*value);
}

using Previews = QHash<RecordPreviewer::Key, RecordPreview>;

void printPlan(const CommandContext& context, const ResetPlan& plan,
               const Previews& previews = {}) {
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

QJsonArray planToJson(const ResetPlan& plan, const Previews& previews = {}) {
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

void printSummary(const CommandContext& context, const ResetPlan& plan) {
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

// Prints each group's outcome; returns the exit code.
int reportApply(const CommandContext& context, const QList<GroupApplyResult>& results) {
    int exitCode = ExitSuccess;
    for (const GroupApplyResult& result : results) {
        if (!result.refusal.isEmpty()) {
            context.err << "Error: nothing changed for group '" << result.groupId
                        << "': " << result.refusal << u'\n';
            exitCode = ExitFailure;
            continue;
        }
        TextTable table({QStringLiteral("GROUP"), QStringLiteral("TOPIC"),
                         QStringLiteral("PARTITION"), QStringLiteral("BEFORE"),
                         QStringLiteral("AFTER"), QStringLiteral("STATUS")});
        for (const AuditPartition& partition : result.partitions)
            table.addRow({result.groupId, partition.topicPartition.topic,
                          QString::number(partition.topicPartition.partition),
                          offsetText(partition.before), offsetText(partition.after),
                          partition.error.isEmpty()
                              ? QStringLiteral("ok")
                              : QStringLiteral("FAILED: ") + partition.error});
        table.print(context.out);
        const int failed = result.failedPartitions();
        context.err << QStringLiteral("Group '%1': %2 of %3 partition(s) applied")
                           .arg(result.groupId)
                           .arg(result.partitions.size() - failed)
                           .arg(result.partitions.size());
        if (!result.auditId.isEmpty())
            context.err << QStringLiteral("; audit entry %1 (undo: groupscope-cli undo --entry %1)")
                               .arg(result.auditId);
        context.err << ".\n";
        if (!result.auditError.isEmpty())
            context.err << "Warning: the change was applied but not recorded: " << result.auditError
                        << u'\n';
        if (failed > 0)
            exitCode = ExitFailure;
    }
    return exitCode;
}

// A dry run of a group with members says now that --execute would be refused, and who the
// members are, rather than letting the user find out on the real run.
void warnAboutActiveGroups(const CommandContext& context, AdminClient& admin,
                           const QStringList& groups) {
    if (groups.isEmpty())
        return;
    auto described = admin.describeGroups(groups);
    if (!described) {
        context.err << "Warning: could not check whether the groups are active: "
                    << described.error().message << u'\n';
        return;
    }
    for (const kafka::GroupDescription& group : described.value())
        if (group.state != kafka::GroupState::Empty && group.state != kafka::GroupState::Dead &&
            !group.members.isEmpty())
            context.err << "Warning: applying will be refused: "
                        << ResetApplier::activeGroupRefusal(group) << u'\n';
}

struct ModeOption {
    const char* flag;
    ResetMode mode;
    bool takesValue;
};
constexpr ModeOption modeOptions[] = {
    {"--to-offset", ResetMode::ToOffset, true},      {"--to-datetime", ResetMode::ToDatetime, true},
    {"--by-duration", ResetMode::ByDuration, true},  {"--shift-by", ResetMode::ShiftBy, true},
    {"--to-earliest", ResetMode::ToEarliest, false}, {"--to-latest", ResetMode::ToLatest, false},
    {"--to-current", ResetMode::ToCurrent, false},
};

} // namespace

int runResetCommand(const CommandContext& context, ArgumentList& arguments) {
    arguments.takeFlag(QStringLiteral("--reset-offsets")); // Kafka's spelling of the command
    QStringList groups = arguments.takeValues(QStringLiteral("--group"));
    // Kafka's tool writes three export columns only for exactly one --group value.
    const bool exportWithGroup = groups.size() != 1;
    const bool allGroups = arguments.takeFlag(QStringLiteral("--all-groups"));
    ResetScope scope;
    scope.allTopics = arguments.takeFlag(QStringLiteral("--all-topics"));
    scope.topics = arguments.takeValues(QStringLiteral("--topic"));
    const auto fromFile = arguments.takeValue(QStringLiteral("--from-file"));
    const bool execute = arguments.takeFlag(QStringLiteral("--execute"));
    const bool dryRun = arguments.takeFlag(QStringLiteral("--dry-run"));
    const bool exportCsv = arguments.takeFlag(QStringLiteral("--export"));
    const bool asJson = arguments.takeFlag(QStringLiteral("--json"));
    const bool asKafkaCommand = arguments.takeFlag(QStringLiteral("--as-kafka-command"));
    const auto waitText = arguments.takeValue(QStringLiteral("--wait-until-empty"));
    const bool withPreview = arguments.takeFlag(QStringLiteral("--preview"));
    std::optional<ResetSpec> spec;
    QStringList modesGiven;
    for (const ModeOption& option : modeOptions) {
        const QString flag = QString::fromLatin1(option.flag);
        std::optional<QString> value;
        if (option.takesValue)
            value = arguments.takeValue(flag);
        else if (arguments.takeFlag(flag))
            value = QString();
        if (!value)
            continue;
        modesGiven.append(flag);
        auto parsed = ResetSpec::parse(option.mode, *value);
        if (!parsed)
            return fail(context, QStringLiteral("%1: %2").arg(flag, parsed.error().message));
        spec = parsed.value();
    }
    if (const int usage = rejectLeftovers(context, arguments))
        return usage;
    if (execute && dryRun)
        return fail(context, QStringLiteral("choose --dry-run or --execute, not both"), ExitUsage);
    if (allGroups == !groups.isEmpty())
        return fail(context,
                    QStringLiteral("reset needs either --group G (repeatable) or --all-groups"),
                    ExitUsage);
    if (fromFile && (!modesGiven.isEmpty() || scope.allTopics || !scope.topics.isEmpty()))
        return fail(
            context,
            QStringLiteral("--from-file brings its own partitions and offsets: give no --topic, "
                           "--all-topics or --to-* option with it"),
            ExitUsage);
    if (!fromFile && modesGiven.size() != 1)
        return fail(
            context,
            modesGiven.isEmpty()
                ? QStringLiteral(
                      "choose how to reset: --to-offset, --to-datetime, --by-duration, --shift-by, "
                      "--to-earliest, --to-latest, --to-current or --from-file")
                : QStringLiteral("choose one way to reset, got %1")
                      .arg(modesGiven.join(QStringLiteral(", "))),
            ExitUsage);
    if (!fromFile && scope.allTopics == !scope.topics.isEmpty())
        return fail(
            context,
            QStringLiteral("choose the partitions: --all-topics or --topic T[:P,...] (repeatable)"),
            ExitUsage);
    std::chrono::milliseconds waitForEmpty{0};
    if (waitText) {
        bool ok = false;
        const int seconds = waitText->toInt(&ok);
        if (!ok || seconds < 0 || seconds > 86400)
            return fail(context, QStringLiteral("--wait-until-empty takes seconds from 0 to 86400"),
                        ExitUsage);
        waitForEmpty = std::chrono::seconds(seconds);
    }

    auto admin = AdminClient::create(context.profile, context.timeout);
    if (!admin)
        return fail(context, admin.error().message);
    if (allGroups) {
        auto listings = admin.value()->listGroups();
        if (!listings)
            return fail(context, listings.error().message);
        for (const auto& listing : listings.value())
            groups.append(listing.groupId);
        if (groups.isEmpty())
            return fail(context, QStringLiteral("the cluster has no consumer groups"));
    }
    groups.removeDuplicates();

    ResetPlanner planner(*admin.value());
    QList<RowRequest> requests;
    if (fromFile) {
        auto rows = OffsetsCsv::readFile(*fromFile, groups);
        if (!rows)
            return fail(context, rows.error().message);
        requests = ResetPlanner::fromCsvRows(rows.value(), *fromFile);
    } else {
        auto expanded = planner.expandScope(groups, scope, *spec);
        if (!expanded)
            return fail(context, expanded.error().message);
        requests = expanded.value();
    }
    auto plan = planner.plan(requests);
    if (!plan)
        return fail(context, plan.error().message);

    if (asKafkaCommand) {
        KafkaResetCommand command;
        command.bootstrapServers = context.profile.bootstrapServers;
        command.allGroups = allGroups;
        if (!allGroups)
            command.groups = groups;
        command.scope = scope;
        if (spec)
            command.spec = *spec;
        if (fromFile)
            command.fromFile = *fromFile;
        command.execute = execute;
        context.out << command.toString() << u'\n';
        return ExitSuccess;
    }
    Previews previews;
    if (withPreview && !exportCsv)
        previews = RecordPreviewer::preview(context.profile, plan.value(), context.timeout);
    if (exportCsv) {
        QList<OffsetsCsvRow> rows;
        for (const PlanRow& row : plan.value().rows)
            if (row.newOffset)
                rows.append({row.groupId, row.topicPartition, *row.newOffset, 0});
            else // not in the CSV, so said here rather than dropped without a word
                context.err << QStringLiteral("Error: %1 %2: %3\n")
                                   .arg(row.groupId, row.topicPartition.toString(), row.error);
        // Byte for byte Kafka's --export, which prints an empty line after the rows.
        context.out << QString::fromUtf8(OffsetsCsv::write(rows, exportWithGroup)) << u'\n';
    } else if (asJson) {
        context.out
            << QJsonDocument(planToJson(plan.value(), previews)).toJson(QJsonDocument::Indented);
    } else {
        printPlan(context, plan.value(), previews);
    }
    printSummary(context, plan.value());
    if (plan.value().errorCount() > 0)
        return fail(context, QStringLiteral("the plan has errors (see NOTE); nothing was changed"));
    if (!execute) {
        warnAboutActiveGroups(context, *admin.value(), plan.value().groups());
        context.err << "Dry run: nothing was changed. Add --execute to apply.\n";
        return ExitSuccess;
    }

    AuditLog audit;
    ResetApplier applier(*admin.value(), audit);
    ApplyOptions options;
    options.tool = QStringLiteral("groupscope-cli " GROUPSCOPE_VERSION);
    options.description =
        fromFile ? QStringLiteral("from-file %1").arg(*fromFile)
                 : QStringLiteral("%1 %2").arg(resetModeName(spec->mode), spec->text).trimmed();
    options.waitForEmpty = waitForEmpty;
    if (waitForEmpty.count() > 0)
        // Said before the wait, so nobody takes a quiet terminal for a hang.
        context.err
            << QStringLiteral("Waiting up to %1 s for active groups to become empty "
                              "before applying (Ctrl-C to give up)...\n")
                   .arg(std::chrono::duration_cast<std::chrono::seconds>(waitForEmpty).count())
            << Qt::flush;
    auto results = applier.apply(plan.value(), options);
    if (!results)
        return fail(context, results.error().message);
    return reportApply(context, results.value());
}

int runUndoCommand(const CommandContext& context, ArgumentList& arguments) {
    const auto entryId = arguments.takeValue(QStringLiteral("--entry"));
    const bool execute = arguments.takeFlag(QStringLiteral("--execute"));
    arguments.takeFlag(QStringLiteral("--dry-run"));
    const bool asJson = arguments.takeFlag(QStringLiteral("--json"));
    const bool force = arguments.takeFlag(QStringLiteral("--force"));
    if (const int usage = rejectLeftovers(context, arguments))
        return usage;
    if (!entryId)
        return fail(context, QStringLiteral("undo needs --entry ID (see groupscope-cli history)"),
                    ExitUsage);
    AuditLog audit;
    auto entry = audit.find(*entryId);
    if (!entry)
        return fail(context, entry.error().message);
    if (entry.value().cluster != context.profile.bootstrapServers) {
        // The same group name on another cluster is most likely another group: undoing there
        // would write offsets that were never its own.
        const QString mismatch =
            QStringLiteral("entry %1 was recorded for cluster %2, you are "
                           "connected to %3")
                .arg(*entryId, entry.value().cluster, context.profile.bootstrapServers);
        if (!force)
            return fail(context,
                        mismatch + QStringLiteral("; add --force if they are the same cluster"));
        context.err << "Warning: " << mismatch << " (--force given)\n";
    }

    QList<kafka::TopicPartition> deletions;
    const QList<RowRequest> requests = ResetApplier::undoRequests(entry.value(), &deletions);
    if (requests.isEmpty() && deletions.isEmpty())
        return fail(
            context,
            QStringLiteral("entry %1 changed nothing; there is nothing to undo").arg(*entryId));
    auto admin = AdminClient::create(context.profile, context.timeout);
    if (!admin)
        return fail(context, admin.error().message);
    ResetPlanner planner(*admin.value());
    auto plan = planner.plan(requests);
    if (!plan)
        return fail(context, plan.error().message);
    if (asJson)
        context.out << QJsonDocument(planToJson(plan.value())).toJson(QJsonDocument::Indented);
    else
        printPlan(context, plan.value());
    for (const auto& tp : deletions)
        context.out << "delete committed offset of " << entry.value().groupId << ' '
                    << tp.toString() << " (it had none before)\n";
    printSummary(context, plan.value());
    if (plan.value().errorCount() > 0)
        return fail(context, QStringLiteral("the undo plan has errors; nothing was changed"));
    if (!execute) {
        context.err << "Dry run: nothing was changed. Add --execute to undo.\n";
        return ExitSuccess;
    }
    ResetApplier applier(*admin.value(), audit);
    ApplyOptions options;
    options.tool = QStringLiteral("groupscope-cli " GROUPSCOPE_VERSION);
    options.description = QStringLiteral("undo of %1").arg(*entryId);
    options.undoOf = *entryId;
    if (!deletions.isEmpty())
        options.deletions.insert(entry.value().groupId, deletions);
    auto results = applier.apply(plan.value(), options);
    if (!results)
        return fail(context, results.error().message);
    return reportApply(context, results.value());
}

int runHistoryCommand(const CommandContext& context, ArgumentList& arguments) {
    const auto group = arguments.takeValue(QStringLiteral("--group"));
    const bool asJson = arguments.takeFlag(QStringLiteral("--json"));
    if (const int usage = rejectLeftovers(context, arguments))
        return usage;
    AuditLog audit;
    auto entries = audit.readAll();
    if (!entries)
        return fail(context, entries.error().message);
    QJsonArray array;
    TextTable table({QStringLiteral("ENTRY"), QStringLiteral("GROUP"), QStringLiteral("CLUSTER"),
                     QStringLiteral("PARTITIONS"), QStringLiteral("BY"), QStringLiteral("WHAT")});
    for (const AuditEntry& entry : entries.value()) {
        if (group && entry.groupId != *group)
            continue;
        array.append(entry.toJson());
        table.addRow({entry.id, entry.groupId, entry.cluster,
                      QString::number(entry.partitions.size()), entry.appliedBy,
                      entry.description});
    }
    if (asJson)
        context.out << QJsonDocument(array).toJson(QJsonDocument::Indented);
    else
        table.print(context.out);
    return ExitSuccess;
}

int runDeleteOffsetsCommand(const CommandContext& context, ArgumentList& arguments) {
    arguments.takeFlag(QStringLiteral("--delete-offsets"));
    const auto group = arguments.takeValue(QStringLiteral("--group"));
    const QStringList topics = arguments.takeValues(QStringLiteral("--topic"));
    const bool execute = arguments.takeFlag(QStringLiteral("--execute"));
    arguments.takeFlag(QStringLiteral("--dry-run"));
    if (const int usage = rejectLeftovers(context, arguments))
        return usage;
    if (!group || topics.isEmpty())
        return fail(context, QStringLiteral("delete-offsets needs --group G and --topic T[:P,...]"),
                    ExitUsage);
    auto admin = AdminClient::create(context.profile, context.timeout);
    if (!admin)
        return fail(context, admin.error().message);
    QList<kafka::TopicPartition> partitions;
    for (const QString& argument : topics) {
        auto parsed = parseTopicArgument(argument);
        if (!parsed)
            return fail(context, parsed.error().message);
        if (parsed.value().second.isEmpty()) {
            auto all = admin.value()->topicPartitions({parsed.value().first});
            if (!all)
                return fail(context, all.error().message);
            partitions.append(all.value());
        } else {
            for (int32_t p : parsed.value().second)
                partitions.append({parsed.value().first, p});
        }
    }
    // Show what exists now: the rows that will lose their commit.
    auto committed = admin.value()->listCommittedOffsets({*group});
    if (!committed)
        return fail(context, committed.error().message);
    QHash<kafka::TopicPartition, int64_t> current;
    for (const auto& offset : committed.value().value(*group))
        current.insert(offset.topicPartition, offset.offset);
    TextTable table({QStringLiteral("GROUP"), QStringLiteral("TOPIC"), QStringLiteral("PARTITION"),
                     QStringLiteral("CURRENT-OFFSET")});
    for (const auto& tp : partitions)
        table.addRow(
            {*group, tp.topic, QString::number(tp.partition),
             current.contains(tp) ? QString::number(current.value(tp)) : QStringLiteral("-")});
    table.print(context.out);
    if (!execute) {
        if (auto described = admin.value()->describeGroups({*group});
            described && !described.value().isEmpty() &&
            !described.value().first().members.isEmpty())
            context.err << QStringLiteral(
                               "Note: group '%1' has %2 active member(s); the broker will refuse "
                               "to delete the offsets of topics they subscribe to "
                               "(GROUP_SUBSCRIBED_TO_TOPIC) and delete the others.\n")
                               .arg(*group)
                               .arg(described.value().first().members.size());
        // Kafka's --delete-offsets deletes at once; ours previews first, and says so.
        context.err << "Dry run: nothing was deleted. Unlike kafka-consumer-groups "
                       "--delete-offsets, groupscope-cli only deletes with --execute: run the "
                       "same command with --execute to delete these committed offsets.\n";
        return ExitSuccess;
    }
    AuditLog audit;
    ResetApplier applier(*admin.value(), audit);
    ApplyOptions options;
    options.tool = QStringLiteral("groupscope-cli " GROUPSCOPE_VERSION);
    options.description = QStringLiteral("delete-offsets %1").arg(topics.join(u' '));
    options.deletions.insert(*group, partitions);
    auto results = applier.apply(ResetPlan{}, options);
    if (!results)
        return fail(context, results.error().message);
    return reportApply(context, results.value());
}

} // namespace groupscope::cli
