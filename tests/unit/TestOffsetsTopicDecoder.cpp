#include "offsetstopic/ClassicGroupRecords.h"
#include "offsetstopic/OffsetsTopicDecoder.h"

#include "KafkaRecordWriter.h"

#include <QRandomGenerator>
#include <QTest>

using namespace groupscope::offsetstopic;
using groupscope::kafka::TopicPartition;
using groupscope::test::RecordWriter;

namespace {

const QString groupId = QStringLiteral("payments");
const QString topicName = QStringLiteral("orders");

QByteArray offsetCommitKey(int16_t keyVersion = 1, int32_t partition = 3) {
    return RecordWriter()
        .int16(keyVersion)
        .string(groupId)
        .string(topicName)
        .int32(partition)
        .bytes();
}

QByteArray groupMetadataKey() {
    return RecordWriter().int16(2).string(groupId).bytes();
}

QByteArray offsetCommitValue(int16_t version, int64_t offset = 4242, int32_t leaderEpoch = 7,
                             const QString& metadata = QStringLiteral("meta"),
                             int64_t commitTimestamp = 1700000000123) {
    const bool flexible = version >= 4;
    RecordWriter writer;
    writer.int16(version).int64(offset);
    if (version >= 3)
        writer.int32(leaderEpoch);
    writer.string(metadata, flexible).int64(commitTimestamp);
    if (version == 1)
        writer.int64(commitTimestamp + 86400000);
    if (flexible)
        writer.noTaggedFields();
    return writer.bytes();
}

QByteArray assignmentBytes(int16_t version, const QList<QPair<QString, QList<int32_t>>>& topics,
                           const QByteArray& userData = QByteArray("ud")) {
    RecordWriter writer;
    writer.int16(version).arrayLength(int(topics.size()));
    for (const auto& [topic, partitions] : topics) {
        writer.string(topic).arrayLength(int(partitions.size()));
        for (int32_t partition : partitions)
            writer.int32(partition);
    }
    writer.bytes(userData);
    return writer.bytes();
}

QByteArray subscriptionBytes(int16_t version, const QStringList& topics,
                             const QList<QPair<QString, QList<int32_t>>>& owned = {},
                             int32_t generationId = 9) {
    RecordWriter writer;
    writer.int16(version).arrayLength(int(topics.size()));
    for (const QString& topic : topics)
        writer.string(topic);
    writer.nullBytes();
    if (version >= 1) {
        writer.arrayLength(int(owned.size()));
        for (const auto& [topic, partitions] : owned) {
            writer.string(topic).arrayLength(int(partitions.size()));
            for (int32_t partition : partitions)
                writer.int32(partition);
        }
    }
    if (version >= 2)
        writer.int32(generationId);
    return writer.bytes();
}

struct MemberSpec {
    QString memberId;
    QString instanceId; // empty: null
    QByteArray subscription;
    QByteArray assignment;
};

QByteArray groupMetadataValue(int16_t version, const QList<MemberSpec>& members,
                              const QString& protocolType = QStringLiteral("consumer"),
                              bool nullProtocolAndLeader = false, bool withTaggedField = false) {
    const bool flexible = version >= 4;
    RecordWriter writer;
    writer.int16(version).string(protocolType, flexible).int32(17);
    if (nullProtocolAndLeader)
        writer.nullString(flexible).nullString(flexible);
    else
        writer.string(QStringLiteral("range"), flexible)
            .string(members.isEmpty() ? QString() : members.first().memberId, flexible);
    if (version >= 2)
        writer.int64(1700000000999);
    writer.arrayLength(int(members.size()), flexible);
    for (const MemberSpec& member : members) {
        writer.string(member.memberId, flexible);
        if (version >= 3) {
            if (member.instanceId.isEmpty())
                writer.nullString(flexible);
            else
                writer.string(member.instanceId, flexible);
        }
        writer.string(QStringLiteral("client-") + member.memberId, flexible)
            .string(QStringLiteral("/10.0.0.1"), flexible);
        if (version >= 1)
            writer.int32(300000);
        writer.int32(45000).bytes(member.subscription, flexible).bytes(member.assignment, flexible);
        if (flexible)
            writer.noTaggedFields();
    }
    if (flexible) {
        if (withTaggedField) // an unknown tag 5 with 3 bytes of data
            writer.unsignedVarint(1).unsignedVarint(5).unsignedVarint(3).raw("xyz");
        else
            writer.noTaggedFields();
    }
    return writer.bytes();
}

QList<MemberSpec> twoConsumers() {
    return {{QStringLiteral("m-1"), QStringLiteral("static-1"), subscriptionBytes(0, {topicName}),
             assignmentBytes(0, {{topicName, {0, 1}}, {QStringLiteral("audit"), {4}}})},
            {QStringLiteral("m-2"), QString(),
             subscriptionBytes(1, {topicName}, {{topicName, {2}}}),
             assignmentBytes(1, {{topicName, {2}}}, QByteArray())}};
}

template <typename T> T expect(const OffsetsTopicRecord& record) {
    if (const auto* error = std::get_if<OffsetsTopicDecodeError>(&record))
        qWarning("unexpected decode error: %s", qPrintable(error->toString()));
    const T* value = std::get_if<T>(&record);
    if (!value)
        return T{};
    return *value;
}

OffsetsTopicDecodeError expectError(const OffsetsTopicRecord& record) {
    const auto* error = std::get_if<OffsetsTopicDecodeError>(&record);
    if (!error)
        return OffsetsTopicDecodeError{QStringLiteral("none"), {}, {}, -1, {}, -1};
    return *error;
}

} // namespace

