#include "cli/GroupCommands.h"
#include "cli/CommandErrors.h"

#include "cli/DescribeOutput.h"
#include "cli/GroupJson.h"
#include "cli/GroupListFilter.h"
#include "cli/LagDetailOutput.h"
#include "cli/TextTable.h"
#include "kafka/AdminClient.h"
#include "monitor/GroupInspector.h"
#include "monitor/TopicSummary.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace groupscope::cli {

namespace {

using kafka::AdminClient;
using monitor::GroupSnapshot;

int reportError(const CommandContext& context, const kafka::KafkaError& error) {
    context.err << "Error: " << error.message << u'\n';
    return ExitFailure;
}

kafka::Result<std::unique_ptr<AdminClient>> connect(const CommandContext& context) {
    return AdminClient::create(context.profile, context.timeout);
}

} // namespace

int runListCommand(const CommandContext& context, ArgumentList& arguments) {
    const std::optional<QString> stateOption =
        arguments.takeOptionalValue(QStringLiteral("--state"));
    const std::optional<QString> typeOption = arguments.takeOptionalValue(QStringLiteral("--type"));
    const bool showProtocol = arguments.takeFlag(QStringLiteral("--protocol"));
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
                                     {QStringLiteral("protocol"), group.protocolType},
                                     {QStringLiteral("simple"), group.isSimpleConsumerGroup}});
        context.out << QJsonDocument(array).toJson(QJsonDocument::Indented);
        return ExitSuccess;
    }
    if (!filter->showsState() && !filter->showsType() && !showProtocol) {
        for (const auto& group : groups)
            context.out << group.groupId << u'\n';
        return ExitSuccess;
    }
    // The columns Kafka 4.4's tool prints: GROUP, then TYPE and STATE as asked.
    QStringList header{QStringLiteral("GROUP")};
    if (filter->showsType())
        header.append(QStringLiteral("TYPE"));
    if (showProtocol) // kafka-groups --list's third column
        header.append(QStringLiteral("PROTOCOL"));
    if (filter->showsState())
        header.append(QStringLiteral("STATE"));
    TextTable table(header);
    int unknownStates = 0;
    for (const auto& group : groups) {
        QStringList row{group.groupId};
        if (filter->showsType())
            row.append(kafka::groupTypeName(group.type));
        if (showProtocol)
            row.append(dashIfEmpty(group.protocolType));
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

// describe --topic T ...: the groups that read each topic, with their lag on it, as the
// GUI's Topics tab shows them (monitor::topicConsumersOf over one poll of every group).
static int describeTopics(const CommandContext& context, const QStringList& topics, bool asJson) {
    for (const QString& topic : topics)
        if (topic.trimmed().isEmpty()) {
            context.err << "Error: --topic needs a non-empty topic name\n";
            return ExitUsage;
        }
    auto admin = connect(context);
    if (!admin)
        return reportError(context, admin.error());
    monitor::GroupInspector inspector(*admin.value());
    auto cluster = inspector.inspectAll();
    if (!cluster)
        return reportError(context, cluster.error());
    QList<monitor::TopicConsumer> rows;
    for (const monitor::TopicConsumer& row : monitor::topicConsumersOf(cluster.value().groups))
        if (topics.contains(row.topic))
            rows.append(row);
    int exitCode = ExitSuccess;
    for (const QString& topic : topics)
        if (std::none_of(rows.cbegin(), rows.cend(),
                         [&](const auto& row) { return row.topic == topic; })) {
            context.err << "Error: no group commits on or is assigned topic '" << topic << "'\n";
            exitCode = ExitFailure;
        }
    const auto lagText = [](const monitor::TopicConsumer& row) {
        return row.lag ? QString::number(*row.lag) : QStringLiteral("-");
    };
    if (asJson) {
        QJsonArray array;
        for (const monitor::TopicConsumer& row : rows)
            array.append(QJsonObject{
                {QStringLiteral("topic"), row.topic},
                {QStringLiteral("topicPartitions"), row.topicPartitions},
                {QStringLiteral("logSize"), qint64(row.logSize)},
                {QStringLiteral("group"), row.groupId},
                {QStringLiteral("type"), kafka::groupTypeName(row.type)},
                {QStringLiteral("state"), kafka::groupStateName(row.state)},
                {QStringLiteral("partitions"), row.partitions},
                {QStringLiteral("lag"), row.lag ? QJsonValue(qint64(*row.lag)) : QJsonValue()},
                {QStringLiteral("partitionsWithoutCommit"), row.withoutCommit}});
        context.out << QJsonDocument(array).toJson(QJsonDocument::Indented);
        return exitCode;
    }
    TextTable table({QStringLiteral("TOPIC"), QStringLiteral("PARTITIONS"),
                     QStringLiteral("LOG-SIZE"), QStringLiteral("GROUP"), QStringLiteral("TYPE"),
                     QStringLiteral("STATE"), QStringLiteral("GROUP-PARTITIONS"),
                     QStringLiteral("LAG"), QStringLiteral("WITHOUT-COMMIT")});
    for (const monitor::TopicConsumer& row : rows)
        table.addRow({row.topic, QString::number(row.topicPartitions), QString::number(row.logSize),
                      row.groupId, kafka::groupTypeName(row.type), kafka::groupStateName(row.state),
                      QString::number(row.partitions), lagText(row),
                      QString::number(row.withoutCommit)});
    table.print(context.out);
    return exitCode;
}

int runDescribeCommand(const CommandContext& context, ArgumentList& arguments) {
    const QStringList topics = arguments.takeValues(QStringLiteral("--topic"));
    if (!topics.isEmpty()) {
        const bool asJson = arguments.takeFlag(QStringLiteral("--json"));
        if (const int usage = rejectLeftovers(context, arguments))
            return usage;
        return describeTopics(context, topics, asJson);
    }
    QStringList groupIds = arguments.takeValues(QStringLiteral("--group"));
    const bool allGroups = arguments.takeFlag(QStringLiteral("--all-groups"));
    const bool members = arguments.takeFlag(QStringLiteral("--members"));
    const bool verbose = arguments.takeFlag(QStringLiteral("--verbose"));
    const bool state = arguments.takeFlag(QStringLiteral("--state"));
    const bool offsets = arguments.takeFlag(QStringLiteral("--offsets"));
    const bool asJson = arguments.takeFlag(QStringLiteral("--json"));
    const bool lagDetail = arguments.takeFlag(QStringLiteral("--lag-detail"));
    if (const int usage = rejectLeftovers(context, arguments))
        return usage;
    if (lagDetail && (members || state)) {
        context.err << "Error: --lag-detail goes with the offsets view, not --members or --state\n";
        return ExitUsage;
    }
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
    monitor::LagDetailReader lagDetailReader;
    if (lagDetail)
        inspector.setLagDetailReader(&lagDetailReader);
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
        // Straight to the stream's device when it has one: a large document is written in
        // pieces, not held whole and then decoded and encoded again by the stream.
        if (QIODevice* device = context.out.device()) {
            context.out.flush();
            writeGroupsJson(*device, found, lagDetail);
        } else {
            context.out << QString::fromUtf8(groupsToJsonText(found, lagDetail));
        }
        return exitCode;
    }
    for (const GroupSnapshot& group : found) {
        context.out << u'\n';
        const auto groupState = group.description.state;
        if (kafka::isRebalancing(groupState))
            context.err << "Warning: Consumer group '" << group.groupId() << "' is rebalancing.\n";
        else if (group.description.members.isEmpty() && !state)
            context.err << noActiveMembersMessage(group) << u'\n';
        if (members)
            printMembers(context.out, group, verbose);
        else if (state)
            printState(context.out, group, verbose);
        else
            printOffsets(context.out, group);
        if (lagDetail)
            printLagDetail(context.out, group, QDateTime::currentMSecsSinceEpoch());
    }
    return exitCode;
}

} // namespace groupscope::cli
