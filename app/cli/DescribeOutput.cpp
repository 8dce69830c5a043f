#include "cli/DescribeOutput.h"

#include "cli/TextTable.h"

#include <algorithm>

namespace groupscope::cli {

namespace {

using kafka::GroupType;
using monitor::GroupSnapshot;

QString dashIfMissing(std::optional<int64_t> value) {
    return value ? QString::number(*value) : QStringLiteral("-");
}
QString dashIfMissing(std::optional<int32_t> value) {
    return value ? QString::number(*value) : QStringLiteral("-");
}
QString dashIfNegative(int64_t value) {
    return value >= 0 ? QString::number(value) : QStringLiteral("-");
}

QString coordinatorText(const kafka::BrokerNode& node, const QString& separator) {
    if (node.id < 0)
        return QStringLiteral("-");
    return QStringLiteral("%1:%2%3(%4)").arg(node.host).arg(node.port).arg(separator).arg(node.id);
}

void printClassicOffsets(QTextStream& out, const GroupSnapshot& group) {
    TextTable table({QStringLiteral("GROUP"), QStringLiteral("TOPIC"), QStringLiteral("PARTITION"),
                     QStringLiteral("CURRENT-OFFSET"), QStringLiteral("LOG-END-OFFSET"),
                     QStringLiteral("LAG"), QStringLiteral("CONSUMER-ID"), QStringLiteral("HOST"),
                     QStringLiteral("CLIENT-ID")});
    for (const auto& partition : group.partitions)
        table.addRow({group.groupId(), partition.topicPartition.topic,
                      QString::number(partition.topicPartition.partition),
                      dashIfMissing(partition.committedOffset),
                      dashIfNegative(partition.logEndOffset), dashIfMissing(partition.lag),
                      dashIfEmpty(partition.memberId()), dashIfEmpty(partition.host()),
                      dashIfEmpty(partition.clientId())});
    table.print(out);
}

// kafka-share-groups --describe: the start offset, and the broker's lag (records not yet
// acknowledged), per partition the group has started on.
void printShareOffsets(QTextStream& out, const GroupSnapshot& group) {
    TextTable table({QStringLiteral("GROUP"), QStringLiteral("TOPIC"), QStringLiteral("PARTITION"),
                     QStringLiteral("START-OFFSET"), QStringLiteral("LAG")});
    for (const auto& partition : group.partitions) {
        if (!partition.committedOffset)
            continue; // assigned, but not started on: Kafka's tool does not list it
        table.addRow({group.groupId(), partition.topicPartition.topic,
                      QString::number(partition.topicPartition.partition),
                      dashIfMissing(partition.committedOffset), dashIfMissing(partition.lag)});
    }
    table.print(out);
}

// kafka-streams-groups --describe: the lag of every committed partition (input and
// repartition topics).
void printStreamsOffsets(QTextStream& out, const GroupSnapshot& group) {
    TextTable table({QStringLiteral("GROUP"), QStringLiteral("TOPIC"), QStringLiteral("PARTITION"),
                     QStringLiteral("OFFSET-LAG")});
    for (const auto& partition : group.partitions) {
        if (!partition.committedOffset)
            continue;
        table.addRow({group.groupId(), partition.topicPartition.topic,
                      QString::number(partition.topicPartition.partition),
                      dashIfMissing(partition.lag)});
    }
    table.print(out);
}

// The columns of Kafka 4.4's kafka-consumer-groups --describe --members [--verbose].
// GROUP-INSTANCE-ID is there only when a member is static; classic members have no epochs.
void printConsumerMembers(QTextStream& out, const GroupSnapshot& group, bool verbose) {
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
            row << dashIfMissing(member.memberEpoch) << assignmentText(member.assignment)
                << dashIfMissing(member.targetEpoch)
                << (member.targetAssignment ? assignmentText(*member.targetAssignment)
                                            : QStringLiteral("-"));
        table.addRow(row);
    }
    table.print(out);
}

void printShareMembers(QTextStream& out, const GroupSnapshot& group, bool verbose) {
    QStringList header{QStringLiteral("GROUP"), QStringLiteral("CONSUMER-ID"),
                       QStringLiteral("HOST"), QStringLiteral("CLIENT-ID"),
                       QStringLiteral("#PARTITIONS")};
    if (verbose)
        header.append(QStringLiteral("MEMBER-EPOCH"));
    header.append(QStringLiteral("ASSIGNMENT"));
    TextTable table(header);
    for (const auto& member : group.description.members) {
        QStringList row{group.groupId(), member.memberId, member.host, member.clientId,
                        QString::number(member.assignment.size())};
        if (verbose)
            row.append(dashIfMissing(member.memberEpoch));
        row.append(assignmentText(member.assignment));
        table.addRow(row);
    }
    table.print(out);
}

void printStreamsMembers(QTextStream& out, const GroupSnapshot& group, bool verbose) {
    const auto& description = group.description;
    QStringList header{QStringLiteral("GROUP")};
    if (verbose)
        header << QStringLiteral("TARGET-ASSIGNMENT-EPOCH") << QStringLiteral("TOPOLOGY-EPOCH");
    header.append(QStringLiteral("MEMBER"));
    if (verbose)
        header << QStringLiteral("MEMBER-PROTOCOL") << QStringLiteral("MEMBER-EPOCH");
    header << QStringLiteral("PROCESS") << QStringLiteral("CLIENT-ID")
           << QStringLiteral("ASSIGNMENTS");
    TextTable table(header);
    for (const auto& member : description.members) {
        QStringList row{group.groupId()};
        if (verbose)
            row << dashIfMissing(description.assignmentEpoch)
                << dashIfMissing(description.topologyEpoch);
        row.append(member.memberId);
        if (verbose)
            row << dashIfEmpty(member.memberProtocol) << dashIfMissing(member.memberEpoch);
        QString assignments = streamsTasksText(member.tasks.value_or(kafka::StreamsTasks()));
        if (verbose && member.targetTasks)
            assignments += streamsTasksText(*member.targetTasks, QStringLiteral("TARGET-"));
        row << member.processId << member.clientId << assignments;
        table.addRow(row);
    }
    table.print(out);
}

} // namespace

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