class TestOffsetsTopicDecoder : public QObject {
    Q_OBJECT
private slots:
    void offsetCommitValueVersions_data() {
        QTest::addColumn<int>("keyVersion");
        QTest::addColumn<int>("valueVersion");
        QTest::newRow("key v0, value v0") << 0 << 0;
        QTest::newRow("key v1, value v1 (expire timestamp)") << 1 << 1;
        QTest::newRow("key v1, value v2") << 1 << 2;
        QTest::newRow("key v1, value v3 (leader epoch)") << 1 << 3;
        QTest::newRow("key v1, value v4 (flexible)") << 1 << 4;
    }
    void offsetCommitValueVersions() {
        QFETCH(int, keyVersion);
        QFETCH(int, valueVersion);
        const auto record = OffsetsTopicDecoder::decodeRecord(
            offsetCommitKey(int16_t(keyVersion)), offsetCommitValue(int16_t(valueVersion)), 55);
        QVERIFY(std::holds_alternative<OffsetCommit>(record));
        const auto commit = std::get<OffsetCommit>(record);
        QCOMPARE(commit.group, groupId);
        QCOMPARE(commit.topicPartition, (TopicPartition{topicName, 3}));
        QCOMPARE(commit.offset, int64_t(4242));
        QCOMPARE(commit.metadata, QStringLiteral("meta"));
        QCOMPARE(commit.commitTimestamp, int64_t(1700000000123));
        QCOMPARE(commit.keyVersion, int16_t(keyVersion));
        QCOMPARE(commit.valueVersion, int16_t(valueVersion));
        QCOMPARE(commit.recordTimestamp, int64_t(55));
        QVERIFY(!commit.isTombstone);
        QCOMPARE(commit.leaderEpoch.has_value(), valueVersion >= 3);
        if (commit.leaderEpoch)
            QCOMPARE(*commit.leaderEpoch, 7);
        QCOMPARE(commit.expireTimestamp.has_value(), valueVersion == 1);
        if (commit.expireTimestamp)
            QCOMPARE(*commit.expireTimestamp, int64_t(1700000000123 + 86400000));
    }

    void leaderEpochMinusOneMeansNone() {
        const auto commit = expect<OffsetCommit>(
            OffsetsTopicDecoder::decodeRecord(offsetCommitKey(), offsetCommitValue(3, 10, -1), 0));
        QCOMPARE(commit.offset, int64_t(10));
        QVERIFY(!commit.leaderEpoch.has_value());
    }

