#include "cli/GroupCommands.h"

#include "cli/GroupJson.h"
#include "cli/TextTable.h"
#include "kafka/AdminClient.h"
#include "monitor/GroupInspector.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace groupscope::cli {

namespace {

using kafka::AdminClient;
using monitor::GroupSnapshot;

QString dashIfEmpty(const QString& text) {
    return text.isEmpty() ? QStringLiteral("-") : text;
}
QString dashIfMissing(std::optional<int64_t> value) {
    return value ? QString::number(*value) : QStringLiteral("-");
}
QString dashIfNegative(int64_t value) {
    return value >= 0 ? QString::number(value) : QStringLiteral("-");
}

int reportError(const CommandContext& context, const kafka::KafkaError& error) {
    context.err << "Error: " << error.message << u'\n';
    return ExitFailure;
}

// Unknown words left after a command took its options: a usage error naming them.
int rejectLeftovers(const CommandContext& context, const ArgumentList& arguments) {
    if (!arguments.error().isEmpty()) {
        context.err << "Error: " << arguments.error() << u'\n';
        return ExitUsage;
    }
    if (!arguments.remaining().isEmpty()) {
        context.err << "Error: unexpected argument \"" << arguments.remaining().first()
                    << "\" (see groupscope-cli --help)\n";
        return ExitUsage;
    }
    return ExitSuccess;
}

void printOffsets(const CommandContext& context, const GroupSnapshot& group) {
    TextTable table({QStringLiteral("GROUP"), QStringLiteral("TOPIC"), QStringLiteral("PARTITION"),
                     QStringLiteral("CURRENT-OFFSET"), QStringLiteral("LOG-END-OFFSET"),
                     QStringLiteral("LAG"), QStringLiteral("CONSUMER-ID"), QStringLiteral("HOST"),
                     QStringLiteral("CLIENT-ID")});
    for (const auto& partition : group.partitions)
        table.addRow({group.groupId(), partition.topicPartition.topic,
                      QString::number(partition.topicPartition.partition),
                      dashIfMissing(partition.committedOffset),
                      dashIfNegative(partition.logEndOffset), dashIfMissing(partition.lag),
                      dashIfEmpty(partition.memberId), dashIfEmpty(partition.host),
                      dashIfEmpty(partition.clientId)});
    table.print(context.out);
}

void printMembers(const CommandContext& context, const GroupSnapshot& group, bool verbose) {
    QStringList header{
        QStringLiteral("GROUP"), QStringLiteral("CONSUMER-ID"), QStringLiteral("GROUP-INSTANCE-ID"),
        QStringLiteral("HOST"),  QStringLiteral("CLIENT-ID"),   QStringLiteral("#PARTITIONS")};
    if (verbose)
        header.append(QStringLiteral("ASSIGNMENT"));
    TextTable table(header);
    for (const auto& member : group.description.members) {
        QStringList row{
            group.groupId(), member.memberId, dashIfEmpty(member.groupInstanceId),
            member.host,     member.clientId, QString::number(member.assignment.size())};
        if (verbose) {
            QStringList assignment;
            for (const auto& tp : member.assignment)
                assignment.append(tp.toString());
            row.append(dashIfEmpty(assignment.join(u',')));
        }
        table.addRow(row);
    }
    table.print(context.out);
}

void printState(const CommandContext& context, const GroupSnapshot& group) {
    const auto& description = group.description;
    TextTable table({QStringLiteral("GROUP"), QStringLiteral("COORDINATOR (ID)"),
                     QStringLiteral("ASSIGNMENT-STRATEGY"), QStringLiteral("STATE"),
                     QStringLiteral("#MEMBERS")});
    table.addRow({group.groupId(), description.coordinator.toString(),
                  dashIfEmpty(description.partitionAssignor),
                  kafka::groupStateName(description.state),
                  QString::number(description.members.size())});
    table.print(context.out);
}

kafka::Result<std::unique_ptr<AdminClient>> connect(const CommandContext& context) {
    return AdminClient::create(context.profile, context.timeout);
}

} // namespace

