#include "cli/GroupCommands.h"

#include "cli/GroupJson.h"
#include "cli/GroupListFilter.h"
#include "cli/TextTable.h"
#include "kafka/AdminClient.h"
#include "monitor/GroupInspector.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

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

// Kafka 4's way of writing an assignment: "orders:0,1,2;payments:0", "-" when empty.
QString assignmentText(const QList<kafka::TopicPartition>& partitions) {
    QStringList topics;
    QString topic;
    QStringList numbers;
    const auto closeTopic = [&] {
        if (!numbers.isEmpty())
            topics.append(topic + u':' + numbers.join(u','));
        numbers.clear();
    };
    for (const kafka::TopicPartition& partition : partitions) { // sorted
        if (partition.topic != topic)
            closeTopic();
        topic = partition.topic;
        numbers.append(QString::number(partition.partition));
    }
    closeTopic();
    return dashIfEmpty(topics.join(u';'));
}

// The columns of Kafka 4.4's --describe --members [--verbose]. GROUP-INSTANCE-ID is there
// only when a member is static. The epochs are "-": librdkafka does not pass them on.
void printMembers(const CommandContext& context, const GroupSnapshot& group, bool verbose) {
    const auto& members = group.description.members;
    const bool anyStatic = std::any_of(members.cbegin(), members.cend(), [](const auto& member) {
        return !member.groupInstanceId.isEmpty();
    });
    QStringList header{QStringLiteral("GROUP"), QStringLiteral("CONSUMER-ID")};
    if (anyStatic)
        header.append(QStringLiteral("GROUP-INSTANCE-ID"));
    header << QStringLiteral("HOST") << QStringLiteral("CLIENT-ID")
           << QStringLiteral("#PARTITIONS");
    if (verbose)
        header << QStringLiteral("CURRENT-EPOCH") << QStringLiteral("CURRENT-ASSIGNMENT")
               << QStringLiteral("TARGET-EPOCH") << QStringLiteral("TARGET-ASSIGNMENT");
    TextTable table(header);
    for (const auto& member : members) {
        QStringList row{group.groupId(), member.memberId};
        if (anyStatic)
            row.append(dashIfEmpty(member.groupInstanceId));
        row << member.host << member.clientId << QString::number(member.assignment.size());
        if (verbose)
            row << QStringLiteral("-") << assignmentText(member.assignment) << QStringLiteral("-")
                << (member.targetAssignment ? assignmentText(*member.targetAssignment)
                                            : QStringLiteral("-"));
        table.addRow(row);
    }
    table.print(context.out);
    const qsizetype reconciling = std::count_if(members.cbegin(), members.cend(),
                                                [](const auto& m) { return m.isReconciling(); });
    if (reconciling > 0)
        context.err << "Note: " << reconciling
                    << " member(s) still reconciling: their assignment is not yet their "
                       "target\n";
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
    const std::optional<QString> stateOption =
        arguments.takeOptionalValue(QStringLiteral("--state"));
    const std::optional<QString> typeOption = arguments.takeOptionalValue(QStringLiteral("--type"));
    const bool asJson = arguments.takeFlag(QStringLiteral("--json"));
    if (const int usage = rejectLeftovers(context, arguments))
        return usage;
    QString why;
    const auto filter = GroupListFilter::parse(stateOption, typeOption, &why);
    if (!filter) {
        context.err << "Error: " << why << u'\n';
        return ExitUsage;
    }
    auto admin = connect(context);
    if (!admin)
        return reportError(context, admin.error());
    auto listed = admin.value()->listGroups();
    if (!listed)
        return reportError(context, listed.error());
    QList<kafka::GroupListing> groups;
    for (const kafka::GroupListing& group : listed.value())
        if (filter->accepts(group))
            groups.append(group);

    if (asJson) {
        QJsonArray array;
        for (const auto& group : groups)
            array.append(QJsonObject{{QStringLiteral("group"), group.groupId},
                                     {QStringLiteral("type"), kafka::groupTypeName(group.type)},
                                     {QStringLiteral("state"), kafka::groupStateName(group.state)},
                                     {QStringLiteral("simple"), group.isSimpleConsumerGroup}});
        context.out << QJsonDocument(array).toJson(QJsonDocument::Indented);
        return ExitSuccess;
    }
    if (!filter->showsState() && !filter->showsType()) {
        for (const auto& group : groups)
            context.out << group.groupId << u'\n';
        return ExitSuccess;
    }
    // The columns Kafka 4.4's tool prints: GROUP, then TYPE and STATE as asked.
    QStringList header{QStringLiteral("GROUP")};
    if (filter->showsType())
        header.append(QStringLiteral("TYPE"));
    if (filter->showsState())
        header.append(QStringLiteral("STATE"));
    TextTable table(header);
    int unknownStates = 0;
    for (const auto& group : groups) {
        QStringList row{group.groupId};
        if (filter->showsType())
            row.append(kafka::groupTypeName(group.type));
        if (filter->showsState())
            row.append(kafka::groupStateName(group.state));
        unknownStates += group.state == kafka::GroupState::Unknown ? 1 : 0;
        table.addRow(row);
    }
    table.print(context.out);
    if (filter->showsState() && unknownStates > 0)
        context.err << "Note: " << unknownStates
                    << " group(s) in a state librdkafka does not know (Kafka 4 reports "
                       "consumer-protocol groups as Assigning or Reconciling while their "
                       "assignment changes)\n";
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
        if (kafka::isRebalancing(groupState))
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