    void offsetCommitTombstone() {
        const auto record =
            OffsetsTopicDecoder::decodeRecord(offsetCommitKey(1, 8), std::nullopt, 77);
        QVERIFY(std::holds_alternative<OffsetCommit>(record));
        const auto commit = std::get<OffsetCommit>(record);
        QVERIFY(commit.isTombstone);
        QCOMPARE(commit.topicPartition, (TopicPartition{topicName, 8}));
        QCOMPARE(commit.group, groupId);
        QCOMPARE(commit.recordTimestamp, int64_t(77));
        QCOMPARE(commit.valueVersion, int16_t(-1));
    }

    void groupMetadataVersions_data() {
        QTest::addColumn<int>("version");
        for (int version = 0; version <= 4; ++version)
            QTest::addRow("value v%d", version) << version;
    }
    void groupMetadataVersions() {
        QFETCH(int, version);
        const auto record = OffsetsTopicDecoder::decodeRecord(
            groupMetadataKey(), groupMetadataValue(int16_t(version), twoConsumers()), 99);
        QVERIFY2(std::holds_alternative<GroupMetadata>(record),
                 qPrintable(expectError(record).toString()));
        const auto group = std::get<GroupMetadata>(record);
        QCOMPARE(group.group, groupId);
        QCOMPARE(group.protocolType, QStringLiteral("consumer"));
        QCOMPARE(group.generation, 17);
        QCOMPARE(group.protocol, QStringLiteral("range"));
        QCOMPARE(group.leader, QStringLiteral("m-1"));
        QCOMPARE(group.valueVersion, int16_t(version));
        QCOMPARE(group.recordTimestamp, int64_t(99));
        QVERIFY(!group.isTombstone);
        QCOMPARE(group.currentStateTimestamp.has_value(), version >= 2);
        if (group.currentStateTimestamp)
            QCOMPARE(*group.currentStateTimestamp, int64_t(1700000000999));
        QCOMPARE(group.members.size(), 2);

        const GroupMemberMetadata& first = group.members[0];
        QCOMPARE(first.memberId, QStringLiteral("m-1"));
        QCOMPARE(first.groupInstanceId, version >= 3 ? QStringLiteral("static-1") : QString());
        QCOMPARE(first.clientId, QStringLiteral("client-m-1"));
        QCOMPARE(first.clientHost, QStringLiteral("/10.0.0.1"));
        QCOMPARE(first.sessionTimeoutMs, 45000);
        QCOMPARE(first.rebalanceTimeoutMs.has_value(), version >= 1);
        if (first.rebalanceTimeoutMs)
            QCOMPARE(*first.rebalanceTimeoutMs, 300000);
        QVERIFY(first.subscription.has_value());
        QCOMPARE(first.subscription->topics, QStringList{topicName});
        QCOMPARE(first.subscription->userDataSize, -1);
        QVERIFY(first.assignment.has_value());
        QCOMPARE(
            first.assignment->partitions,
            (QList<TopicPartition>{{topicName, 0}, {topicName, 1}, {QStringLiteral("audit"), 4}}));
        QCOMPARE(first.assignment->userDataSize, 2);
        QCOMPARE(first.assignmentSize, int(twoConsumers()[0].assignment.size()));
        QVERIFY(first.assignmentError.isEmpty());

        const GroupMemberMetadata& second = group.members[1];
        QCOMPARE(second.memberId, QStringLiteral("m-2"));
        QVERIFY(second.groupInstanceId.isEmpty());
        QCOMPARE(second.subscription->version, int16_t(1));
        QCOMPARE(second.subscription->ownedPartitions, (QList<TopicPartition>{{topicName, 2}}));
        QCOMPARE(second.assignment->version, int16_t(1));
        QCOMPARE(second.assignment->partitions, (QList<TopicPartition>{{topicName, 2}}));
        QCOMPARE(second.assignment->userDataSize, 0);
    }

