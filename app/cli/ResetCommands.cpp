#include "cli/ResetCommands.h"

#include "cli/CommandErrors.h"
#include "cli/ResetCommandOptions.h"
#include "cli/ResetOutput.h"
#include "cli/TextTable.h"
#include "cli/WriteInterrupt.h"
#include "kafka/AdminClient.h"
#include "offsets/GroupDeleter.h"
#include "offsets/JournaledWrite.h"
#include "offsets/KafkaCommandLine.h"
#include "offsets/ResetSession.h"
#include "offsets/WriteJournal.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace groupscope::cli {

using namespace groupscope::offsets;
using kafka::AdminClient;

namespace {

int fail(const CommandContext& context, const QString& message, int code = ExitFailure) {
    context.err << "Error: " << message << u'\n';
    return code;
}

ApplySettings cliApplySettings() {
    ApplySettings settings;
    settings.tool = QStringLiteral("groupscope-cli " GROUPSCOPE_VERSION);
    return settings;
}

// A dry run of a group with members says now that --execute would be refused, and who the
// members are, rather than letting the user find out on the real run.
void warnAboutActiveGroups(const CommandContext& context, AdminClient& admin,
                           const ResetSession& session) {
    auto refusals = session.activeGroupRefusals(admin);
    if (!refusals) {
        context.err << "Warning: could not check whether the groups are active: "
                    << refusals.error().message << u'\n';
        return;
    }
    for (const QString& refusal : refusals.value())
        context.err << "Warning: applying will be refused: " << refusal << u'\n';
}

// --group values, or every group of the cluster for --all-groups; without duplicates.
kafka::Result<QStringList> groupsToReset(AdminClient& admin, const ResetCommandOptions& options) {
    QStringList groups = options.groups;
    if (options.allGroups) {
        auto listings = admin.listGroups();
        if (!listings)
            return listings.error();
        for (const auto& listing : listings.value())
            groups.append(listing.groupId);
        if (groups.isEmpty())
            return kafka::KafkaError::invalidArgument(
                QStringLiteral("the cluster has no consumer groups"));
    }
    groups.removeDuplicates();
    return groups;
}

void printKafkaCommand(const CommandContext& context, const ResetCommandOptions& options,
                       const QStringList& groups) {
    KafkaResetCommand command;
    command.bootstrapServers = context.profile.bootstrapServers;
    command.allGroups = options.allGroups;
    if (!options.allGroups)
        command.groups = groups;
    command.scope = options.scope;
    if (options.spec)
        command.spec = *options.spec;
    if (options.fromFile)
        command.fromFile = *options.fromFile;
    command.execute = options.execute;
    context.out << command.toString() << u'\n';
}

void printResetPlan(const CommandContext& context, const ResetCommandOptions& options,
                    const ResetSession& session) {
    if (options.exportCsv)
        printPlanCsv(context, session.plan(), options.exportWithGroup);
    else if (options.asJson)
        context.out << QJsonDocument(planToJson(session.plan(), session.previews()))
                           .toJson(QJsonDocument::Indented);
    else
        printPlan(context, session.plan(), session.previews());
    printPlanSummary(context, session.plan());
}

constexpr int ExitInterrupted = 130; // 128 + SIGINT, as shells report it

// Before a write: the journal's entries that no process finished recording (a crash, a
// lost answer) are resolved by reading this cluster's offsets back, and said.
void recoverInDoubt(const CommandContext& context, AdminClient& admin, WriteJournal& journal) {
    auto recovered = recoverInDoubtEntries(admin, journal);
    if (!recovered) {
        context.err << "Warning: could not resolve the journal's in-doubt entries: "
                    << recovered.error().message << u'\n';
        return;
    }
    for (const JournalEntry& entry : recovered.value())
        context.err << QStringLiteral("Recovered journal entry %1 (group '%2', %3): its outcome "
                                      "was never recorded, and was read back from the broker "
                                      "(groupscope-cli history --entry %1).\n")
                           .arg(entry.id, entry.groupId, entry.description);
}

bool anythingSent(const QList<GroupApplyResult>& results) {
    return std::any_of(results.cbegin(), results.cend(),
                       [](const GroupApplyResult& r) { return !r.journalId.isEmpty(); });
}

// Applies, reads the written offsets again after `verifyFor`, and reports each group.
int applyAndReport(const CommandContext& context, AdminClient& admin, const ResetSession& session,
                   ApplySettings settings, std::chrono::milliseconds verifyFor) {
    WriteInterrupt interrupt;
    settings.cancelled = interrupt.flag();
    WriteJournal journal;
    recoverInDoubt(context, admin, journal);
    auto results = session.apply(admin, journal, settings);
    if (!results)
        return fail(context, results.error().message);
    if (interrupt.interrupted() && !anythingSent(results.value())) {
        context.err << "Interrupted: nothing was written.\n";
        return ExitInterrupted;
    }
    if (verifyFor.count() > 0 && anythingSent(results.value()) && !interrupt.interrupted()) {
        context.err << QStringLiteral("Checking for %1 s that the new offsets hold (--verify-for "
                                      "0 skips this)...\n")
                           .arg(std::chrono::duration_cast<std::chrono::seconds>(verifyFor).count())
                    << Qt::flush;
        ResetApplier(admin, journal).verify(results.value(), verifyFor, interrupt.flag());
    }
    const int exitCode = reportApply(context, results.value());
    return interrupt.interrupted() ? ExitInterrupted : exitCode;
}

int applyReset(const CommandContext& context, AdminClient& admin, const ResetSession& session,
               const ResetCommandOptions& options) {
    ApplySettings settings = cliApplySettings();
    settings.waitForEmpty = options.waitForEmpty;
    settings.ignoreRecentCommits = options.force;
    context.out.flush(); // the plan stays in view while the write waits or checks
    if (options.waitForEmpty.count() > 0)
        // Said before the wait, so nobody takes a quiet terminal for a hang.
        context.err << QStringLiteral("Waiting up to %1 s for active groups to become empty "
                                      "before applying (Ctrl-C to give up)...\n")
                           .arg(std::chrono::duration_cast<std::chrono::seconds>(
                                    options.waitForEmpty)
                                    .count())
                    << Qt::flush;
    return applyAndReport(context, admin, session, settings, options.verifyFor);
}

} // namespace

