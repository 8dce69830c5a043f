#include "offsetstopic/ClassicGroupRecords.h"

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/CoordinatorRecords.h"
#include "offsetstopic/RecordPartDecoder.h"

#include <algorithm>

namespace groupscope::offsetstopic {

namespace {

using kafka::protocol::MessageCodec;
using kafka::protocol::MessageSpec;
using kafka::protocol::Struct;
using kafka::protocol::StructList;

// -1, Kafka's "none", as an absent value.
template <typename T> std::optional<T> unlessMinusOne(int64_t value) {
    return value == -1 ? std::nullopt : std::optional<T>(T(value));
}

int sizeOrMinusOne(const Struct& message, kafka::protocol::FieldName field) {
    return message.isNull(field) ? -1 : int(message.bytes(field).size());
}

QList<kafka::TopicPartition> topicPartitions(const StructList& topics) {
    QList<kafka::TopicPartition> partitions;
    for (const Struct& topic : topics)
        for (int64_t partition : topic.integers("Partitions"))
            partitions.append({topic.string("Topic"), int32_t(partition)});
    return partitions;
}

// The consumer protocol's bytes: a version, then the spec's structure in that version (or
// in the newest known, for newer versions).
std::variant<Struct, OffsetsTopicDecodeError> decodeConsumerProtocol(const MessageSpec& spec,
                                                                     QByteArrayView bytes,
                                                                     const QString& part,
                                                                     int16_t& version) {
    auto leading =
        detail::leadingVersion(bytes, part, QString::fromLatin1(spec.name), /*timestamp*/ -1);
    if (auto* error = std::get_if<OffsetsTopicDecodeError>(&leading))
        return std::move(*error);
    version = std::get<int16_t>(leading);
    const int16_t readAs = std::min(version, spec.validVersions.last);
    detail::DecodedPart decoded =
        detail::decodePart(spec, readAs, bytes, part, MessageCodec::Trailing::Ignored, -1);
    if (auto* error = std::get_if<OffsetsTopicDecodeError>(&decoded))
        error->structure = QStringLiteral("%1 v%2").arg(QLatin1String(spec.name)).arg(version);
    return decoded;
}

// Decoded only for the "consumer" protocol type: other protocols (Kafka Connect, for one)
// put their own formats in these bytes. A failure there is attached to the member rather
// than failing the whole record.
void decodeConsumerProtocol(GroupMemberMetadata& member, const QByteArray& subscription,
                            const QByteArray& assignment) {
    if (!subscription.isEmpty()) {
        auto decoded = ClassicGroupRecords::decodeSubscription(subscription);
        if (auto* value = std::get_if<ConsumerSubscription>(&decoded))
            member.subscription = std::move(*value);
        else
            member.subscriptionError = std::get<OffsetsTopicDecodeError>(decoded).toString();
    }
    // A member that joined but has not been assigned yet has empty assignment bytes.
    if (!assignment.isEmpty()) {
        auto decoded = ClassicGroupRecords::decodeAssignment(assignment);
        if (auto* value = std::get_if<ConsumerAssignment>(&decoded))
            member.assignment = std::move(*value);
        else
            member.assignmentError = std::get<OffsetsTopicDecodeError>(decoded).toString();
    }
}

GroupMemberMetadata memberOf(const Struct& member, bool consumerProtocol) {
    GroupMemberMetadata metadata;
    metadata.memberId = member.string("MemberId");
    metadata.groupInstanceId = member.string("GroupInstanceId");
    metadata.clientId = member.string("ClientId");
    metadata.clientHost = member.string("ClientHost");
    if (member.has("RebalanceTimeout"))
        metadata.rebalanceTimeoutMs = int32_t(member.integer("RebalanceTimeout"));
    metadata.sessionTimeoutMs = int32_t(member.integer("SessionTimeout"));
    const QByteArray subscription = member.bytes("Subscription");
    const QByteArray assignment = member.bytes("Assignment");
    metadata.subscriptionSize = int(subscription.size());
    metadata.assignmentSize = int(assignment.size());
    if (consumerProtocol)
        decodeConsumerProtocol(metadata, subscription, assignment);
    return metadata;
}

} // namespace

OffsetCommit ClassicGroupRecords::offsetCommit(int16_t keyType, const Struct& key,
                                               const std::optional<Struct>& value,
                                               int16_t valueVersion, int64_t recordTimestamp) {
    OffsetCommit commit;
    commit.keyVersion = keyType;
    commit.recordTimestamp = recordTimestamp;
    commit.group = key.string("Group");
    commit.topicPartition = {key.string("Topic"), int32_t(key.integer("Partition"))};
    if (!value) {
        commit.isTombstone = true;
        return commit;
    }
    commit.valueVersion = valueVersion;
    commit.offset = value->integer("Offset");
    commit.leaderEpoch = unlessMinusOne<int32_t>(value->integer("LeaderEpoch"));
    commit.metadata = value->string("Metadata");
    commit.commitTimestamp = value->integer("CommitTimestamp");
    if (value->has("ExpireTimestamp"))
        commit.expireTimestamp = value->integer("ExpireTimestamp");
    return commit;
}

GroupMetadata ClassicGroupRecords::groupMetadata(const Struct& key,
                                                 const std::optional<Struct>& value,
                                                 int16_t valueVersion, int64_t recordTimestamp) {
    GroupMetadata group;
    group.keyVersion = int16_t(kafka::protocol::CoordinatorRecordType::GroupMetadata);
    group.recordTimestamp = recordTimestamp;
    group.group = key.string("Group");
    if (!value) {
        group.isTombstone = true;
        return group;
    }
    group.valueVersion = valueVersion;
    group.protocolType = value->string("ProtocolType");
    group.generation = int32_t(value->integer("Generation"));
    group.protocol = value->string("Protocol"); // empty for null
    group.leader = value->string("Leader");
    group.currentStateTimestamp = unlessMinusOne<int64_t>(value->integer("CurrentStateTimestamp"));
    const bool consumerProtocol = group.protocolType == QLatin1String("consumer");
    for (const Struct& member : value->structs("Members"))
        group.members.append(memberOf(member, consumerProtocol));
    return group;
}

std::variant<ConsumerAssignment, OffsetsTopicDecodeError>
ClassicGroupRecords::decodeAssignment(QByteArrayView bytes) {
    ConsumerAssignment assignment;
    auto decoded = decodeConsumerProtocol(kafka::protocol::consumerProtocolAssignment(), bytes,
                                          QStringLiteral("assignment"), assignment.version);
    if (auto* error = std::get_if<OffsetsTopicDecodeError>(&decoded))
        return std::move(*error);
    const Struct& message = std::get<Struct>(decoded);
    assignment.partitions = topicPartitions(message.structs("AssignedPartitions"));
    assignment.userDataSize = sizeOrMinusOne(message, "UserData");
    return assignment;
}

std::variant<ConsumerSubscription, OffsetsTopicDecodeError>
ClassicGroupRecords::decodeSubscription(QByteArrayView bytes) {
    ConsumerSubscription subscription;
    auto decoded = decodeConsumerProtocol(kafka::protocol::consumerProtocolSubscription(), bytes,
                                          QStringLiteral("subscription"), subscription.version);
    if (auto* error = std::get_if<OffsetsTopicDecodeError>(&decoded))
        return std::move(*error);
    const Struct& message = std::get<Struct>(decoded);
    subscription.topics = message.strings("Topics");
    subscription.userDataSize = sizeOrMinusOne(message, "UserData");
    subscription.ownedPartitions = topicPartitions(message.structs("OwnedPartitions"));
    subscription.generationId = unlessMinusOne<int32_t>(message.integer("GenerationId"));
    return subscription;
}

} // namespace groupscope::offsetstopic