    void flexibleVersionSkipsUnknownTaggedFields() {
        const auto group = expect<GroupMetadata>(OffsetsTopicDecoder::decodeRecord(
            groupMetadataKey(),
            groupMetadataValue(4, twoConsumers(), QStringLiteral("consumer"), false, true), 0));
        QCOMPARE(group.members.size(), 2);
        QCOMPARE(group.generation, 17);
    }

    void emptyGroupHasNoProtocolLeaderOrMembers() {
        const auto group = expect<GroupMetadata>(OffsetsTopicDecoder::decodeRecord(
            groupMetadataKey(), groupMetadataValue(3, {}, QStringLiteral("consumer"), true), 0));
        QCOMPARE(group.generation, 17);
        QVERIFY(group.protocol.isEmpty());
        QVERIFY(group.leader.isEmpty());
        QVERIFY(group.members.isEmpty());
        QCOMPARE(group.valueVersion, int16_t(3));
    }

    void groupMetadataTombstone() {
        const auto record = OffsetsTopicDecoder::decodeRecord(groupMetadataKey(), std::nullopt, 5);
        QVERIFY(std::holds_alternative<GroupMetadata>(record));
        QVERIFY(std::get<GroupMetadata>(record).isTombstone);
        QCOMPARE(std::get<GroupMetadata>(record).group, groupId);
    }

    void otherProtocolTypesKeepTheirBytesUndecoded() {
        const QList<MemberSpec> members{{QStringLiteral("worker-1"), QString(),
                                         QByteArray("\x00\x01junk", 6), QByteArray("xx")}};
        const auto group = expect<GroupMetadata>(OffsetsTopicDecoder::decodeRecord(
            groupMetadataKey(), groupMetadataValue(3, members, QStringLiteral("connect")), 0));
        QCOMPARE(group.members.size(), 1);
        QVERIFY(!group.members[0].subscription.has_value());
        QVERIFY(!group.members[0].assignment.has_value());
        QVERIFY(group.members[0].assignmentError.isEmpty());
        QCOMPARE(group.members[0].subscriptionSize, 6);
        QCOMPARE(group.members[0].assignmentSize, 2);
    }

    void memberNotYetAssignedHasNoAssignment() {
        const QList<MemberSpec> members{
            {QStringLiteral("m-1"), QString(), subscriptionBytes(0, {topicName}), QByteArray()}};
        const auto group = expect<GroupMetadata>(OffsetsTopicDecoder::decodeRecord(
            groupMetadataKey(), groupMetadataValue(2, members), 0));
        QCOMPARE(group.members.size(), 1);
        QVERIFY(!group.members[0].assignment.has_value());
        QVERIFY(group.members[0].assignmentError.isEmpty());
        QCOMPARE(group.members[0].assignmentSize, 0);
    }

    void corruptAssignmentIsReportedOnTheMemberOnly() {
        QByteArray assignment = assignmentBytes(0, {{topicName, {0, 1}}});
        assignment.truncate(assignment.size() - 3);
        const QList<MemberSpec> members{
            {QStringLiteral("m-1"), QString(), subscriptionBytes(0, {topicName}), assignment}};
        const auto group = expect<GroupMetadata>(OffsetsTopicDecoder::decodeRecord(
            groupMetadataKey(), groupMetadataValue(3, members), 0));
        QCOMPARE(group.members.size(), 1);
        QVERIFY(!group.members[0].assignment.has_value());
        QVERIFY2(group.members[0].assignmentError.contains(
                     QStringLiteral("ConsumerProtocolAssignment v0 field 'UserData'")),
                 qPrintable(group.members[0].assignmentError));
        QVERIFY(group.members[0].subscription.has_value());
    }

