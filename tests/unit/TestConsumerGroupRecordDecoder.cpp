// The records of consumer-protocol (KIP-848) groups, key types 3-8 of __consumer_offsets.
// The byte fixtures are written by hand from Kafka's message specifications
// (group-coordinator/src/main/resources/common/message/ConsumerGroup*Key/Value.json): keys
// with classic strings, values version 0 with compact strings and arrays and tagged fields.

#include "offsetstopic/OffsetsTopicDecoder.h"

#include "KafkaRecordWriter.h"

#include <QTest>

using namespace groupscope::offsetstopic;
using groupscope::test::RecordWriter;

namespace {

const QString groupId = QStringLiteral("new-g");
const QString memberId = QStringLiteral("mZ1-c0nsumer-member");
const QByteArray ordersTopicId = QByteArray::fromHex("0123456789abcdeffedcba9876543210");
const QByteArray paymentsTopicId = QByteArray::fromHex("00112233445566778899aabbccddeeff");

QString textOf(const QByteArray& uuid) {
    return QString::fromLatin1(
        uuid.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QByteArray groupKey(int16_t type) {
    return RecordWriter().int16(type).string(groupId).bytes();
}

QByteArray memberKey(int16_t type) {
    return RecordWriter().int16(type).string(groupId).string(memberId).bytes();
}

// TopicPartitions: Uuid, compact []int32, then tagged fields (optionally tag 0: epochs).
void writeTopicPartitions(RecordWriter& writer, const QByteArray& topicId,
                          const QList<int32_t>& partitions,
                          const QList<int32_t>& assignmentEpochs = {}) {
    writer.uuid(topicId).arrayLength(int(partitions.size()), true);
    for (int32_t partition : partitions)
        writer.int32(partition);
    if (assignmentEpochs.isEmpty()) {
        writer.noTaggedFields();
        return;
    }
    RecordWriter epochs;
    epochs.arrayLength(int(assignmentEpochs.size()), true);
    for (int32_t epoch : assignmentEpochs)
        epochs.int32(epoch);
    const QByteArray field = epochs.bytes();
    writer.unsignedVarint(1).unsignedVarint(0).unsignedVarint(uint32_t(field.size())).raw(field);
}

QByteArray groupEpochValue(int32_t epoch, std::optional<int64_t> metadataHash = {}) {
    RecordWriter writer;
    writer.int16(0).int32(epoch);
    if (metadataHash) // tag 0, eight bytes
        writer.unsignedVarint(1).unsignedVarint(0).unsignedVarint(8).int64(*metadataHash);
    else
        writer.noTaggedFields();
    return writer.bytes();
}

QByteArray memberMetadataValue(bool withClassicMetadata = false) {
    RecordWriter writer;
    writer.int16(0)
        .nullString(true)                        // instanceId
        .string(QStringLiteral("rack-a"), true)  // rackId
        .string(QStringLiteral("console"), true) // clientId
        .string(QStringLiteral("/127.0.0.1"), true)
        .arrayLength(2, true)
        .string(QStringLiteral("orders"), true)
        .string(QStringLiteral("payments"), true)
        .nullString(true) // subscribedTopicRegex
        .int32(300000)
        .string(QStringLiteral("uniform"), true);
    if (!withClassicMetadata)
        return writer.noTaggedFields().bytes();
    // ClassicMemberMetadata: session timeout, one protocol {name, metadata}, tagged fields.
    RecordWriter classic;
    classic.int32(45000)
        .arrayLength(1, true)
        .string(QStringLiteral("range"), true)
        .bytes(QByteArray("\x00\x01", 2), true)
        .noTaggedFields()
        .noTaggedFields();
    const QByteArray field = classic.bytes();
    return writer.unsignedVarint(1)
        .unsignedVarint(0)
        .unsignedVarint(uint32_t(field.size()))
        .raw(field)
        .bytes();
}

QByteArray targetAssignmentMemberValue() {
    RecordWriter writer;
    writer.int16(0).arrayLength(2, true);
    writeTopicPartitions(writer, ordersTopicId, {0, 2});
    writeTopicPartitions(writer, paymentsTopicId, {1});
    return writer.noTaggedFields().bytes();
}

QByteArray currentAssignmentValue(bool withEpochs = false) {
    RecordWriter writer;
    writer.int16(0).int32(7).int32(5).int8(1).arrayLength(1, true);
    writeTopicPartitions(writer, ordersTopicId, {0, 2},
                         withEpochs ? QList<int32_t>{5, 7} : QList<int32_t>{});
    writer.arrayLength(1, true);
    writeTopicPartitions(writer, paymentsTopicId, {3});
    return writer.noTaggedFields().bytes();
}

ConsumerGroupRecord expectRecord(const OffsetsTopicRecord& record) {
    if (const auto* error = std::get_if<OffsetsTopicDecodeError>(&record))
        qWarning("unexpected decode error: %s", qPrintable(error->toString()));
    if (const auto* unknown = std::get_if<UnknownOffsetsTopicRecord>(&record))
        qWarning("unexpectedly unknown: %s", qPrintable(unknown->description));
    const auto* value = std::get_if<ConsumerGroupRecord>(&record);
    return value ? *value : ConsumerGroupRecord{};
}

} // namespace

class TestConsumerGroupRecordDecoder : public QObject {
    Q_OBJECT

private slots:
    void groupEpoch() {
        const ConsumerGroupRecord record =
            expectRecord(OffsetsTopicDecoder::decodeRecord(groupKey(3), groupEpochValue(12), 1000));
        QCOMPARE(record.type, ConsumerGroupRecordType::GroupEpoch);
        QCOMPARE(record.group, groupId);
        QVERIFY(record.memberId.isEmpty());
        QCOMPARE(record.valueVersion, int16_t(0));
        QCOMPARE(record.recordTimestamp, int64_t(1000));
        const auto* value = std::get_if<ConsumerGroupEpochValue>(&record.value);
        QVERIFY(value);
        QCOMPARE(value->epoch, 12);
        QVERIFY(!value->metadataHash);
    }

    void groupEpochWithTaggedMetadataHash() {
        const ConsumerGroupRecord record = expectRecord(OffsetsTopicDecoder::decodeRecord(
            groupKey(3), groupEpochValue(3, int64_t(-8142337741285893310)), 1));
        const auto* value = std::get_if<ConsumerGroupEpochValue>(&record.value);
        QVERIFY(value);
        QCOMPARE(value->epoch, 3);
        QCOMPARE(value->metadataHash.value_or(0), int64_t(-8142337741285893310));
    }

    void unknownTaggedFieldsAreSkipped() {
        // Tag 5 (unknown, three bytes) then tag 0: a newer writer's extra field.
        const QByteArray value = RecordWriter()
                                     .int16(0)
                                     .int32(4)
                                     .unsignedVarint(2)
                                     .unsignedVarint(0)
                                     .unsignedVarint(8)
                                     .int64(99)
                                     .unsignedVarint(5)
                                     .unsignedVarint(3)
                                     .raw("abc")
                                     .bytes();
        const auto record = expectRecord(OffsetsTopicDecoder::decodeRecord(groupKey(3), value, 1));
        QCOMPARE(std::get<ConsumerGroupEpochValue>(record.value).metadataHash.value_or(0),
                 int64_t(99));
    }

    void partitionMetadata() {
        RecordWriter writer;
        writer.int16(0).arrayLength(1, true).uuid(ordersTopicId);
        writer.string(QStringLiteral("orders"), true).int32(3);
        writer.arrayLength(1, true).int32(0).arrayLength(1, true);
        writer.string(QStringLiteral("rack-a"), true).noTaggedFields(); // partition metadata
        writer.noTaggedFields().noTaggedFields();                       // topic, value
        const auto record =
            expectRecord(OffsetsTopicDecoder::decodeRecord(groupKey(4), writer.bytes(), 1));
        const auto* value = std::get_if<ConsumerGroupPartitionMetadataValue>(&record.value);
        QVERIFY(value);
        QCOMPARE(value->topics.size(), 1);
        QCOMPARE(value->topics[0].topicId, textOf(ordersTopicId));
        QCOMPARE(value->topics[0].topicName, QStringLiteral("orders"));
        QCOMPARE(value->topics[0].numPartitions, 3);
    }

    void memberMetadata_data() {
        QTest::addColumn<bool>("classic");
        QTest::newRow("consumer protocol member") << false;
        QTest::newRow("classic member in a consumer group") << true;
    }
    void memberMetadata() {
        QFETCH(bool, classic);
        const auto record = expectRecord(
            OffsetsTopicDecoder::decodeRecord(memberKey(5), memberMetadataValue(classic), 1));
        QCOMPARE(record.type, ConsumerGroupRecordType::MemberMetadata);
        QCOMPARE(record.memberId, memberId);
        const auto* value = std::get_if<ConsumerGroupMemberMetadataValue>(&record.value);
        QVERIFY(value);
        QVERIFY(value->instanceId.isEmpty());
        QCOMPARE(value->rackId, QStringLiteral("rack-a"));
        QCOMPARE(value->clientId, QStringLiteral("console"));
        QCOMPARE(value->clientHost, QStringLiteral("/127.0.0.1"));
        QCOMPARE(value->subscribedTopicNames,
                 QStringList({QStringLiteral("orders"), QStringLiteral("payments")}));
        QVERIFY(value->subscribedTopicRegex.isEmpty());
        QCOMPARE(value->rebalanceTimeoutMs, 300000);
        QCOMPARE(value->serverAssignor, QStringLiteral("uniform"));
        QCOMPARE(value->classicMember, classic);
    }

    void targetAssignmentEpoch() {
        const QByteArray value = RecordWriter()
                                     .int16(0)
                                     .int32(9)
                                     .unsignedVarint(1)
                                     .unsignedVarint(0)
                                     .unsignedVarint(8)
                                     .int64(1700000000555)
                                     .bytes();
        const auto record = expectRecord(OffsetsTopicDecoder::decodeRecord(groupKey(6), value, 1));
        const auto* epoch = std::get_if<ConsumerGroupTargetAssignmentEpochValue>(&record.value);
        QVERIFY(epoch);
        QCOMPARE(epoch->assignmentEpoch, 9);
        QCOMPARE(epoch->assignmentTimestamp.value_or(0), int64_t(1700000000555));
    }

    void targetAssignmentMember() {
        const auto record = expectRecord(
            OffsetsTopicDecoder::decodeRecord(memberKey(7), targetAssignmentMemberValue(), 1));
        const auto* value = std::get_if<ConsumerGroupTargetAssignmentMemberValue>(&record.value);
        QVERIFY(value);
        QCOMPARE(value->topicPartitions.size(), 2);
        QCOMPARE(value->topicPartitions[0].topicId, textOf(ordersTopicId));
        QCOMPARE(value->topicPartitions[0].partitions, QList<int32_t>({0, 2}));
        QCOMPARE(value->topicPartitions[1].topicId, textOf(paymentsTopicId));
        QCOMPARE(value->topicPartitions[1].partitions, QList<int32_t>({1}));
    }

    void currentMemberAssignment_data() {
        QTest::addColumn<bool>("withEpochs");
        QTest::newRow("Kafka 4.0") << false;
        QTest::newRow("with assignment epochs (4.1+)") << true;
    }
    void currentMemberAssignment() {
        QFETCH(bool, withEpochs);
        const auto record = expectRecord(
            OffsetsTopicDecoder::decodeRecord(memberKey(8), currentAssignmentValue(withEpochs), 1));
        const auto* value = std::get_if<ConsumerGroupCurrentMemberAssignmentValue>(&record.value);
        QVERIFY(value);
        QCOMPARE(value->memberEpoch, 7);
        QCOMPARE(value->previousMemberEpoch, 5);
        QCOMPARE(value->state, int8_t(ConsumerMemberState::UnrevokedPartitions));
        QCOMPARE(consumerMemberStateName(value->state), QStringLiteral("UnrevokedPartitions"));
        QCOMPARE(value->assignedPartitions.size(), 1);
        QCOMPARE(value->assignedPartitions[0].partitions, QList<int32_t>({0, 2}));
        QCOMPARE(value->assignedPartitions[0].assignmentEpochs,
                 withEpochs ? QList<int32_t>({5, 7}) : QList<int32_t>());
        QCOMPARE(value->partitionsPendingRevocation.size(), 1);
        QCOMPARE(value->partitionsPendingRevocation[0].topicId, textOf(paymentsTopicId));
        QCOMPARE(value->partitionsPendingRevocation[0].partitions, QList<int32_t>({3}));
    }

    void tombstones_data() {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<int>("type");
        QTest::addColumn<QString>("member");
        for (int16_t type : {3, 4, 6})
            QTest::addRow("type %d", type) << groupKey(type) << int(type) << QString();
        for (int16_t type : {5, 7, 8})
            QTest::addRow("type %d", type) << memberKey(type) << int(type) << memberId;
    }
    void tombstones() {
        QFETCH(QByteArray, key);
        QFETCH(int, type);
        QFETCH(QString, member);
        OffsetsTopicDecoder decoder;
        const auto record = expectRecord(decoder.decode(key, std::nullopt, 77));
        QVERIFY(record.isTombstone());
        QCOMPARE(int(record.type), type);
        QCOMPARE(record.group, groupId);
        QCOMPARE(record.memberId, member);
        QCOMPARE(record.valueVersion, int16_t(-1));
        QCOMPARE(record.recordTimestamp, int64_t(77));
        QCOMPARE(decoder.statistics().consumerGroupRecords, int64_t(1));
    }

    void newerValueVersionIsSkippedNotAnError() {
        OffsetsTopicDecoder decoder;
        const auto record =
            decoder.decode(groupKey(3), RecordWriter().int16(1).int32(5).bytes(), 1);
        const auto* unknown = std::get_if<UnknownOffsetsTopicRecord>(&record);
        QVERIFY(unknown);
        QCOMPARE(unknown->keyVersion, int16_t(3));
        QCOMPARE(unknown->valueVersion.value_or(-1), int16_t(1));
        QVERIFY(unknown->description.contains(QLatin1String("ConsumerGroupMetadataValue")));
        QCOMPARE(decoder.statistics().unknownVersions, int64_t(1));
        QCOMPARE(decoder.statistics().errors, int64_t(0));
    }

    void shareAndStreamsRecordsAreCountedAndSkipped() {
        OffsetsTopicDecoder decoder;
        for (int16_t type : {9, 10, 15, 16, 23, 300}) {
            const auto record = decoder.decode(groupKey(type), QByteArray("\x00\x00\x00", 3), 1);
            QVERIFY2(std::holds_alternative<UnknownOffsetsTopicRecord>(record),
                     qPrintable(QString::number(type)));
            QCOMPARE(std::get<UnknownOffsetsTopicRecord>(record).ofAnotherGroupType, type != 300);
        }
        // Share and streams records are Kafka 4's own, not a sign of a newer Kafka.
        QCOMPARE(decoder.statistics().otherGroupTypeRecords, int64_t(5));
        QCOMPARE(decoder.statistics().unknownVersions, int64_t(1));
        QCOMPARE(decoder.statistics().errors, int64_t(0));
    }

    void malformedRecordsNameTheField_data() {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("member key without member id")
            << groupKey(5) << memberMetadataValue()
            << "ConsumerGroupMemberMetadataKey field 'memberId' at key byte 9";
        QTest::newRow("trailing key bytes")
            << RecordWriter().int16(3).string(groupId).int8(1).bytes() << groupEpochValue(1)
            << "ConsumerGroupMetadataKey field 'end' at key byte 9";
        QTest::newRow("truncated epoch")
            << groupKey(3) << RecordWriter().int16(0).int16(1).bytes()
            << "ConsumerGroupMetadataValue v0 field 'epoch' at value byte 2";
        QTest::newRow("missing tagged fields")
            << groupKey(3) << RecordWriter().int16(0).int32(1).bytes()
            << "ConsumerGroupMetadataValue v0 field 'taggedFields' at value byte 6";
        QTest::newRow("truncated uuid")
            << memberKey(7) << RecordWriter().int16(0).arrayLength(1, true).raw("short").bytes()
            << "ConsumerGroupTargetAssignmentMemberValue v0 field 'topicPartitions' at value byte "
               "2";
        QTest::newRow("huge partition count")
            << memberKey(8)
            << RecordWriter()
                   .int16(0)
                   .int32(1)
                   .int32(0)
                   .int8(0)
                   .arrayLength(1, true)
                   .uuid(ordersTopicId)
                   .unsignedVarint(2'000'000'000)
                   .bytes()
            << "ConsumerGroupCurrentMemberAssignmentValue v0 field 'partitions' at value byte 28";
        QByteArray truncatedTag = groupEpochValue(1, 5);
        truncatedTag.chop(2);
        QTest::newRow("truncated tagged field")
            << groupKey(3) << truncatedTag
            << "ConsumerGroupMetadataValue v0 field 'taggedFields' at value byte 9";
    }
    void malformedRecordsNameTheField() {
        QFETCH(QByteArray, key);
        QFETCH(QByteArray, value);
        QFETCH(QString, expected);
        OffsetsTopicDecoder decoder;
        const auto record = decoder.decode(key, value, 1);
        const auto* error = std::get_if<OffsetsTopicDecodeError>(&record);
        QVERIFY(error);
        QVERIFY2(error->toString().startsWith(expected), qPrintable(error->toString()));
        QCOMPARE(decoder.statistics().errors, int64_t(1));
    }

    // Every prefix of every valid record decodes to an error or a value, never a crash, and
    // an error always points inside the bytes it names.
    void everyTruncationIsHandled() {
        const QList<QPair<QByteArray, QByteArray>> records = {
            {groupKey(3), groupEpochValue(4, 7)},
            {memberKey(5), memberMetadataValue(true)},
            {memberKey(7), targetAssignmentMemberValue()},
            {memberKey(8), currentAssignmentValue(true)}};
        for (const auto& [key, value] : records) {
            for (qsizetype length = 0; length < value.size(); ++length) {
                const QByteArray prefix = value.first(length);
                const auto record = OffsetsTopicDecoder::decodeRecord(key, prefix, 1);
                const auto* error = std::get_if<OffsetsTopicDecodeError>(&record);
                QVERIFY2(error, qPrintable(QStringLiteral("prefix %1 decoded").arg(length)));
                QVERIFY(error->byteOffset >= 0 && error->byteOffset <= length);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestConsumerGroupRecordDecoder)
#include "TestConsumerGroupRecordDecoder.moc"