int runListCommand(const CommandContext& context, ArgumentList& arguments) {
    const bool withState = arguments.takeFlag(QStringLiteral("--state"));
    const bool asJson = arguments.takeFlag(QStringLiteral("--json"));
    if (const int usage = rejectLeftovers(context, arguments))
        return usage;
    auto admin = connect(context);
    if (!admin)
        return reportError(context, admin.error());
    auto groups = admin.value()->listGroups();
    if (!groups)
        return reportError(context, groups.error());

    if (asJson) {
        QJsonArray array;
        for (const auto& group : groups.value())
            array.append(QJsonObject{{QStringLiteral("group"), group.groupId},
                                     {QStringLiteral("state"), kafka::groupStateName(group.state)},
                                     {QStringLiteral("simple"), group.isSimpleConsumerGroup}});
        context.out << QJsonDocument(array).toJson(QJsonDocument::Indented);
    } else if (withState) {
        TextTable table({QStringLiteral("GROUP"), QStringLiteral("STATE")});
        for (const auto& group : groups.value())
            table.addRow({group.groupId, kafka::groupStateName(group.state)});
        table.print(context.out);
    } else {
        for (const auto& group : groups.value())
            context.out << group.groupId << u'\n';
    }
    return ExitSuccess;
}

int runDescribeCommand(const CommandContext& context, ArgumentList& arguments) {
    QStringList groupIds = arguments.takeValues(QStringLiteral("--group"));
    const bool allGroups = arguments.takeFlag(QStringLiteral("--all-groups"));
    const bool members = arguments.takeFlag(QStringLiteral("--members"));
    const bool verbose = arguments.takeFlag(QStringLiteral("--verbose"));
    const bool state = arguments.takeFlag(QStringLiteral("--state"));
    const bool offsets = arguments.takeFlag(QStringLiteral("--offsets"));
    const bool asJson = arguments.takeFlag(QStringLiteral("--json"));
    if (const int usage = rejectLeftovers(context, arguments))
        return usage;
    if (allGroups == !groupIds.isEmpty()) {
        context.err << "Error: describe needs either --group G (repeatable) or --all-groups\n";
        return ExitUsage;
    }
    if (int(members) + int(state) + int(offsets) > 1) {
        context.err << "Error: choose one of --offsets, --members and --state\n";
        return ExitUsage;
    }
    for (const QString& id : groupIds)
        if (id.trimmed().isEmpty()) {
            context.err << "Error: --group needs a non-empty group id\n";
            return ExitUsage;
        }

    auto admin = connect(context);
    if (!admin)
        return reportError(context, admin.error());
    if (allGroups) {
        auto listings = admin.value()->listGroups();
        if (!listings)
            return reportError(context, listings.error());
        for (const auto& listing : listings.value())
            groupIds.append(listing.groupId);
    }
    groupIds.removeDuplicates();
    monitor::GroupInspector inspector(*admin.value());
    auto snapshots = inspector.inspect(groupIds);
    if (!snapshots)
        return reportError(context, snapshots.error());

    int exitCode = ExitSuccess;
    QList<GroupSnapshot> found;
    for (const GroupSnapshot& group : snapshots.value()) {
        if (group.error) {
            context.err << "Error: group '" << group.groupId() << "': " << group.error.toString()
                        << u'\n';
            exitCode = ExitFailure;
        } else if (!group.exists()) {
            context.err << "Error: Consumer group '" << group.groupId() << "' does not exist.\n";
            exitCode = ExitFailure;
        } else {
            found.append(group);
        }
    }

    if (asJson) {
        writeUtf8(context.out, groupsToJsonText(found));
        return exitCode;
    }
    for (const GroupSnapshot& group : found) {
        context.out << u'\n';
        const auto groupState = group.description.state;
        if (groupState == kafka::GroupState::PreparingRebalance ||
            groupState == kafka::GroupState::CompletingRebalance)
            context.err << "Warning: Consumer group '" << group.groupId() << "' is rebalancing.\n";
        else if (group.description.members.isEmpty() && !state)
            context.err << "Consumer group '" << group.groupId() << "' has no active members.\n";
        if (members)
            printMembers(context, group, verbose);
        else if (state)
            printState(context, group);
        else
            printOffsets(context, group);
    }
    return exitCode;
}

} // namespace groupscope::cli