    void newerConsumerProtocolVersionsReadTheKnownFields() {
        // Kafka's rule: new consumer-protocol versions only append fields.
        const QByteArray assignment =
            assignmentBytes(3, {{topicName, {5}}}) + QByteArray("future-field");
        const auto decoded = ClassicGroupRecords::decodeAssignment(assignment);
        QVERIFY(std::holds_alternative<ConsumerAssignment>(decoded));
        QCOMPARE(std::get<ConsumerAssignment>(decoded).version, int16_t(3));
        QCOMPARE(std::get<ConsumerAssignment>(decoded).partitions,
                 (QList<TopicPartition>{{topicName, 5}}));

        const auto subscription = ClassicGroupRecords::decodeSubscription(
            subscriptionBytes(2, {topicName, QStringLiteral("audit")}, {}, 12));
        QVERIFY(std::holds_alternative<ConsumerSubscription>(subscription));
        QCOMPARE(std::get<ConsumerSubscription>(subscription).topics,
                 (QStringList{topicName, QStringLiteral("audit")}));
        QCOMPARE(std::get<ConsumerSubscription>(subscription).generationId,
                 std::optional<int32_t>(12));
    }

    void unknownVersionsAreReportedNotDecoded_data() {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<int>("keyVersion");
        QTest::addColumn<int>("valueVersion"); // -1: none
        // Every record type Kafka 4.4 writes is decoded (consumer, share and streams groups'
        // in TestConsumerGroupRecordDecoder); 9 and 18 were never released, 24 is a newer
        // Kafka's.
        QTest::newRow("record type 9, never released")
            << RecordWriter().int16(9).string(groupId).bytes() << QByteArray("\x00\x00", 2) << 9
            << -1;
        QTest::newRow("record type 24")
            << RecordWriter().int16(24).bytes() << QByteArray() << 24 << -1;
        QTest::newRow("OffsetCommitValue v5")
            << offsetCommitKey() << RecordWriter().int16(5).int64(1).bytes() << 1 << 5;
        QTest::newRow("GroupMetadataValue v9")
            << groupMetadataKey() << RecordWriter().int16(9).bytes() << 2 << 9;
    }
    void unknownVersionsAreReportedNotDecoded() {
        QFETCH(QByteArray, key);
        QFETCH(QByteArray, value);
        QFETCH(int, keyVersion);
        QFETCH(int, valueVersion);
        const auto record = OffsetsTopicDecoder::decodeRecord(key, value, 3);
        QVERIFY(std::holds_alternative<UnknownOffsetsTopicRecord>(record));
        const auto unknown = std::get<UnknownOffsetsTopicRecord>(record);
        QCOMPARE(int(unknown.keyVersion), keyVersion);
        QCOMPARE(unknown.valueVersion.has_value(), valueVersion >= 0);
        if (unknown.valueVersion)
            QCOMPARE(int(*unknown.valueVersion), valueVersion);
        QVERIFY(!unknown.description.isEmpty());
        QCOMPARE(unknown.recordTimestamp, int64_t(3));
    }

