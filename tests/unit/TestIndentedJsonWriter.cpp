// The describe --json text is written without Qt's JSON classes (for speed). These tests
// hold it to them: the same bytes as QJsonDocument::toJson(Indented) prints for the same
// document, keys sorted, and strings that survive a round trip through Qt's parser.
#include "cli/GroupJson.h"
#include "cli/IndentedJsonWriter.h"

#include <librdkafka/rdkafka.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace groupscope;
using namespace Qt::Literals::StringLiterals;

namespace {

QByteArray reformattedByQt(const QByteArray& text) {
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError)
        return "not JSON: " + error.errorString().toUtf8();
    return document.toJson(QJsonDocument::Indented);
}

// Every control character, quotes, backslashes, DEL, Latin-1, CJK, an emoji (a surrogate
// pair) and lone surrogates at the start, middle and end.
QString awkwardText() {
    QString text;
    for (char16_t unit = 0; unit < 0x20; ++unit)
        text.append(QChar(unit));
    text += u"\"quoted\" back\\slash /slash \u007f caf\u00e9 \u6f22\u5b57 "_s;
    text += QString::fromUtf8("\xf0\x9f\x9a\x80");
    text += QChar(0xd800);
    text += u"mid"_s;
    text += QChar(0xdc00);
    text += u"end"_s;
    text += QChar(0xdbff);
    return text;
}

monitor::GroupSnapshot sampleGroup(const QString& id, bool withErrors) {
    monitor::GroupSnapshot group;
    group.description.groupId = id;
    group.description.state = kafka::GroupState::Stable;
    group.description.protocolType = u"consumer"_s;
    group.description.partitionAssignor = u"range"_s;
    group.description.coordinator = {1, u"127.0.0.1"_s, 9092};
    kafka::MemberDescription member;
    member.memberId = u"consumer-1-abc"_s;
    member.clientId = u"consumer-1"_s;
    member.host = u"/127.0.0.1"_s;
    member.groupInstanceId = u"static-1"_s;
    member.assignment = {{u"orders"_s, 0}, {u"orders"_s, 1}};
    group.description.members = {member, kafka::MemberDescription{}};
    monitor::PartitionSnapshot assigned;
    assigned.topicPartition = {u"orders"_s, 0};
    assigned.owner = monitor::PartitionOwner(member);
    assigned.committedOffset = 40;
    assigned.logStartOffset = 0;
    assigned.logEndOffset = int64_t(1) << 53;
    assigned.lag = (int64_t(1) << 53) - 40;
    assigned.commitMetadata = awkwardText();
    monitor::PartitionSnapshot unassigned;
    unassigned.topicPartition = {awkwardText(), 7};
    unassigned.logStartOffset = -1;
    unassigned.logEndOffset = -1;
    if (withErrors) {
        unassigned.error = kafka::KafkaError{RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION,
                                             u"not the leader"_s, true, false};
        group.error = kafka::KafkaError::timeout(u"describing group timed out"_s);
    }
    group.partitions = {assigned, unassigned};
    return group;
}

} // namespace

class TestIndentedJsonWriter : public QObject {
    Q_OBJECT

private slots:
    void emptyContainersAreLaidOutAsQtDoes() {
        cli::IndentedJsonWriter json;
        json.beginArray();
        json.beginObject();
        json.key("a"_L1);
        json.beginArray();
        json.endArray();
        json.key("b"_L1);
        json.beginObject();
        json.endObject();
        json.field("c"_L1, int64_t(-5));
        json.key("d"_L1);
        json.null();
        json.endObject();
        json.beginArray();
        json.endArray();
        json.endArray();
        const QByteArray text = json.finish();
        QCOMPARE(text, reformattedByQt(text));
        QCOMPARE(text,
                 QByteArray("[\n    {\n        \"a\": [\n        ],\n        \"b\": {\n        },\n"
                            "        \"c\": -5,\n        \"d\": null\n    },\n    [\n    ]\n]\n"));

        cli::IndentedJsonWriter empty;
        empty.beginArray();
        empty.endArray();
        QCOMPARE(empty.finish(), QJsonDocument(QJsonArray()).toJson(QJsonDocument::Indented));
    }

    void stringsAreEscapedAsQtEscapesThem() {
        cli::IndentedJsonWriter json;
        json.beginObject();
        json.field("text"_L1, awkwardText());
        json.endObject();
        const QByteArray text = json.finish();
        const QByteArray qt =
            QJsonDocument(QJsonObject{{u"text"_s, awkwardText()}}).toJson(QJsonDocument::Indented);
        QCOMPARE(text, qt);
        // Valid characters come back unchanged from Qt's parser.
        const QString ascii = awkwardText().left(awkwardText().indexOf(QChar(0xd800)));
        QVERIFY(QJsonDocument::fromJson(text)[u"text"_s].toString().startsWith(ascii));
    }

