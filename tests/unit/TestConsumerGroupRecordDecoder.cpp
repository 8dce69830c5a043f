// The records of consumer-protocol (KIP-848), share (KIP-932) and streams (KIP-1071) groups
// in __consumer_offsets: key types 3-8 and 16, 10-15, 17 and 19-23. The byte fixtures are
// written by hand from Kafka's message specifications
// (group-coordinator/src/main/resources/common/message/*Group*Key/Value.json): keys with
// classic strings, values version 0 with compact strings and arrays and tagged fields.

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
    // ClassicMemberMetadata, a nullable struct: its marker byte (1, present; Kafka writes it
    // in a tagged field too), session timeout, one protocol {name, metadata}, tagged fields.
    RecordWriter classic;
    classic.int8(1)
        .int32(45000)
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

    // What Kafka 4.4's own ConsumerGroupMemberMetadataValue writes for a member of the
    // consumer protocol (client "c", host "h"): ClassicMemberMetadata set to null is still
    // written as a tagged field, its marker byte 0 (null in flexible versions; -1 only in
    // non-flexible ones), as every member record of the consumer protocol on a broker has it.
    void memberMetadataWithANullClassicMemberAsKafkaWritesIt() {
        const QByteArray kafkaBytes = QByteArray::fromHex("00000101026302680101ffffffff0101000100");
        const auto record =
            expectRecord(OffsetsTopicDecoder::decodeRecord(memberKey(5), kafkaBytes, 1));
        QCOMPARE(record.type, ConsumerGroupRecordType::MemberMetadata);
        const auto* value = std::get_if<ConsumerGroupMemberMetadataValue>(&record.value);
        QVERIFY(value);
        QCOMPARE(value->clientId, QStringLiteral("c"));
        QCOMPARE(value->clientHost, QStringLiteral("h"));
        QVERIFY(!value->classicMember);
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

    // 9 and 18 (share and streams groups' partition metadata) were never released; 300 is
    // a newer Kafka's. Every other type up to 23 is decoded.
    void typesKafkaDoesNotWriteAreCountedAndSkipped() {
        OffsetsTopicDecoder decoder;
        for (int16_t type : {9, 18, 300}) {
            const auto record = decoder.decode(groupKey(type), QByteArray("\x00\x00\x00", 3), 1);
            QVERIFY2(std::holds_alternative<UnknownOffsetsTopicRecord>(record),
                     qPrintable(QString::number(type)));
        }
        QCOMPARE(decoder.statistics().unknownVersions, int64_t(3));
        QCOMPARE(decoder.statistics().errors, int64_t(0));
    }

    void regularExpression() {
        const QByteArray key =
            RecordWriter().int16(16).string(groupId).string(QStringLiteral("orders-.*")).bytes();
        RecordWriter value;
        value.int16(0)
            .arrayLength(2, true)
            .string(QStringLiteral("orders-eu"), true)
            .string(QStringLiteral("orders-us"), true)
            .int64(42)
            .int64(1700000000000)
            .noTaggedFields();
        const ConsumerGroupRecord record =
            expectRecord(OffsetsTopicDecoder::decodeRecord(key, value.bytes(), 1));
        QCOMPARE(record.type, ConsumerGroupRecordType::RegularExpression);
        QCOMPARE(record.regularExpression, QStringLiteral("orders-.*"));
        const auto* regex = std::get_if<ConsumerGroupRegularExpressionValue>(&record.value);
        QVERIFY(regex);
        QCOMPARE(regex->topics,
                 (QStringList{QStringLiteral("orders-eu"), QStringLiteral("orders-us")}));
        QCOMPARE(regex->version, int64_t(42));
    }

    // Share groups: the same roles under their own types, partitions shared, none revoked.
    void shareGroupRecords() {
        OffsetsTopicDecoder decoder;
        // ShareGroupMemberMetadataValue: rackId, clientId, clientHost, subscribed topics.
        RecordWriter metadata;
        metadata.int16(0)
            .nullString(true)
            .string(QStringLiteral("console-share-consumer"), true)
            .string(QStringLiteral("/127.0.0.1"), true)
            .arrayLength(1, true)
            .string(QStringLiteral("orders"), true)
            .noTaggedFields();
        ConsumerGroupRecord record =
            expectRecord(decoder.decode(memberKey(10), metadata.bytes(), 1));
        QCOMPARE(record.groupType, groupscope::kafka::GroupType::Share);
        QCOMPARE(record.type, ConsumerGroupRecordType::MemberMetadata);
        QCOMPARE(record.keyType, int16_t(10));
        QCOMPARE(record.memberId, memberId);
        const auto* member = std::get_if<ConsumerGroupMemberMetadataValue>(&record.value);
        QVERIFY(member);
        QCOMPARE(member->clientId, QStringLiteral("console-share-consumer"));
        QCOMPARE(member->subscribedTopicNames, QStringList{QStringLiteral("orders")});

        // ShareGroupMetadataValue: the epoch and a metadata hash that is not tagged.
        record = expectRecord(decoder.decode(
            groupKey(11), RecordWriter().int16(0).int32(4).int64(99).noTaggedFields().bytes(), 2));
        QCOMPARE(record.type, ConsumerGroupRecordType::GroupEpoch);
        QCOMPARE(std::get<ConsumerGroupEpochValue>(record.value).epoch, 4);
        QCOMPARE(std::get<ConsumerGroupEpochValue>(record.value).metadataHash,
                 std::optional<int64_t>(99));

        // ShareGroupTargetAssignmentMemberValue and ShareGroupCurrentMemberAssignmentValue
        // (epoch, previous epoch, state, assigned partitions: no pending revocation).
        RecordWriter target;
        target.int16(0).arrayLength(1, true);
        writeTopicPartitions(target, ordersTopicId, {0, 1});
        record = expectRecord(decoder.decode(memberKey(13), target.noTaggedFields().bytes(), 3));
        QCOMPARE(record.type, ConsumerGroupRecordType::TargetAssignmentMember);
        QCOMPARE(std::get<ConsumerGroupTargetAssignmentMemberValue>(record.value).topicPartitions,
                 (QList<TopicIdPartitions>{{textOf(ordersTopicId), {0, 1}, {}}}));

        RecordWriter current;
        current.int16(0).int32(4).int32(3).int8(0).arrayLength(1, true);
        writeTopicPartitions(current, ordersTopicId, {0, 1});
        record = expectRecord(decoder.decode(memberKey(14), current.noTaggedFields().bytes(), 4));
        const auto& assignment = std::get<ConsumerGroupCurrentMemberAssignmentValue>(record.value);
        QCOMPARE(assignment.memberEpoch, 4);
        QCOMPARE(assignment.previousMemberEpoch, 3);
        QCOMPARE(assignment.assignedPartitions,
                 (QList<TopicIdPartitions>{{textOf(ordersTopicId), {0, 1}, {}}}));
        QVERIFY(assignment.partitionsPendingRevocation.isEmpty());

        // ShareGroupStatePartitionMetadataValue: initializing, initialized, deleting topics.
        RecordWriter state;
        state.int16(0).arrayLength(0, true).arrayLength(1, true);
        state.uuid(ordersTopicId).string(QStringLiteral("orders"), true).arrayLength(2, true);
        state.int32(0).int32(1).noTaggedFields();
        state.arrayLength(1, true).uuid(paymentsTopicId).string(QStringLiteral("payments"), true);
        state.noTaggedFields().noTaggedFields();
        record = expectRecord(decoder.decode(groupKey(15), state.bytes(), 5));
        const auto& topics = std::get<ShareGroupStatePartitionMetadataValue>(record.value);
        QCOMPARE(topics.initialized.size(), 1);
        QCOMPARE(topics.initialized[0].topicName, QStringLiteral("orders"));
        QCOMPARE(topics.initialized[0].partitions, (QList<int32_t>{0, 1}));
        QCOMPARE(topics.deleting.size(), 1);
        QCOMPARE(topics.deleting[0].topicId, textOf(paymentsTopicId));

        record = expectRecord(decoder.decode(memberKey(14), std::nullopt, 6));
        QVERIFY(record.isTombstone());
        QCOMPARE(record.type, ConsumerGroupRecordType::CurrentMemberAssignment);
        QCOMPARE(decoder.statistics().shareGroupRecords, int64_t(6));
        QCOMPARE(decoder.statistics().errors, int64_t(0));
    }

    // Streams groups: tasks (subtopology id, partitions) where the others have partitions.
    void streamsGroupRecords() {
        OffsetsTopicDecoder decoder;
        const auto tasks = [](RecordWriter& writer, const QString& subtopology,
                              const QList<int32_t>& partitions, bool current) {
            writer.arrayLength(1, true).string(subtopology, true);
            writer.arrayLength(int(partitions.size()), true);
            for (int32_t partition : partitions)
                writer.int32(partition);
            if (current && !partitions.isEmpty()) { // tag 0: the assignment epochs
                RecordWriter epochs;
                epochs.arrayLength(int(partitions.size()), true);
                for (qsizetype i = 0; i < partitions.size(); ++i)
                    epochs.int32(6);
                const QByteArray field = epochs.bytes();
                writer.unsignedVarint(1).unsignedVarint(0).unsignedVarint(uint32_t(field.size()));
                writer.raw(field);
            } else {
                writer.noTaggedFields();
            }
        };
        // StreamsGroupMetadataValue: epoch, metadata hash, tag 0 validated topology epoch.
        RecordWriter epoch;
        epoch.int16(0).int32(6).int64(12);
        epoch.unsignedVarint(1).unsignedVarint(0).unsignedVarint(4).int32(1);
        ConsumerGroupRecord record = expectRecord(decoder.decode(groupKey(17), epoch.bytes(), 1));
        QCOMPARE(record.groupType, groupscope::kafka::GroupType::Streams);
        QCOMPARE(std::get<ConsumerGroupEpochValue>(record.value).epoch, 6);

        // StreamsGroupMemberMetadataValue.
        RecordWriter metadata;
        metadata.int16(0)
            .nullString(true)
            .nullString(true)
            .string(QStringLiteral("app-1-StreamThread-1"), true)
            .string(QStringLiteral("/127.0.0.1"), true)
            .int32(300000)
            .int32(1)
            .string(QStringLiteral("process-7"), true)
            .int8(1) // the user endpoint is present
            .string(QStringLiteral("localhost"), true)
            .int16(8080)
            .noTaggedFields()
            .arrayLength(0, true)
            .noTaggedFields();
        record = expectRecord(decoder.decode(memberKey(19), metadata.bytes(), 2));
        const auto& member = std::get<ConsumerGroupMemberMetadataValue>(record.value);
        QCOMPARE(member.clientId, QStringLiteral("app-1-StreamThread-1"));
        QCOMPARE(member.processId, QStringLiteral("process-7"));
        QCOMPARE(member.topologyEpoch, 1);
        QCOMPARE(member.userEndpoint, QStringLiteral("localhost:8080"));

        // StreamsGroupTargetAssignmentMemberValue: active, standby and warm-up tasks.
        RecordWriter target;
        target.int16(0);
        tasks(target, QStringLiteral("0"), {0, 2}, false);
        tasks(target, QStringLiteral("1"), {1}, false);
        target.arrayLength(0, true).noTaggedFields();
        record = expectRecord(decoder.decode(memberKey(21), target.bytes(), 3));
        const auto& targetTasks =
            std::get<ConsumerGroupTargetAssignmentMemberValue>(record.value).tasks;
        QCOMPARE(targetTasks.active, (QList<SubtopologyTasks>{{QStringLiteral("0"), {0, 2}, {}}}));
        QCOMPARE(targetTasks.standby, (QList<SubtopologyTasks>{{QStringLiteral("1"), {1}, {}}}));
        QVERIFY(targetTasks.warmup.isEmpty());

        // StreamsGroupCurrentMemberAssignmentValue: three kinds of tasks, and each pending
        // revocation.
        RecordWriter current;
        current.int16(0).int32(6).int32(5).int8(1);
        tasks(current, QStringLiteral("0"), {0}, true);
        current.arrayLength(0, true).arrayLength(0, true);
        tasks(current, QStringLiteral("0"), {2}, true);
        current.arrayLength(0, true).arrayLength(0, true).noTaggedFields();
        record = expectRecord(decoder.decode(memberKey(22), current.bytes(), 4));
        const auto& assignment = std::get<ConsumerGroupCurrentMemberAssignmentValue>(record.value);
        QCOMPARE(assignment.memberEpoch, 6);
        QCOMPARE(assignment.tasks.active,
                 (QList<SubtopologyTasks>{{QStringLiteral("0"), {0}, {6}}}));
        QCOMPARE(assignment.tasksPendingRevocation.active,
                 (QList<SubtopologyTasks>{{QStringLiteral("0"), {2}, {6}}}));

        // StreamsGroupTopologyValue: one subtopology with a changelog topic and a
        // copartition group (int16 indexes).
        RecordWriter topology;
        topology.int16(0).int32(1).arrayLength(1, true).string(QStringLiteral("0"), true);
        topology.arrayLength(1, true).string(QStringLiteral("words"), true);
        topology.arrayLength(0, true); // source topic regex
        topology.arrayLength(1, true).string(QStringLiteral("app-counts-changelog"), true);
        topology.int32(0).int16(0).arrayLength(0, true).noTaggedFields();
        topology.arrayLength(0, true); // repartition sink topics
        topology.arrayLength(0, true); // repartition source topics
        topology.arrayLength(1, true).arrayLength(1, true).int16(0);
        topology.arrayLength(0, true).arrayLength(0, true).noTaggedFields();
        topology.noTaggedFields().noTaggedFields();
        record = expectRecord(decoder.decode(groupKey(23), topology.bytes(), 5));
        const auto& subtopologies = std::get<StreamsGroupTopologyValue>(record.value).subtopologies;
        QCOMPARE(subtopologies.size(), 1);
        QCOMPARE(subtopologies[0].sourceTopics, QStringList{QStringLiteral("words")});
        QCOMPARE(subtopologies[0].stateChangelogTopics,
                 QStringList{QStringLiteral("app-counts-changelog")});
        QCOMPARE(decoder.statistics().streamsGroupRecords, int64_t(5));
        QCOMPARE(decoder.statistics().errors, int64_t(0));
    }

    void malformedRecordsNameTheField_data() {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("member key without member id")
            << groupKey(5) << memberMetadataValue()
            << "ConsumerGroupMemberMetadataKey (record type 5) field 'MemberId' at key byte 9";
        QTest::newRow("trailing key bytes")
            << RecordWriter().int16(3).string(groupId).int8(1).bytes() << groupEpochValue(1)
            << "ConsumerGroupMetadataKey (record type 3) field 'end of message' at key byte 9";
        QTest::newRow("truncated epoch")
            << groupKey(3) << RecordWriter().int16(0).int16(1).bytes()
            << "ConsumerGroupMetadataValue v0 field 'Epoch' at value byte 2";
        QTest::newRow("missing tagged fields")
            << groupKey(3) << RecordWriter().int16(0).int32(1).bytes()
            << "ConsumerGroupMetadataValue v0 field 'tagged fields' at value byte 6";
        QTest::newRow("truncated uuid")
            << memberKey(7) << RecordWriter().int16(0).arrayLength(1, true).raw("short").bytes()
            << "ConsumerGroupTargetAssignmentMemberValue v0 field 'TopicPartitions' at value byte "
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
            << "ConsumerGroupCurrentMemberAssignmentValue v0 field 'Partitions' at value byte 28";
        QByteArray truncatedTag = groupEpochValue(1, 5);
        truncatedTag.chop(2);
        QTest::newRow("truncated tagged field")
            << groupKey(3) << truncatedTag
            << "ConsumerGroupMetadataValue v0 field 'tagged fields' at value byte 9";
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