    void malformedRecordsNameFieldAndOffset_data() {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<bool>("tombstone");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty key") << QByteArray() << QByteArray() << true
                                   << QStringLiteral("record key field 'version' at key byte 0");
        QTest::newRow("negative key version")
            << RecordWriter().int16(-2).bytes() << QByteArray() << true
            << QStringLiteral("record key field 'version' at key byte 0: negative key version -2");
        QTest::newRow("empty value")
            << offsetCommitKey() << QByteArray() << false
            << QStringLiteral("OffsetCommitValue field 'version' at value byte 0");
        QTest::newRow("metadata longer than the record")
            << offsetCommitKey() << RecordWriter().int16(3).int64(1).int32(0).int16(300).bytes()
            << false
            << QStringLiteral("OffsetCommitValue v3 field 'Metadata' at value byte 16: needs 300 "
                              "bytes, only 0 left");
        QTest::newRow("negative metadata length")
            << offsetCommitKey() << RecordWriter().int16(2).int64(1).int16(-5).bytes() << false
            << QStringLiteral("OffsetCommitValue v2 field 'Metadata' at value byte 10: negative "
                              "string length -5");
        QTest::newRow("null metadata")
            << offsetCommitKey() << RecordWriter().int16(2).int64(1).int16(-1).int64(2).bytes()
            << false
            << QStringLiteral("OffsetCommitValue v2 field 'Metadata' at value byte 10: null where "
                              "the schema allows no null");
        QTest::newRow("trailing bytes")
            << offsetCommitKey() << offsetCommitValue(2) + QByteArray("!!") << false
            << QStringLiteral("OffsetCommitValue v2 field 'end of message' at value byte 24: 2 "
                              "unexpected bytes after the last field");
        QTest::newRow("trailing key bytes")
            << offsetCommitKey() + QByteArray("?") << offsetCommitValue(2) << false
            << QStringLiteral(
                   "OffsetCommitKey (record type 1) field 'end of message' at key byte 24");
        QTest::newRow("member count beyond the bytes left")
            << groupMetadataKey()
            << RecordWriter()
                   .int16(0)
                   .string(QStringLiteral("consumer"))
                   .int32(1)
                   .nullString()
                   .nullString()
                   .int32(100000000)
                   .bytes()
            << false
            << QStringLiteral("GroupMetadataValue v0 field 'Members' at value byte 20: array of "
                              "100000000 elements cannot fit in the 0 bytes left");
        QTest::newRow("null members array")
            << groupMetadataKey()
            << RecordWriter()
                   .int16(0)
                   .string(QStringLiteral("consumer"))
                   .int32(1)
                   .nullString()
                   .nullString()
                   .int32(-1)
                   .bytes()
            << false << QStringLiteral("field 'Members' at value byte 20: null array");
        QTest::newRow("varint longer than five bytes")
            << groupMetadataKey() << RecordWriter().int16(4).raw("\xff\xff\xff\xff\xff\x01").bytes()
            << false
            << QStringLiteral("GroupMetadataValue v4 field 'ProtocolType' at value byte 2: varint "
                              "does not fit in 32 bits");
        QTest::newRow("negative value version")
            << groupMetadataKey() << RecordWriter().int16(-1).bytes() << false
            << QStringLiteral(
                   "GroupMetadataValue field 'version' at value byte 0: negative version -1");
    }
    void malformedRecordsNameFieldAndOffset() {
        QFETCH(QByteArray, key);
        QFETCH(QByteArray, value);
        QFETCH(bool, tombstone);
        QFETCH(QString, expected);
        const auto record = OffsetsTopicDecoder::decodeRecord(
            key, tombstone ? std::nullopt : std::optional<QByteArrayView>(value), 0);
        QVERIFY(std::holds_alternative<OffsetsTopicDecodeError>(record));
        const QString message = std::get<OffsetsTopicDecodeError>(record).toString();
        QVERIFY2(message.contains(expected), qPrintable(message));
    }

    // Every proper prefix of a valid record is an error that points inside the prefix.
    void truncationAtEveryByteIsAnError_data() {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<QByteArray>("value");
        for (int version = 0; version <= 4; ++version) {
            QTest::addRow("OffsetCommitValue v%d", version)
                << offsetCommitKey() << offsetCommitValue(int16_t(version));
            QTest::addRow("GroupMetadataValue v%d", version)
                << groupMetadataKey() << groupMetadataValue(int16_t(version), twoConsumers());
        }
    }
    void truncationAtEveryByteIsAnError() {
        QFETCH(QByteArray, key);
        QFETCH(QByteArray, value);
        QVERIFY(!std::holds_alternative<OffsetsTopicDecodeError>(
            OffsetsTopicDecoder::decodeRecord(key, value, 0)));
        for (int length = 0; length < value.size(); ++length) {
            // A copy of exactly `length` bytes, so ASan sees any read past the end.
            const QByteArray prefix(value.constData(), length);
            const auto record = OffsetsTopicDecoder::decodeRecord(key, prefix, 0);
            QVERIFY2(std::holds_alternative<OffsetsTopicDecodeError>(record),
                     qPrintable(QStringLiteral("value cut at %1").arg(length)));
            const auto error = std::get<OffsetsTopicDecodeError>(record);
            QCOMPARE(error.part, QStringLiteral("value"));
            QVERIFY(!error.field.isEmpty());
            QVERIFY(error.byteOffset >= 0 && error.byteOffset <= length);
        }
        for (int length = 0; length < key.size(); ++length) {
            const QByteArray prefix(key.constData(), length);
            const auto record = OffsetsTopicDecoder::decodeRecord(prefix, value, 0);
            QVERIFY2(std::holds_alternative<OffsetsTopicDecodeError>(record),
                     qPrintable(QStringLiteral("key cut at %1").arg(length)));
            QCOMPARE(std::get<OffsetsTopicDecodeError>(record).part, QStringLiteral("key"));
        }
    }