int runResetCommand(const CommandContext& context, ArgumentList& arguments) {
    const ResetCommandOptions options = ResetCommandOptions::parse(arguments);
    if (!options.error.isEmpty())
        return fail(context, options.error, options.errorCode);
    auto admin = AdminClient::create(context.profile, context.timeout);
    if (!admin)
        return fail(context, admin.error().message);
    const auto groups = groupsToReset(*admin.value(), options);
    if (!groups)
        return fail(context, groups.error().message);

    auto session = options.fromFile ? ResetSession::fromFile(*options.fromFile, groups.value())
                                    : ResetSession::forScope(*admin.value(), groups.value(),
                                                             options.scope, *options.spec);
    if (!session)
        return fail(context, session.error().message);
    if (auto planned = session.value().resolve(*admin.value()); !planned)
        return fail(context, planned.error().message);
    if (options.asKafkaCommand) {
        if (options.spec && !KafkaResetCommand::expressible(*options.spec))
            return fail(context, QStringLiteral("Kafka's tool has no --to-group: export this "
                                                "plan with --export and give the file to "
                                                "kafka-consumer-groups --from-file"));
        printKafkaCommand(context, options, groups.value());
        return ExitSuccess;
    }
    if (options.withPreview && !options.exportCsv)
        session.value().previewRecords(context.profile, context.timeout);
    printResetPlan(context, options, session.value());
    if (session.value().plan().errorCount() > 0)
        return fail(context, QStringLiteral("the plan has errors (see NOTE); nothing was changed"));
    if (!options.execute) {
        warnAboutActiveGroups(context, *admin.value(), session.value());
        context.err << "Dry run: nothing was changed. Add --execute to apply.\n";
        return ExitSuccess;
    }
    return applyReset(context, *admin.value(), session.value(), options);
}