QString streamsTasksText(const kafka::StreamsTasks& tasks, const QString& prefix) {
    QString text;
    const auto append = [&](const char* kind, const QList<kafka::StreamsTaskIds>& ids) {
        if (ids.isEmpty())
            return;
        text += prefix + QLatin1String(kind) + QStringLiteral(": ");
        for (const kafka::StreamsTaskIds& id : ids) {
            QStringList partitions;
            for (int32_t partition : id.partitions)
                partitions.append(QString::number(partition));
            text += QStringLiteral("%1:[%2]; ").arg(id.subtopologyId, partitions.join(u','));
        }
    };
    append("ACTIVE", tasks.active);
    append("STANDBY", tasks.standby);
    append("WARMUP", tasks.warmup);
    return text;
}

void printOffsets(QTextStream& out, const GroupSnapshot& group) {
    switch (group.description.type) {
    case GroupType::Share:
        return printShareOffsets(out, group);
    case GroupType::Streams:
        return printStreamsOffsets(out, group);
    default:
        return printClassicOffsets(out, group);
    }
}

void printMembers(QTextStream& out, const GroupSnapshot& group, bool verbose) {
    switch (group.description.type) {
    case GroupType::Share:
        return printShareMembers(out, group, verbose);
    case GroupType::Streams:
        return printStreamsMembers(out, group, verbose);
    default:
        return printConsumerMembers(out, group, verbose);
    }
}

void printState(QTextStream& out, const GroupSnapshot& group, bool verbose) {
    const auto& description = group.description;
    const GroupType type = description.type;
    // kafka-streams-groups writes one space before the coordinator's id, the others two.
    const QString coordinator =
        coordinatorText(description.coordinator,
                        type == GroupType::Streams ? QStringLiteral(" ") : QStringLiteral("  "));
    QStringList header{QStringLiteral("GROUP"), QStringLiteral("COORDINATOR (ID)")};
    QStringList row{group.groupId(), coordinator};
    if (type != GroupType::Share) {
        header.append(type == GroupType::Streams ? QStringLiteral("ASSIGNOR")
                                                 : QStringLiteral("ASSIGNMENT-STRATEGY"));
        row.append(dashIfEmpty(description.partitionAssignor));
    }
    header.append(QStringLiteral("STATE"));
    row.append(kafka::groupStateName(description.state));
    if (verbose) {
        header << QStringLiteral("GROUP-EPOCH")
               << (type == GroupType::Share ? QStringLiteral("ASSIGNMENT-EPOCH")
                                            : QStringLiteral("TARGET-ASSIGNMENT-EPOCH"));
        row << dashIfMissing(description.groupEpoch) << dashIfMissing(description.assignmentEpoch);
    }
    header.append(QStringLiteral("#MEMBERS"));
    row.append(QString::number(description.members.size()));
    TextTable table(header);
    table.addRow(row);
    table.print(out);
}

QString noActiveMembersMessage(const GroupSnapshot& group) {
    switch (group.description.type) {
    case GroupType::Share:
        return QStringLiteral("Share group '%1' has no active members.").arg(group.groupId());
    case GroupType::Streams:
        return QStringLiteral("Streams group '%1' has no active members.").arg(group.groupId());
    default:
        return QStringLiteral("Consumer group '%1' has no active members.").arg(group.groupId());
    }
}

} // namespace groupscope::cli