    void truncatedConsumerProtocolBytesAreErrors() {
        const QByteArray assignment = assignmentBytes(1, {{topicName, {0, 1, 2}}});
        const QByteArray subscription = subscriptionBytes(2, {topicName}, {{topicName, {1}}});
        for (int length = 0; length < assignment.size(); ++length)
            QVERIFY(std::holds_alternative<OffsetsTopicDecodeError>(
                ClassicGroupRecords::decodeAssignment(QByteArray(assignment.constData(), length))));
        for (int length = 0; length < subscription.size(); ++length)
            QVERIFY(std::holds_alternative<OffsetsTopicDecodeError>(
                ClassicGroupRecords::decodeSubscription(
                    QByteArray(subscription.constData(), length))));
    }

    // Random damage must never crash or read out of bounds (ASan checks the reads); whatever
    // comes back is a well-formed value.
    void randomCorruptionNeverCrashes() {
        QRandomGenerator random(20240601);
        const QList<QPair<QByteArray, QByteArray>> records{
            {offsetCommitKey(), offsetCommitValue(1)},
            {offsetCommitKey(), offsetCommitValue(4)},
            {groupMetadataKey(), groupMetadataValue(2, twoConsumers())},
            {groupMetadataKey(), groupMetadataValue(4, twoConsumers())},
        };
        int errors = 0;
        for (int round = 0; round < 4000; ++round) {
            const auto& [key, value] = records[round % records.size()];
            QByteArray damaged = value;
            const int flips = 1 + int(random.bounded(4));
            for (int i = 0; i < flips; ++i)
                damaged[int(random.bounded(damaged.size()))] = char(random.bounded(256));
            if (random.bounded(4) == 0)
                damaged.truncate(int(random.bounded(damaged.size())));
            const QByteArray exact(damaged.constData(), damaged.size());
            const auto record = OffsetsTopicDecoder::decodeRecord(key, exact, 0);
            if (const auto* error = std::get_if<OffsetsTopicDecodeError>(&record)) {
                ++errors;
                QVERIFY(error->byteOffset >= 0 && error->byteOffset <= exact.size());
                QVERIFY(!error->toString().isEmpty());
            }
        }
        // Damage to lengths and versions is common enough that many rounds must fail.
        QVERIFY(errors > 400);
    }

    void statisticsCountEachKind() {
        OffsetsTopicDecoder decoder;
        decoder.decode(offsetCommitKey(), offsetCommitValue(3), 0);
        decoder.decode(offsetCommitKey(), std::nullopt, 0);
        decoder.decode(groupMetadataKey(), groupMetadataValue(3, twoConsumers()), 0);
        // 12 is a share group's target assignment epoch, 99 a type of a newer Kafka.
        decoder.decode(RecordWriter().int16(12).string(groupId).bytes(),
                       RecordWriter().int16(0).int32(5).noTaggedFields().bytes(), 0);
        decoder.decode(RecordWriter().int16(99).bytes(), QByteArray("\x00\x00", 2), 0);
        decoder.decode(QByteArray("\x00", 1), std::nullopt, 0);
        QCOMPARE(decoder.statistics().offsetCommits, int64_t(2));
        QCOMPARE(decoder.statistics().groupMetadata, int64_t(1));
        QCOMPARE(decoder.statistics().shareGroupRecords, int64_t(1));
        QCOMPARE(decoder.statistics().unknownVersions, int64_t(1));
        QCOMPARE(decoder.statistics().errors, int64_t(1));
    }
};

QTEST_GUILESS_MAIN(TestOffsetsTopicDecoder)
#include "TestOffsetsTopicDecoder.moc"