namespace {

// Says each partition an undo would restore although it moved since the entry.
void printUndoConflicts(const CommandContext& context, const ResetSession& session,
                        const QString& groupId) {
    if (session.undoConflicts().isEmpty())
        return;
    TextTable table({QStringLiteral("GROUP"), QStringLiteral("TOPIC"), QStringLiteral("PARTITION"),
                     QStringLiteral("BEFORE"), QStringLiteral("AFTER"), QStringLiteral("NOW")});
    for (const UndoConflict& conflict : session.undoConflicts())
        table.addRow({groupId, conflict.topicPartition.topic,
                      QString::number(conflict.topicPartition.partition),
                      offsetText(conflict.before), offsetText(conflict.after),
                      offsetText(conflict.now)});
    context.err << QStringLiteral("Conflicts: %1 partition(s) moved since the entry (NOW is not "
                                  "its AFTER); undoing them would throw away what happened "
                                  "since:\n")
                       .arg(session.undoConflicts().size());
    context.err.flush();
    table.print(context.err);
}

} // namespace

int runUndoCommand(const CommandContext& context, ArgumentList& arguments) {
    const auto entryId = arguments.takeValue(QStringLiteral("--entry"));
    const bool execute = arguments.takeFlag(QStringLiteral("--execute"));
    arguments.takeFlag(QStringLiteral("--dry-run"));
    const bool asJson = arguments.takeFlag(QStringLiteral("--json"));
    const bool force = arguments.takeFlag(QStringLiteral("--force"));
    const bool skipConflicts = arguments.takeFlag(QStringLiteral("--skip-conflicts"));
    const auto verifyText = arguments.takeValue(QStringLiteral("--verify-for"));
    if (const int usage = rejectLeftovers(context, arguments))
        return usage;
    if (!entryId)
        return fail(context, QStringLiteral("undo needs --entry ID (see groupscope-cli history)"),
                    ExitUsage);
    if (force && skipConflicts)
        return fail(context,
                    QStringLiteral("--force restores every partition, --skip-conflicts only the "
                                   "unchanged ones: give one of them"),
                    ExitUsage);
    std::chrono::milliseconds verifyFor{5000};
    if (verifyText) {
        auto seconds = parseVerifySeconds(*verifyText);
        if (!seconds)
            return fail(context, seconds.error().message, ExitUsage);
        verifyFor = seconds.value();
    }
    auto admin = AdminClient::create(context.profile, context.timeout);
    if (!admin)
        return fail(context, admin.error().message);
    WriteJournal journal;
    recoverInDoubt(context, *admin.value(), journal);
    auto entry = journal.find(*entryId);
    if (!entry)
        return fail(context, entry.error().message);
    auto session = ResetSession::undoOf(entry.value());
    if (!session)
        return fail(context, session.error().message);
    if (auto planned = session.value().resolve(*admin.value()); !planned)
        return fail(context, planned.error().message);
    // The same group name on another cluster is most likely another group: undoing there
    // would write offsets that were never its own.
    if (const QString mismatch = session.value().undoClusterMismatch(); !mismatch.isEmpty()) {
        if (!force)
            return fail(context,
                        mismatch + QStringLiteral("; add --force if they are the same cluster"));
        context.err << "Warning: " << mismatch << " (--force given)\n";
    }
    const QString groupId = entry.value().groupId;
    printUndoConflicts(context, session.value(), groupId);
    if (skipConflicts)
        session.value().skipUndoConflicts();
    const ResetPlan& plan = session.value().plan();
    if (asJson)
        context.out << QJsonDocument(planToJson(plan)).toJson(QJsonDocument::Indented);
    else
        printPlan(context, plan);
    for (const auto& tp : session.value().deletions().value(groupId))
        context.out << "delete committed offset of " << groupId << ' ' << tp.toString()
                    << " (it had none before)\n";
    printPlanSummary(context, plan);
    if (plan.errorCount() > 0)
        return fail(context, QStringLiteral("the undo plan has errors; nothing was changed"));
    const bool conflicts = !session.value().undoConflicts().isEmpty();
    if (!execute) {
        if (conflicts)
            context.err << "Applying will be refused while there are conflicts: add "
                           "--skip-conflicts to restore only the unchanged partitions, or "
                           "--force to restore them all.\n";
        context.err << "Dry run: nothing was changed. Add --execute to undo.\n";
        return ExitSuccess;
    }
    if (conflicts && !force)
        return fail(context, QStringLiteral("the undo has conflicts (above); nothing was changed. "
                                            "Add --skip-conflicts to restore only the unchanged "
                                            "partitions, or --force to restore them all."));
    if (plan.rows.isEmpty() && session.value().deletions().isEmpty()) {
        context.err << "Nothing left to undo: every partition is in conflict and was skipped.\n";
        return ExitSuccess;
    }
    ApplySettings settings = cliApplySettings();
    settings.ignoreRecentCommits = force;
    return applyAndReport(context, *admin.value(), session.value(), settings, verifyFor);
}