    void describeJsonIsWhatQtWouldPrint_data() {
        QTest::addColumn<bool>("withErrors");
        QTest::newRow("plain") << false;
        QTest::newRow("with errors") << true;
    }

    void describeJsonIsWhatQtWouldPrint() {
        QFETCH(bool, withErrors);
        const QList<monitor::GroupSnapshot> groups{sampleGroup(u"billing"_s, withErrors),
                                                   sampleGroup(awkwardText(), withErrors)};
        const QByteArray text = cli::groupsToJsonText(groups);
        // Same bytes after Qt parsed and printed it again: valid JSON, Qt's layout, and
        // every object's keys in Qt's (sorted) order.
        QCOMPARE(text, reformattedByQt(text));

        const QJsonArray parsed = QJsonDocument::fromJson(text).array();
        QCOMPARE(parsed.size(), 2);
        const QJsonObject billing = parsed[0].toObject();
        QCOMPARE(billing[u"group"_s].toString(), u"billing"_s);
        QCOMPARE(billing[u"state"_s].toString(), u"Stable"_s);
        QCOMPARE(billing[u"coordinator"_s][u"port"_s].toInt(), 9092);
        QCOMPARE(billing[u"totalLag"_s].toInteger(), (int64_t(1) << 53) - 40);
        const QJsonArray members = billing[u"members"_s].toArray();
        QCOMPARE(members.size(), 2);
        QCOMPARE(members[0][u"groupInstanceId"_s].toString(), u"static-1"_s);
        QCOMPARE(members[0][u"assignment"_s][1][u"partition"_s].toInt(), 1);
        QVERIFY(members[1][u"groupInstanceId"_s].isNull());
        QCOMPARE(members[1][u"clientId"_s].toString(), QString());
        const QJsonArray partitions = billing[u"partitions"_s].toArray();
        QCOMPARE(partitions[0][u"currentOffset"_s].toInteger(), 40);
        QCOMPARE(partitions[0][u"logEndOffset"_s].toInteger(), int64_t(1) << 53);
        QCOMPARE(partitions[1][u"partition"_s].toInt(), 7);
        QVERIFY(partitions[1][u"currentOffset"_s].isNull());
        QVERIFY(partitions[1][u"logEndOffset"_s].isNull());
        QVERIFY(partitions[1][u"lag"_s].isNull());
        QVERIFY(partitions[1][u"consumerId"_s].isNull());
        QCOMPARE(partitions[1][u"error"_s].isString(), withErrors);
        QCOMPARE(billing[u"error"_s].isString(), withErrors);
    }

    // --lag-detail's fields keep Qt's (sorted) key order too, and say what they are.
    void lagDetailJsonIsWhatQtWouldPrint() {
        monitor::GroupSnapshot group = sampleGroup(u"billing"_s, false);
        lag::LagDetail& detail = group.partitions[0].lagDetail.edit();
        detail.effectiveLag = 0;
        detail.transactionMarkers = 1;
        detail.lastStableOffset = 41;
        detail.lastStableLag = 1;
        detail.notComputed = {u"oldest record: not read"_s};
        const QByteArray text = cli::groupsToJsonText({group}, true);
        QCOMPARE(text, reformattedByQt(text));
        const QJsonObject billing = QJsonDocument::fromJson(text).array()[0].toObject();
        const QJsonObject written = billing[u"partitions"_s][0][u"lagDetail"_s].toObject();
        QCOMPARE(written[u"effectiveLag"_s].toInteger(-1), 0);
        QCOMPARE(written[u"reason"_s].toString(), u"caught up: 1 transaction marker"_s);
        QCOMPARE(written[u"oldestRecord"_s][u"status"_s].toString(), u"notNeeded"_s);
        QVERIFY(billing[u"partitionsWithoutCommit"_s].isDouble());
        QVERIFY(!cli::groupsToJsonText({group}).contains("lagDetail"));
    }

    void booleansAreTrueAndFalseNotNumbers() {
        groupscope::cli::IndentedJsonWriter json;
        json.beginObject();
        json.booleanField(QLatin1StringView("reconciling"), false);
        json.booleanField(QLatin1StringView("member"), true);
        json.endObject();
        const QJsonObject object = QJsonDocument::fromJson(json.finish()).object();
        QVERIFY(object[QStringLiteral("reconciling")].isBool());
        QCOMPARE(object[QStringLiteral("reconciling")].toBool(true), false);
        QCOMPARE(object[QStringLiteral("member")].toBool(false), true);
    }
};

QTEST_GUILESS_MAIN(TestIndentedJsonWriter)
#include "TestIndentedJsonWriter.moc"
