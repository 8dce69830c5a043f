#include "kafka/GroupProtocolAnswers.h"

#include "kafka/ClassicMemberAssignment.h"

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/ClusterConnections.h"
#include "kafka/protocol/MessageCodec.h"
#include "kafka/protocol/ProtocolError.h"

#include <librdkafka/rdkafka.h>

#include <algorithm>

namespace groupscope::kafka::detail {

using protocol::BrokerConnection;
using protocol::ClusterConnections;
using protocol::MessageCodec;
using protocol::Struct;
using protocol::StructList;

namespace {

// The Assignment structure of ConsumerGroupDescribe and ShareGroupDescribe members.
QList<TopicPartition> assignmentOf(const Struct& assignment) {
    QList<TopicPartition> partitions;
    for (const Struct& topic : assignment.structs("TopicPartitions"))
        for (int64_t partition : topic.integers("Partitions"))
            partitions.append({topic.string("TopicName"), int32_t(partition)});
    std::sort(partitions.begin(), partitions.end());
    return partitions;
}

QList<StreamsTaskIds> taskIdsOf(const StructList& tasks) {
    QList<StreamsTaskIds> ids;
    for (const Struct& task : tasks) {
        StreamsTaskIds id{task.string("SubtopologyId"), {}};
        for (int64_t partition : task.integers("Partitions"))
            id.partitions.append(int32_t(partition));
        std::sort(id.partitions.begin(), id.partitions.end());
        ids.append(id);
    }
    std::sort(ids.begin(), ids.end(),
              [](const auto& a, const auto& b) { return a.subtopologyId < b.subtopologyId; });
    return ids;
}

StreamsTasks tasksOf(const Struct& assignment) {
    return StreamsTasks{taskIdsOf(assignment.structs("ActiveTasks")),
                        taskIdsOf(assignment.structs("StandbyTasks")),
                        taskIdsOf(assignment.structs("WarmupTasks"))};
}

KafkaError groupError(const Struct& group, const QString& coordinator) {
    const int64_t code = group.integer("ErrorCode");
    if (code == 0)
        return {};
    const QString message = group.string("ErrorMessage");
    return KafkaError::fromCode(int(code), QStringLiteral("describing group %1 on %2%3")
                                               .arg(group.string("GroupId"), coordinator,
                                                    protocol::inParentheses(message)));
}

GroupDescription describedClassic(const Struct& group) {
    GroupDescription description;
    description.groupId = group.string("GroupId");
    description.state = groupStateFromName(group.string("GroupState"));
    description.type = GroupType::Classic;
    description.protocolType = group.string("ProtocolType");
    description.partitionAssignor = group.string("ProtocolData");
    const bool consumerProtocol = description.protocolType == u"consumer";
    for (const Struct& member : group.structs("Members")) {
        MemberDescription described;
        described.memberId = member.string("MemberId");
        described.groupInstanceId = member.string("GroupInstanceId");
        described.clientId = member.string("ClientId");
        described.host = member.string("ClientHost");
        if (consumerProtocol)
            described.assignment = classicMemberAssignment(member.bytes("MemberAssignment"));
        description.members.append(std::move(described));
    }
    return description;
}

// What consumer, share and streams groups have in common.
GroupDescription describedWithEpochs(const Struct& group, GroupType type,
                                     const QString& protocolType) {
    GroupDescription description;
    description.groupId = group.string("GroupId");
    description.state = groupStateFromName(group.string("GroupState"));
    description.type = type;
    description.protocolType = protocolType;
    description.groupEpoch = int32_t(group.integer("GroupEpoch"));
    description.assignmentEpoch = int32_t(group.integer("AssignmentEpoch"));
    return description;
}

MemberDescription memberWithEpoch(const Struct& member) {
    MemberDescription described;
    described.memberId = member.string("MemberId");
    described.clientId = member.string("ClientId");
    described.host = member.string("ClientHost");
    described.rackId = member.string("RackId");
    described.memberEpoch = int32_t(member.integer("MemberEpoch"));
    return described;
}

GroupDescription describedConsumer(const Struct& group) {
    GroupDescription description =
        describedWithEpochs(group, GroupType::Consumer, QStringLiteral("consumer"));
    description.partitionAssignor = group.string("AssignorName");
    for (const Struct& member : group.structs("Members")) {
        MemberDescription described = memberWithEpoch(member);
        described.groupInstanceId = member.string("InstanceId");
        described.assignment = assignmentOf(member.child("Assignment"));
        described.targetAssignment = assignmentOf(member.child("TargetAssignment"));
        // Kafka's tool prints the group's assignment epoch as each member's target epoch:
        // the epoch of the target assignment the member is converging on.
        described.targetEpoch = description.assignmentEpoch;
        description.members.append(std::move(described));
    }
    return description;
}

GroupDescription describedShare(const Struct& group) {
    GroupDescription description =
        describedWithEpochs(group, GroupType::Share, QStringLiteral("share"));
    description.partitionAssignor = group.string("AssignorName");
    for (const Struct& member : group.structs("Members")) {
        MemberDescription described = memberWithEpoch(member);
        described.assignment = assignmentOf(member.child("Assignment"));
        description.members.append(std::move(described));
    }
    return description;
}

GroupDescription describedStreams(const Struct& group) {
    GroupDescription description =
        describedWithEpochs(group, GroupType::Streams, QStringLiteral("streams"));
    description.partitionAssignor = group.string("AssignorName"); // v1 on
    if (!group.isNull("Topology"))
        description.topologyEpoch = int32_t(group.child("Topology").integer("Epoch"));
    for (const Struct& member : group.structs("Members")) {
        MemberDescription described = memberWithEpoch(member);
        described.groupInstanceId = member.string("InstanceId");
        described.processId = member.string("ProcessId");
        described.memberProtocol =
            member.boolean("IsClassic") ? QStringLiteral("classic") : QStringLiteral("streams");
        described.tasks = tasksOf(member.child("Assignment"));
        described.targetTasks = tasksOf(member.child("TargetAssignment"));
        described.targetEpoch = description.assignmentEpoch;
        description.members.append(std::move(described));
    }
    return description;
}

const protocol::ApiSpec& describeApiOf(GroupType type) {
    switch (type) {
    case GroupType::Consumer:
        return protocol::consumerGroupDescribeApi();
    case GroupType::Share:
        return protocol::shareGroupDescribeApi();
    case GroupType::Streams:
        return protocol::streamsGroupDescribeApi();
    case GroupType::Classic:
    case GroupType::Unknown:
        break;
    }
    return protocol::describeGroupsApi();
}

GroupDescription describedOf(GroupType type, const Struct& group) {
    switch (type) {
    case GroupType::Consumer:
        return describedConsumer(group);
    case GroupType::Share:
        return describedShare(group);
    case GroupType::Streams:
        return describedStreams(group);
    case GroupType::Classic:
    case GroupType::Unknown:
        break;
    }
    return describedClassic(group);
}

GroupDescription failedDescription(const QString& groupId, GroupType type, KafkaError error) {
    GroupDescription failed;
    failed.groupId = groupId;
    failed.type = type;
    failed.error = std::move(error);
    return failed;
}

// One group's OffsetFetch topics as its commit list, sorted by partition.
void readCommittedPartitions(QList<CommittedOffset>& committed, const StructList& topics) {
    // At the size the answer gives: grown one append at a time, a poll's lists at 100,000
    // groups took 102 MB (heaptrack).
    qsizetype answered = 0;
    for (const Struct& topic : topics)
        answered += topic.structs("Partitions").size();
    committed.reserve(committed.size() + answered);
    for (const Struct& topic : topics) {
        const QString topicName = topic.string("Name");
        for (const Struct& partition : topic.structs("Partitions")) {
            // Partitions without a commit come back with offset -1: left out.
            if (partition.integer("ErrorCode") != 0 || partition.integer("CommittedOffset") < 0)
                continue;
            committed.append(
                CommittedOffset{{topicName, int32_t(partition.integer("PartitionIndex"))},
                                partition.integer("CommittedOffset"),
                                partition.string("Metadata")});
        }
    }
    std::sort(committed.begin(), committed.end(),
              [](const auto& a, const auto& b) { return a.topicPartition < b.topicPartition; });
}

} // namespace

GroupListing listingOf(const Struct& group) {
    GroupListing listing;
    listing.groupId = group.string("GroupId");
    const QString protocolType = group.string("ProtocolType");
    listing.state = groupStateFromName(group.string("GroupState"));
    const QString typeName = group.string("GroupType");
    // Brokers before ListGroups v5 (Kafka 3.8) have classic groups only.
    listing.type = typeName.isEmpty() ? GroupType::Classic
                                      : groupTypeFromName(typeName).value_or(GroupType::Unknown);
    listing.isSimpleConsumerGroup = protocolType.isEmpty() && listing.type == GroupType::Classic;
    listing.protocolType = protocolType;
    return listing;
}

SentDescribe sendDescribe(const DescribeBatch& batch, GroupType type, const QStringList& groupIds,
                          bool retype) {
    SentDescribe sent{type, groupIds, retype, std::nullopt};
    std::optional<int16_t> version = batch.connection.version(describeApiOf(type));
    // A consumer group on a broker without ConsumerGroupDescribe can only be classic.
    if (!version && type == GroupType::Consumer) {
        sent.type = GroupType::Classic;
        sent.retype = false;
        version = batch.connection.version(describeApiOf(sent.type));
    }
    if (!version)
        return sent;
    const protocol::ApiSpec& api = describeApiOf(sent.type);
    Struct request = MessageCodec::make(api.request);
    request.set(api.key == protocol::ApiKey::DescribeGroups ? protocol::FieldName("Groups")
                                                            : protocol::FieldName("GroupIds"),
                groupIds);
    sent.pending = batch.connection.send(api, *version, request, batch.deadline);
    return sent;
}

DescribeOutcome describeOfType(const DescribeBatch& batch, GroupType type,
                               const QStringList& groupIds, bool retype) {
    return readDescribe(batch, sendDescribe(batch, type, groupIds, retype));
}

DescribeOutcome readDescribe(const DescribeBatch& batch, const SentDescribe& sent) {
    DescribeOutcome outcome;
    const GroupType type = sent.type;
    const QStringList& groupIds = sent.groupIds;
    if (!sent.pending) {
        for (const QString& groupId : groupIds)
            outcome.described.append(failedDescription(
                groupId, type,
                protocol::protocolError(RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE,
                                        QStringLiteral("%1 does not support %2, which describes "
                                                       "%3 groups such as %4")
                                            .arg(batch.coordinatorName,
                                                 QLatin1String(describeApiOf(type).name),
                                                 groupTypeName(type).toLower(), groupId))));
        return outcome;
    }
    Result<Struct> answer = batch.connection.receive(*sent.pending, batch.deadline);
    if (!answer) {
        for (const QString& groupId : groupIds)
            outcome.described.append(failedDescription(groupId, type, answer.error()));
        return outcome;
    }
    QStringList notFound;
    for (const Struct& group : answer.value().structs("Groups")) {
        const QString groupId = group.string("GroupId");
        const int64_t code = group.integer("ErrorCode");
        if (ClusterConnections::isCoordinatorMoving(code)) {
            outcome.coordinatorMoved.append(groupId);
            continue;
        }
        if (code == RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND) {
            notFound.append(groupId);
            continue;
        }
        if (KafkaError error = groupError(group, batch.coordinatorName)) {
            outcome.described.append(failedDescription(groupId, type, error));
            continue;
        }
        outcome.described.append(describedOf(type, group));
    }
    if (notFound.isEmpty())
        return outcome;
    // Not a group of this type: deleted since it was listed, or converted (a classic group
    // becomes a consumer group when a KIP-848 member joins it, and back when the last one
    // leaves). One more describe as the other consumer type tells which.
    const GroupType otherType =
        type == GroupType::Classic ? GroupType::Consumer : GroupType::Classic;
    if (sent.retype && batch.connection.version(describeApiOf(otherType))) {
        DescribeOutcome again = describeOfType(batch, otherType, notFound, false);
        outcome.described.append(again.described);
        outcome.coordinatorMoved.append(again.coordinatorMoved);
        return outcome;
    }
    // A group that does not exist is Dead with no members, as DescribeGroups before v6
    // answered and every view shows it.
    for (const QString& groupId : notFound) {
        GroupDescription missing;
        missing.groupId = groupId;
        missing.state = GroupState::Dead;
        missing.type = GroupType::Classic;
        outcome.described.append(missing);
    }
    return outcome;
}

std::function<QStringList()> fetchCommittedOffsets(BrokerConnection& connection,
                                                   int16_t newestVersion,
                                                   const QStringList& groupIds,
                                                   BrokerConnection::Deadline deadline,
                                                   QHash<QString, QList<CommittedOffset>>& offsets,
                                                   QHash<QString, KafkaError>& failures) {
    const protocol::ApiSpec& api = protocol::offsetFetchApi();
    const std::optional<int16_t> version = connection.version(api, newestVersion);
    if (!version)
        return [&connection, groupIds, &failures] {
            for (const QString& groupId : groupIds)
                failures.insert(groupId,
                                protocol::protocolError(RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE,
                                                        QStringLiteral("%1 speaks no OffsetFetch "
                                                                       "version Groupscope can use")
                                                            .arg(connection.address().toString())));
            return QStringList();
        };
    // What the reader does with each group's part of an answer.
    auto groupOutcome = [&offsets, &failures](QStringList& moved, const QString& groupId,
                                              int64_t code, const StructList& topics) {
        if (ClusterConnections::isCoordinatorMoving(code))
            moved.append(groupId);
        else if (code != 0)
            failures.insert(groupId,
                            KafkaError::fromCode(int(code), QStringLiteral("committed offsets of "
                                                                           "group %1")
                                                                .arg(groupId)));
        else
            readCommittedPartitions(offsets[groupId], topics);
    };

    if (*version >= 8) {
        Struct request = MessageCodec::make(api.request);
        for (const QString& groupId : groupIds)
            request.add("Groups").set("GroupId", groupId).setNull("Topics"); // null: all topics
        const BrokerConnection::PendingAnswer sent =
            connection.send(api, *version, request, deadline);
        return [&connection, groupIds, sent, deadline, &offsets, &failures, groupOutcome] {
            QStringList moved;
            // Each group's part is read as soon as it is decoded: decoded whole, the answer
            // for 10,000 groups of ten partitions took 21.8 MB, ten times its bytes.
            const MessageCodec::StreamedArray groups{
                "Groups", [&](const Struct& group) {
                    groupOutcome(moved, group.string("GroupId"), group.integer("ErrorCode"),
                                 group.structs("Topics"));
                }};
            const Result<Struct> answer = connection.receive(sent, deadline, &groups);
            if (!answer) { // nothing read from a malformed answer stands
                moved.clear();
                for (const QString& groupId : groupIds) {
                    offsets.remove(groupId);
                    failures.insert(groupId, answer.error());
                }
            }
            return moved;
        };
    }
    // Brokers before Kafka 3.0 take one group per OffsetFetch, asked one after the other
    // (a broker reads a connection's next request only once it answered the last).
    return [&connection, groupIds, version, deadline, &failures, groupOutcome, &api] {
        QStringList moved;
        for (const QString& groupId : groupIds) {
            Struct request = MessageCodec::make(api.request);
            request.set("GroupId", groupId).setNull("Topics");
            Result<Struct> answer = connection.call(api, *version, request, deadline);
            if (!answer) {
                failures.insert(groupId, answer.error());
                continue;
            }
            groupOutcome(moved, groupId, answer.value().integer("ErrorCode"),
                         answer.value().structs("Topics"));
        }
        return moved;
    };
}

} // namespace groupscope::kafka::detail