int runHistoryCommand(const CommandContext& context, ArgumentList& arguments) {
    const auto group = arguments.takeValue(QStringLiteral("--group"));
    const auto entryId = arguments.takeValue(QStringLiteral("--entry"));
    const bool asJson = arguments.takeFlag(QStringLiteral("--json"));
    if (const int usage = rejectLeftovers(context, arguments))
        return usage;
    WriteJournal journal;
    if (auto opened = journal.open(); !opened)
        return fail(context, opened.error().message);
    for (const QString& problem : journal.importProblems())
        context.err << "Warning: " << problem << u'\n';
    JournalQuery query;
    query.groupId = group.value_or(QString());
    kafka::Result<QList<JournalEntry>> entries = QList<JournalEntry>{};
    if (entryId) {
        auto entry = journal.find(*entryId);
        if (!entry)
            return fail(context, entry.error().message);
        entries = QList<JournalEntry>{entry.value()};
    } else {
        entries = journal.entries(query);
    }
    if (!entries)
        return fail(context, entries.error().message);
    QJsonArray array;
    TextTable table({QStringLiteral("ENTRY"), QStringLiteral("GROUP"), QStringLiteral("CLUSTER"),
                     QStringLiteral("PARTITIONS"), QStringLiteral("STATE"), QStringLiteral("BY"),
                     QStringLiteral("WHAT")});
    // Oldest first, as a log reads.
    for (auto it = entries.value().crbegin(); it != entries.value().crend(); ++it) {
        const JournalEntry& entry = *it;
        array.append(entry.toJson());
        QString state = journalStateName(entry.state);
        if (entry.hasOverwrittenPartitions())
            state += QStringLiteral(", overwritten");
        table.addRow({entry.id, entry.groupId,
                      entry.clusterId.isEmpty()
                          ? entry.cluster
                          : entry.cluster + QStringLiteral(" (") + entry.clusterId + u')',
                      QString::number(entry.partitions.size()), state, entry.appliedBy,
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
    const bool force = arguments.takeFlag(QStringLiteral("--force"));
    if (const int usage = rejectLeftovers(context, arguments))
        return usage;
    if (!group || topics.isEmpty())
        return fail(context, QStringLiteral("delete-offsets needs --group G and --topic T[:P,...]"),
                    ExitUsage);
    auto admin = AdminClient::create(context.profile, context.timeout);
    if (!admin)
        return fail(context, admin.error().message);
    auto session = ResetSession::deleting(*admin.value(), *group, topics);
    if (!session)
        return fail(context, session.error().message);
    // Show what exists now: the rows that will lose their commit.
    int members = 0;
    auto rows = session.value().deletionRows(*admin.value(), execute ? nullptr : &members);
    if (!rows)
        return fail(context, rows.error().message);
    TextTable table({QStringLiteral("GROUP"), QStringLiteral("TOPIC"), QStringLiteral("PARTITION"),
                     QStringLiteral("CURRENT-OFFSET")});
    for (const DeletionRow& row : rows.value())
        table.addRow({*group, row.topicPartition.topic,
                      QString::number(row.topicPartition.partition),
                      offsetText(row.committedOffset)});
    table.print(context.out);
    if (!execute) {
        if (members > 0)
            context.err << QStringLiteral(
                               "Note: group '%1' has %2 active member(s); the broker will refuse "
                               "to delete the offsets of topics they subscribe to "
                               "(GROUP_SUBSCRIBED_TO_TOPIC) and delete the others.\n")
                               .arg(*group)
                               .arg(members);
        // Kafka's --delete-offsets deletes at once; ours previews first, and says so.
        context.err << "Dry run: nothing was deleted. Unlike kafka-consumer-groups "
                       "--delete-offsets, groupscope-cli only deletes with --execute: run the "
                       "same command with --execute to delete these committed offsets.\n";
        return ExitSuccess;
    }
    ApplySettings settings = cliApplySettings();
    settings.ignoreRecentCommits = force;
    return applyAndReport(context, *admin.value(), session.value(), settings,
                          std::chrono::milliseconds(0));
}

int runDeleteGroupsCommand(const CommandContext& context, ArgumentList& arguments) {
    arguments.takeFlag(QStringLiteral("--delete"));
    const QStringList groups = arguments.takeValues(QStringLiteral("--group"));
    const bool execute = arguments.takeFlag(QStringLiteral("--execute"));
    arguments.takeFlag(QStringLiteral("--dry-run"));
    if (const int usage = rejectLeftovers(context, arguments))
        return usage;
    if (groups.isEmpty())
        return fail(context, QStringLiteral("delete needs --group G (one or more)"), ExitUsage);
    auto admin = AdminClient::create(context.profile, context.timeout);
    if (!admin)
        return fail(context, admin.error().message);
    WriteJournal journal;
    GroupDeleter deleter(*admin.value(), journal);
    int exitCode = ExitSuccess;
    if (!execute) {
        auto previews = deleter.preview(groups);
        if (!previews)
            return fail(context, previews.error().message);
        TextTable table({QStringLiteral("GROUP"), QStringLiteral("STATE"),
                         QStringLiteral("MEMBERS"), QStringLiteral("COMMITTED-PARTITIONS")});
        int deletable = 0;
        for (const GroupDeletionPreview& preview : previews.value()) {
            table.addRow({preview.group.groupId, kafka::groupStateName(preview.group.state),
                          QString::number(preview.group.members.size()),
                          QString::number(preview.commits.size())});
            if (preview.refusal.isEmpty()) {
                ++deletable;
                continue;
            }
            context.err << "Error: " << preview.refusal << u'\n';
            exitCode = ExitFailure;
        }
        table.print(context.out);
        context.err << QStringLiteral(
                           "Dry run: nothing was deleted. Unlike kafka-consumer-groups --delete, "
                           "groupscope-cli only deletes with --execute: run the same command "
                           "with --execute to delete %1 group(s). Their committed offsets go "
                           "to the write journal first, and undo commits them again.\n")
                           .arg(deletable);
        return exitCode;
    }
    recoverInDoubt(context, *admin.value(), journal);
    auto results = deleter.deleteGroups(groups, cliApplySettings().tool);
    if (!results)
        return fail(context, results.error().message);
    QStringList deleted;
    for (const GroupApplyResult& result : results.value()) {
        QString failure = result.refusal;
        if (failure.isEmpty() && result.failedPartitions() > 0)
            failure = result.partitions.first().error;
        if (!failure.isEmpty()) {
            context.err << "Error: group '" << result.groupId << "' was not deleted: " << failure
                        << u'\n';
            exitCode = ExitFailure;
            continue;
        }
        deleted.append(QStringLiteral("'%1'").arg(result.groupId));
        context.err << QStringLiteral("Deleted group '%1': %2 committed offset(s) recorded")
                           .arg(result.groupId)
                           .arg(result.partitions.size());
        if (!result.journalId.isEmpty())
            context.err << QStringLiteral(" in journal entry %1 (undo: groupscope-cli undo "
                                          "--entry %1 --execute)")
                               .arg(result.journalId);
        context.err << ".\n";
        if (!result.journalError.isEmpty())
            context.err << "Warning: the outcome is not recorded yet: " << result.journalError
                        << u'\n';
    }
    // Kafka's own words for the groups that went, so scripts reading its output still work.
    if (!deleted.isEmpty())
        context.out << QStringLiteral(
                           "Deletion of requested consumer groups (%1) was successful.\n")
                           .arg(deleted.join(QStringLiteral(", ")));
    return exitCode;
}

} // namespace groupscope::cli
