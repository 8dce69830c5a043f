#include "offsetstopic/OffsetsTopicDecoder.h"

#include "kafka/protocol/WireReader.h"
#include "offsetstopic/ConsumerGroupRecordDecoder.h"
#include "offsetstopic/OffsetsTopicConsumerProtocol.h"
#include "offsetstopic/OffsetsTopicDecodeSupport.h"

namespace groupscope::offsetstopic {

namespace {

const QString keyPart = QStringLiteral("key");
const QString valuePart = QStringLiteral("value");

using detail::errorFrom;
using detail::readValueVersion;
using detail::unknownValueVersion;

QString versioned(const char* structure, int16_t version) {
    return detail::versioned(QLatin1String(structure), version);
}

OffsetsTopicRecord decodeOffsetCommitValue(OffsetCommit commit, QByteArrayView value) {
    WireReader reader(value);
    const int16_t version = readValueVersion(reader);
    if (reader.failed())
        return errorFrom(reader, valuePart, QStringLiteral("OffsetCommitValue"),
                         commit.recordTimestamp);
    if (version > OffsetsTopicDecoder::newestOffsetCommitValueVersion)
        return unknownValueVersion(QStringLiteral("OffsetCommitValue"), commit.keyVersion, version,
                                   OffsetsTopicDecoder::newestOffsetCommitValueVersion,
                                   commit.recordTimestamp);
    const bool flexible = version >= 4;
    commit.valueVersion = version;
    commit.offset = reader.readInt64("offset");
    if (version >= 3) {
        const int32_t leaderEpoch = reader.readInt32("leaderEpoch");
        if (leaderEpoch != -1)
            commit.leaderEpoch = leaderEpoch;
    }
    commit.metadata = reader.readString("metadata", flexible);
    commit.commitTimestamp = reader.readInt64("commitTimestamp");
    if (version == 1)
        commit.expireTimestamp = reader.readInt64("expireTimestamp");
    if (flexible)
        reader.skipTaggedFields("taggedFields");
    reader.expectEnd("end");
    if (reader.failed())
        return errorFrom(reader, valuePart, versioned("OffsetCommitValue", version),
                         commit.recordTimestamp);
    return commit;
}

// The fewest bytes one member can take in a GroupMetadataValue of this version.
int minimumMemberSize(int16_t version) {
    if (version >= 4) // six one-byte compact lengths, two int32, the tagged-field count
        return 6 + 8 + 1;
    int size = 2 + 2 + 2 + 4 + 4 + 4; // memberId, clientId, clientHost, sessionTimeout, bytes
    if (version >= 1)
        size += 4; // rebalanceTimeout
    if (version >= 3)
        size += 2; // groupInstanceId
    return size;
}

// The subscription and assignment bytes are only decoded for the consumer protocol; a
// failure there is attached to the member rather than failing the whole record.
void decodeConsumerProtocol(GroupMemberMetadata& member, QByteArrayView subscription,
                            QByteArrayView assignment) {
    if (!subscription.isEmpty()) {
        auto decoded = OffsetsTopicConsumerProtocol::decodeSubscription(subscription);
        if (auto* value = std::get_if<ConsumerSubscription>(&decoded))
            member.subscription = std::move(*value);
        else
            member.subscriptionError = std::get<OffsetsTopicDecodeError>(decoded).toString();
    }
    // A member that joined but has not been assigned yet has empty assignment bytes.
    if (!assignment.isEmpty()) {
        auto decoded = OffsetsTopicConsumerProtocol::decodeAssignment(assignment);
        if (auto* value = std::get_if<ConsumerAssignment>(&decoded))
            member.assignment = std::move(*value);
        else
            member.assignmentError = std::get<OffsetsTopicDecodeError>(decoded).toString();
    }
}

OffsetsTopicRecord decodeGroupMetadataValue(GroupMetadata group, QByteArrayView value) {
    WireReader reader(value);
    const int16_t version = readValueVersion(reader);
    if (reader.failed())
        return errorFrom(reader, valuePart, QStringLiteral("GroupMetadataValue"),
                         group.recordTimestamp);
    if (version > OffsetsTopicDecoder::newestGroupMetadataValueVersion)
        return unknownValueVersion(QStringLiteral("GroupMetadataValue"), group.keyVersion, version,
                                   OffsetsTopicDecoder::newestGroupMetadataValueVersion,
                                   group.recordTimestamp);
    const bool flexible = version >= 4;
    group.valueVersion = version;
    group.protocolType = reader.readString("protocolType", flexible);
    group.generation = reader.readInt32("generation");
    group.protocol = reader.readNullableString("protocol", flexible).value_or(QString());
    group.leader = reader.readNullableString("leader", flexible).value_or(QString());
    if (version >= 2) {
        const int64_t timestamp = reader.readInt64("currentStateTimestamp");
        if (timestamp != -1)
            group.currentStateTimestamp = timestamp;
    }
    const bool consumerProtocol = group.protocolType == QLatin1String("consumer");
    const int memberCount = reader.readArrayLength("members", flexible, minimumMemberSize(version));
    for (int i = 0; i < memberCount && !reader.failed(); ++i) {
        GroupMemberMetadata member;
        member.memberId = reader.readString("memberId", flexible);
        if (version >= 3)
            member.groupInstanceId =
                reader.readNullableString("groupInstanceId", flexible).value_or(QString());
        member.clientId = reader.readString("clientId", flexible);
        member.clientHost = reader.readString("clientHost", flexible);
        if (version >= 1)
            member.rebalanceTimeoutMs = reader.readInt32("rebalanceTimeout");
        member.sessionTimeoutMs = reader.readInt32("sessionTimeout");
        const QByteArrayView subscription = reader.readBytes("subscription", flexible);
        const QByteArrayView assignment = reader.readBytes("assignment", flexible);
        if (flexible)
            reader.skipTaggedFields("members.taggedFields");
        if (reader.failed())
            break;
        member.subscriptionSize = int(subscription.size());
        member.assignmentSize = int(assignment.size());
        if (consumerProtocol)
            decodeConsumerProtocol(member, subscription, assignment);
        group.members.append(std::move(member));
    }
    if (flexible)
        reader.skipTaggedFields("taggedFields");
    reader.expectEnd("end");
    if (reader.failed())
        return errorFrom(reader, valuePart, versioned("GroupMetadataValue", version),
                         group.recordTimestamp);
    return group;
}

} // namespace

OffsetsTopicRecord OffsetsTopicDecoder::decodeRecord(QByteArrayView key,
                                                     std::optional<QByteArrayView> value,
                                                     int64_t recordTimestamp) {
    WireReader reader(key);
    const int16_t keyVersion = reader.readInt16("version");
    if (!reader.failed() && keyVersion < 0)
        reader.fail("version", 0, QStringLiteral("negative key version %1").arg(keyVersion));
    if (reader.failed())
        return errorFrom(reader, keyPart, QStringLiteral("record key"), recordTimestamp);

    if (keyVersion == 0 || keyVersion == 1) {
        OffsetCommit commit;
        commit.keyVersion = keyVersion;
        commit.recordTimestamp = recordTimestamp;
        commit.group = reader.readString("group", false);
        commit.topicPartition.topic = reader.readString("topic", false);
        commit.topicPartition.partition = reader.readInt32("partition");
        reader.expectEnd("end");
        if (reader.failed())
            return errorFrom(reader, keyPart, versioned("OffsetCommitKey", keyVersion),
                             recordTimestamp);
        if (!value) {
            commit.isTombstone = true;
            return commit;
        }
        return decodeOffsetCommitValue(std::move(commit), *value);
    }

    if (keyVersion == 2) {
        GroupMetadata group;
        group.keyVersion = keyVersion;
        group.recordTimestamp = recordTimestamp;
        group.group = reader.readString("group", false);
        reader.expectEnd("end");
        if (reader.failed())
            return errorFrom(reader, keyPart, versioned("GroupMetadataKey", keyVersion),
                             recordTimestamp);
        if (!value) {
            group.isTombstone = true;
            return group;
        }
        return decodeGroupMetadataValue(std::move(group), *value);
    }

    if (ConsumerGroupRecordDecoder::handles(keyVersion))
        return ConsumerGroupRecordDecoder::decode(keyVersion, reader, value, recordTimestamp);

    // Share groups (9-15), streams groups (16+) and whatever comes next: counted, skipped.
    UnknownOffsetsTopicRecord unknown;
    unknown.keyVersion = keyVersion;
    unknown.ofAnotherGroupType =
        keyVersion >= firstShareGroupRecordType && keyVersion <= lastStreamsGroupRecordType;
    unknown.description =
        QStringLiteral("record type %1 is not an offset commit, classic group or consumer "
                       "group record (share and streams group records are not decoded)")
            .arg(keyVersion);
    unknown.recordTimestamp = recordTimestamp;
    return unknown;
}

OffsetsTopicRecord OffsetsTopicDecoder::decode(QByteArrayView key,
                                               std::optional<QByteArrayView> value,
                                               int64_t recordTimestamp) {
    OffsetsTopicRecord record = decodeRecord(key, value, recordTimestamp);
    std::visit(
        [this](const auto& decoded) {
            using Decoded = std::decay_t<decltype(decoded)>;
            if constexpr (std::is_same_v<Decoded, OffsetCommit>)
                ++m_statistics.offsetCommits;
            else if constexpr (std::is_same_v<Decoded, GroupMetadata>)
                ++m_statistics.groupMetadata;
            else if constexpr (std::is_same_v<Decoded, ConsumerGroupRecord>)
                ++m_statistics.consumerGroupRecords;
            else if constexpr (std::is_same_v<Decoded, UnknownOffsetsTopicRecord>)
                ++(decoded.ofAnotherGroupType ? m_statistics.otherGroupTypeRecords
                                              : m_statistics.unknownVersions);
            else
                ++m_statistics.errors;
        },
        record);
    return record;
}

} // namespace groupscope::offsetstopic
