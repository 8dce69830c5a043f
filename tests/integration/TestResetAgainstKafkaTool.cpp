// Offset resets against Kafka's own kafka-consumer-groups on the real broker. For every
// mode and scope, on identical groups, Groupscope's dry-run plan must equal Kafka's; after
// --execute, the offsets an independent client (python3-kafka) reads back must equal it.
#include "TestBroker.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace groupscope;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");
// Record timestamps of the test topic: message i of every partition at base + i seconds.
constexpr qint64 baseTimestampMs = 1704067200000; // 2024-01-01T00:00:00.000Z

using OffsetMap = QMap<QString, qint64>; // "group/topic:partition" -> offset

QString key(const QString& group, const QString& topic, int partition) {
    return QStringLiteral("%1/%2:%3").arg(group, topic).arg(partition);
}

// Kafka's --export CSV: topic,partition,offset (one group) or group,topic,partition,offset.
OffsetMap parseExport(const QByteArray& csv, const QString& singleGroup) {
    OffsetMap offsets;
    for (const QByteArray& line : csv.split('\n')) {
        // Kafka's CSV writer quotes values longer than 24 characters; names here have no
        // commas, so dropping the quotes is enough.
        const QStringList cells = QString::fromUtf8(line).trimmed().remove(u'"').split(u',');
        if (cells.size() == 3)
            offsets.insert(key(singleGroup, cells[0], cells[1].toInt()), cells[2].toLongLong());
        else if (cells.size() == 4)
            offsets.insert(key(cells[0], cells[1], cells[2].toInt()), cells[3].toLongLong());
    }
    return offsets;
}

OffsetMap parsePlanJson(const QByteArray& json) {
    OffsetMap offsets;
    for (const QJsonValue& value : QJsonDocument::fromJson(json).array()) {
        const QJsonObject row = value.toObject();
        if (!row[QStringLiteral("newOffset")].isNull())
            offsets.insert(key(row[QStringLiteral("group")].toString(),
                               row[QStringLiteral("topic")].toString(),
                               row[QStringLiteral("partition")].toInt()),
                           row[QStringLiteral("newOffset")].toInteger());
    }
    return offsets;
}

// Renames the group part of every key, to compare a plan for group A with one for group B.
OffsetMap renameGroup(const OffsetMap& offsets, const QString& from, const QString& to) {
    OffsetMap renamed;
    for (auto it = offsets.cbegin(); it != offsets.cend(); ++it) {
        QString k = it.key();
        if (k.startsWith(from + u'/'))
            k = to + k.mid(from.size());
        renamed.insert(k, it.value());
    }
    return renamed;
}

} // namespace

class TestResetAgainstKafkaTool : public QObject {
    Q_OBJECT

    QString m_topic;         // 4 partitions with 20, 12, 3 and 0 messages
    QString m_other;         // 2 partitions with 5 messages each
    QTemporaryDir m_dataDir; // the audit log of this test
    const QList<int> m_messagesPerPartition{20, 12, 3, 0};

    test::ProcessResult groupscope(const QStringList& arguments) {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        qputenv("GROUPSCOPE_DATA_DIR", m_dataDir.path().toUtf8());
        return test::run(
            cliPath, QStringList{QStringLiteral("--bootstrap-server"), test::bootstrapServers()} +
                         arguments);
    }

    // Commits the same starting offsets into a new group: t:0=10, t:1=2, t:2=1, other:0=4
    // (t:3 and other:1 have no commit).
    QString makeGroup(const QString& prefix) {
        const QString group = test::uniqueName(prefix);
        const auto result = test::runPython(QStringLiteral(R"(
from kafka import KafkaConsumer, TopicPartition
from kafka.structs import OffsetAndMetadata
c = KafkaConsumer(bootstrap_servers=BOOTSTRAP, group_id='%1', enable_auto_commit=False)
c.commit({TopicPartition('%2', 0): OffsetAndMetadata(10, None), TopicPartition('%2', 1): OffsetAndMetadata(2, None),
          TopicPartition('%2', 2): OffsetAndMetadata(1, None), TopicPartition('%3', 0): OffsetAndMetadata(4, None)})
c.close()
)")
                                                .arg(group, m_topic, m_other));
        if (!result.ok())
            qWarning("commit failed: %s", result.err.constData());
        return group;
    }

    // Committed offsets of a group as python3-kafka reads them (the independent reader).
    OffsetMap readBack(const QString& group) {
        const auto result = test::runPython(QStringLiteral(R"(
from kafka.admin import KafkaAdminClient
admin = KafkaAdminClient(bootstrap_servers=BOOTSTRAP)
for tp, om in sorted(admin.list_consumer_group_offsets('%1').items()):
    if om.offset >= 0:
        print('%s,%d,%d' % (tp.topic, tp.partition, om.offset))
admin.close()
)")
                                                .arg(group));
        return parseExport(result.out, group);
    }

    OffsetMap kafkaPlan(const QStringList& groups, const QStringList& arguments,
                        bool execute = false) {
        QStringList words{QStringLiteral("--reset-offsets")};
        for (const QString& group : groups)
            words << QStringLiteral("--group") << group;
        words << arguments << (execute ? QStringLiteral("--execute") : QStringLiteral("--dry-run"))
              << QStringLiteral("--export");
        const auto result = test::kafkaConsumerGroups(words);
        if (!result.ok())
            qWarning("kafka-consumer-groups failed: %s", result.err.constData());
        return parseExport(result.out, groups.size() == 1 ? groups.first() : QString());
    }

    OffsetMap ourPlan(const QStringList& groups, const QStringList& arguments,
                      bool execute = false) {
        QStringList words{QStringLiteral("reset")};
        for (const QString& group : groups)
            words << QStringLiteral("--group") << group;
        words << arguments << QStringLiteral("--json");
        if (execute)
            words << QStringLiteral("--execute");
        const auto result = groupscope(words);
        if (!result.ok())
            qWarning("groupscope-cli failed (%d): %s", result.exitCode, result.err.constData());
        // With --execute the plan is printed before the apply report.
        const qsizetype end = result.out.lastIndexOf(']');
        return parsePlanJson(result.out.left(end + 1));
    }

private slots:
    void initTestCase() {
        QString why;
        if (test::bootstrapServers(&why).isEmpty())
            QFAIL(qPrintable(why));
        QVERIFY(m_dataDir.isValid());
        qputenv("GROUPSCOPE_DATA_DIR", m_dataDir.path().toUtf8());
        m_topic = test::uniqueName(QStringLiteral("reset"));
        m_other = test::uniqueName(QStringLiteral("reset-other"));
        QVERIFY(test::createTopic(m_topic, 4));
        QVERIFY(test::createTopic(m_other, 2));
        // Records with known timestamps, so date-time resets have exact expected offsets.
        const auto produced = test::runPython(QStringLiteral(R"(
from kafka import KafkaProducer
p = KafkaProducer(bootstrap_servers=BOOTSTRAP, acks='all', retries=100, retry_backoff_ms=200)
sent = []
for partition, count in enumerate([%3]):
    for i in range(count):
        sent.append(p.send('%1', value=b'v%d' % i, key=b'k%d' % i, partition=partition, timestamp_ms=%2 + i * 1000))
for partition in range(2):
    for i in range(5):
        sent.append(p.send('%4', value=b'o', partition=partition, timestamp_ms=%2 + i * 1000))
for future in sent:
    future.get(timeout=60)  # a failed send raises here instead of vanishing
p.close()
)")
                                                  .arg(m_topic)
                                                  .arg(baseTimestampMs)
                                                  .arg(QStringLiteral("20, 12, 3, 0"))
                                                  .arg(m_other));
        QVERIFY2(produced.ok(), produced.err.constData());
    }

    void dateTimeResolvesToKnownOffsets() {
        // Agreement with Kafka's tool alone could hide a setup where both see empty logs:
        // here the expected offsets follow from the record timestamps written above.
        const QString group = makeGroup(QStringLiteral("reset-known"));
        const OffsetMap plan =
            ourPlan({group}, {QStringLiteral("--topic"), m_topic, QStringLiteral("--to-datetime"),
                              QStringLiteral("2024-01-01T00:00:05.500")});
        QCOMPARE(plan.value(key(group, m_topic, 0), -1),
                 qint64(6)); // first record at or after 5.5 s
        QCOMPARE(plan.value(key(group, m_topic, 1), -1), qint64(6));
        QCOMPARE(plan.value(key(group, m_topic, 2), -1),
                 qint64(3)); // 3 records, all older: log end
        QCOMPARE(plan.value(key(group, m_topic, 3), -1), qint64(0)); // empty partition: log end
    }

    void previewShowsTheNextRecord() {
        const QString group = makeGroup(QStringLiteral("reset-preview"));
        const auto result = groupscope(
            {QStringLiteral("reset"), QStringLiteral("--group"), group, QStringLiteral("--topic"),
             m_topic, QStringLiteral("--to-datetime"), QStringLiteral("2024-01-01T00:00:05.500"),
             QStringLiteral("--preview"), QStringLiteral("--json")});
        QVERIFY2(result.ok(), result.err.constData());
        QMap<int, QJsonObject> next;
        for (const QJsonValue& row : QJsonDocument::fromJson(result.out).array())
            next.insert(row[QStringLiteral("partition")].toInt(),
                        row[QStringLiteral("nextRecord")].toObject());
        QCOMPARE(next.size(), 4);
        // Record 6 of partition 0 was written with key k6, value v6, at base + 6 s.
        QCOMPARE(next[0][QStringLiteral("offset")].toInteger(), qint64(6));
        QCOMPARE(next[0][QStringLiteral("keyHead")].toString(), QStringLiteral("k6"));
        QCOMPARE(next[0][QStringLiteral("valueHead")].toString(), QStringLiteral("v6"));
        QCOMPARE(next[0][QStringLiteral("timestamp")].toInteger(), baseTimestampMs + 6000);
        QVERIFY(next[2][QStringLiteral("atLogEnd")].toBool()); // falls back to the log end
        QVERIFY(next[3][QStringLiteral("atLogEnd")].toBool());
    }

    void dryRunEqualsKafka_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("expectedRows");
        const QString t = QStringLiteral("--topic");
        auto topic = [this] { return m_topic; };
        QTest::newRow("to-offset all-topics (clamps)")
            << QStringList{QStringLiteral("--all-topics"), QStringLiteral("--to-offset"),
                           QStringLiteral("5")}
            << 4;
        QTest::newRow("to-offset topic")
            << QStringList{t, topic(), QStringLiteral("--to-offset"), QStringLiteral("11")} << 4;
        QTest::newRow("to-offset partitions")
            << QStringList{t, topic() + QStringLiteral(":0,2"), QStringLiteral("--to-offset"),
                           QStringLiteral("2")}
            << 2;
        QTest::newRow("shift back (clamps at start)")
            << QStringList{QStringLiteral("--all-topics"), QStringLiteral("--shift-by"),
                           QStringLiteral("-3")}
            << 4;
        QTest::newRow("shift forward (clamps at end)")
            << QStringList{QStringLiteral("--all-topics"), QStringLiteral("--shift-by"),
                           QStringLiteral("100")}
            << 4;
        QTest::newRow("to-earliest")
            << QStringList{t, topic(), QStringLiteral("--to-earliest")} << 4;
        QTest::newRow("to-latest")
            << QStringList{t, topic(), t, m_other, QStringLiteral("--to-latest")} << 6;
        QTest::newRow("to-current (uncommitted takes log end)")
            << QStringList{t, topic(), QStringLiteral("--to-current")} << 4;
        QTest::newRow("to-datetime UTC") << QStringList{t, topic(), QStringLiteral("--to-datetime"),
                                                        QStringLiteral("2024-01-01T00:00:05.500")}
                                         << 4;
        QTest::newRow("to-datetime Z") << QStringList{t, topic(), QStringLiteral("--to-datetime"),
                                                      QStringLiteral("2024-01-01T00:00:02.000Z")}
                                       << 4;
        QTest::newRow("to-datetime +01:00")
            << QStringList{t, topic(), QStringLiteral("--to-datetime"),
                           QStringLiteral("2024-01-01T01:00:07.000+01:00")}
            << 4;
        QTest::newRow("to-datetime -05:00")
            << QStringList{t, topic(), QStringLiteral("--to-datetime"),
                           QStringLiteral("2023-12-31T19:00:15.000-05:00")}
            << 4;
        QTest::newRow("to-datetime before all")
            << QStringList{t, topic(), QStringLiteral("--to-datetime"),
                           QStringLiteral("2020-01-01T00:00:00.000")}
            << 4;
        QTest::newRow("to-datetime after all (log end)")
            << QStringList{t, topic(), QStringLiteral("--to-datetime"),
                           QStringLiteral("2030-01-01T00:00:00.000")}
            << 4;
        QTest::newRow("by-duration long ago")
            << QStringList{t, topic(), QStringLiteral("--by-duration"), QStringLiteral("P3650D")}
            << 4;
        QTest::newRow("by-duration recent (log end)")
            << QStringList{t, topic(), QStringLiteral("--by-duration"), QStringLiteral("PT1H")}
            << 4;
    }
    void dryRunEqualsKafka() {
        QFETCH(QStringList, arguments);
        QFETCH(int, expectedRows);
        const QString group = makeGroup(QStringLiteral("reset-dry"));
        const OffsetMap expected = kafkaPlan({group}, arguments);
        const OffsetMap actual = ourPlan({group}, arguments);
        QCOMPARE(expected.size(), expectedRows);
        QCOMPARE(actual, expected);
        QCOMPARE(readBack(group).value(key(group, m_topic, 0)),
                 qint64(10)); // a dry run changes nothing
    }

    void severalGroupsFromFile() {
        const QString first = makeGroup(QStringLiteral("reset-file-a"));
        const QString second = makeGroup(QStringLiteral("reset-file-b"));
        // The same rows twice: plain for Kafka's tool, which reads a byte order mark as part
        // of the first group id, and with BOM and CRLF line ends for Groupscope, which
        // tolerates both (files saved by spreadsheet programs have them).
        const QString rows = QStringLiteral("%1,%2,0,7\n%1,%2,1,50\n%3,%4,1,2\n")
                                 .arg(first, m_topic, second, m_other);
        const QString plainPath = m_dataDir.filePath(QStringLiteral("plan.csv"));
        const QString windowsPath = m_dataDir.filePath(QStringLiteral("plan-windows.csv"));
        QFile plain(plainPath), windows(windowsPath);
        QVERIFY(plain.open(QIODevice::WriteOnly) && windows.open(QIODevice::WriteOnly));
        plain.write(rows.toUtf8());
        windows.write("\xEF\xBB\xBF" +
                      QString(rows).replace(QStringLiteral("\n"), QStringLiteral("\r\n")).toUtf8());
        plain.close();
        windows.close();
        const OffsetMap expected =
            kafkaPlan({first, second}, {QStringLiteral("--from-file"), plainPath});
        QCOMPARE(expected.size(), 3);
        QCOMPARE(ourPlan({first, second}, {QStringLiteral("--from-file"), plainPath}), expected);
        const QStringList arguments{QStringLiteral("--from-file"), windowsPath};
        QCOMPARE(ourPlan({first, second}, arguments), expected);
    }

    void executeEqualsKafkaAndReadsBack_data() { dryRunEqualsKafka_data(); }
    void executeEqualsKafkaAndReadsBack() {
        QFETCH(QStringList, arguments);
        const QString ours = makeGroup(QStringLiteral("reset-ours"));
        const QString theirs = makeGroup(QStringLiteral("reset-theirs"));
        const OffsetMap ourPlanned = ourPlan({ours}, arguments, true);
        const OffsetMap kafkaPlanned = kafkaPlan({theirs}, arguments, true);
        QVERIFY(!ourPlanned.isEmpty());
        QCOMPARE(renameGroup(ourPlanned, ours, theirs), kafkaPlanned);
        // What the broker now holds, read by an independent client, is exactly the plan
        // (plus the commits outside the plan's scope, unchanged).
        const OffsetMap readOurs = readBack(ours);
        for (auto it = ourPlanned.cbegin(); it != ourPlanned.cend(); ++it)
            QVERIFY2(readOurs.value(it.key(), -1) == it.value(), qPrintable(it.key()));
        QCOMPARE(renameGroup(readOurs, ours, theirs), readBack(theirs));
    }

    void activeGroupIsRefusedAndUnchanged() {
        const QString group = makeGroup(QStringLiteral("reset-active"));
        const OffsetMap before = readBack(group);
        test::PythonGroupMember member(m_topic, group, QStringLiteral("live-member"));
        QVERIFY(member.waitUntilAssigned());
        const auto refused =
            groupscope({QStringLiteral("reset"), QStringLiteral("--group"), group,
                        QStringLiteral("--all-topics"), QStringLiteral("--to-earliest"),
                        QStringLiteral("--execute")});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("active member"), refused.err.constData());
        QVERIFY2(refused.err.contains("live-member"), refused.err.constData());
        QVERIFY(member.leave());
        QCOMPARE(readBack(group), before);
    }

    void armedResetAppliesOnceTheGroupEmpties() {
        const QString group = makeGroup(QStringLiteral("reset-armed"));
        test::PythonGroupMember member(m_topic, group, QStringLiteral("armed-member"));
        QVERIFY(member.waitUntilAssigned());

        // Armed: the reset waits (up to 60 s) for the group to become Empty, then applies.
        QProcess reset;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("GROUPSCOPE_DATA_DIR"), m_dataDir.path());
        reset.setProcessEnvironment(environment);
        reset.start(cliPath, {QStringLiteral("--bootstrap-server"), test::bootstrapServers(),
                              QStringLiteral("reset"), QStringLiteral("--group"), group,
                              QStringLiteral("--all-topics"), QStringLiteral("--to-earliest"),
                              QStringLiteral("--execute"), QStringLiteral("--wait-until-empty"),
                              QStringLiteral("60")});
        QVERIFY(reset.waitForStarted());
        // While the member lives, nothing may change.
        QVERIFY(!reset.waitForFinished(3000));
        QCOMPARE(readBack(group).value(key(group, m_topic, 0), -1), qint64(10));
        QVERIFY(member.leave()); // the group becomes Empty
        QVERIFY(reset.waitForFinished(60000));
        QCOMPARE(reset.exitCode(), 0);
        QCOMPARE(readBack(group).value(key(group, m_topic, 0), -1), qint64(0));
    }

    void undoRestoresExactOffsets() {
        const QString group = makeGroup(QStringLiteral("reset-undo"));
        const OffsetMap before = readBack(group);
        QCOMPARE(before.size(), 4);
        // to-latest over the whole topic also creates a commit on t:3, which undo deletes.
        const auto applied = groupscope(
            {QStringLiteral("reset"), QStringLiteral("--group"), group, QStringLiteral("--topic"),
             m_topic, QStringLiteral("--to-latest"), QStringLiteral("--execute")});
        QVERIFY2(applied.ok(), applied.err.constData());
        QCOMPARE(readBack(group).value(key(group, m_topic, 3), -1), qint64(0));
        QCOMPARE(readBack(group).value(key(group, m_topic, 0), -1), qint64(20));
        const auto history = groupscope({QStringLiteral("history"), QStringLiteral("--group"),
                                         group, QStringLiteral("--json")});
        const QJsonArray entries = QJsonDocument::fromJson(history.out).array();
        QCOMPARE(entries.size(), 1);
        const QString entryId = entries.first()[QStringLiteral("id")].toString();
        QCOMPARE(entries.first()[QStringLiteral("partitions")].toArray().size(), 4);

        const auto dryUndo =
            groupscope({QStringLiteral("undo"), QStringLiteral("--entry"), entryId});
        QVERIFY2(dryUndo.ok(), dryUndo.err.constData());
        QCOMPARE(readBack(group).value(key(group, m_topic, 0), -1),
                 qint64(20)); // dry run by default
        const auto undone = groupscope({QStringLiteral("undo"), QStringLiteral("--entry"), entryId,
                                        QStringLiteral("--execute")});
        QVERIFY2(undone.ok(), undone.err.constData());
        QCOMPARE(readBack(group), before);
    }

    void badInputChangesNothing_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown topic")
            << QStringList{QStringLiteral("--topic"), QStringLiteral("no-such-topic-x"),
                           QStringLiteral("--to-earliest")}
            << QStringLiteral("no-such-topic-x' does not exist");
        QTest::newRow("unknown partition")
            << QStringList{QStringLiteral("--topic"), m_topic + QStringLiteral(":9"),
                           QStringLiteral("--to-offset"), QStringLiteral("1")}
            << QStringLiteral("partition 9 does not exist");
        QTest::newRow("bad datetime")
            << QStringList{QStringLiteral("--all-topics"), QStringLiteral("--to-datetime"),
                           QStringLiteral("2024-02-30T00:00:00.000")}
            << QStringLiteral("no such date");
        QTest::newRow("bad duration")
            << QStringList{QStringLiteral("--all-topics"), QStringLiteral("--by-duration"),
                           QStringLiteral("1 hour")}
            << QStringLiteral("duration \"1 hour\" is not valid");
        QTest::newRow("shift overflow")
            << QStringList{QStringLiteral("--all-topics"), QStringLiteral("--shift-by"),
                           QStringLiteral("99999999999999999999")}
            << QStringLiteral("does not fit in 64 bits");
        QTest::newRow("shift without commit")
            << QStringList{QStringLiteral("--topic"), m_topic, QStringLiteral("--shift-by"),
                           QStringLiteral("1")}
            << QStringLiteral("has no committed offset");
    }
    void badInputChangesNothing() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const QString group = makeGroup(QStringLiteral("reset-bad"));
        const OffsetMap before = readBack(group);
        const auto result =
            groupscope(QStringList{QStringLiteral("reset"), QStringLiteral("--group"), group} +
                       arguments + QStringList{QStringLiteral("--execute")});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains(message.toUtf8()) || result.out.contains(message.toUtf8()),
                 (result.out + result.err).constData());
        QCOMPARE(readBack(group), before);
    }

    void badFilesChangeNothing() {
        const QString group = makeGroup(QStringLiteral("reset-badfile"));
        const OffsetMap before = readBack(group);
        struct Case {
            QByteArray content;
            QString message;
        };
        const QList<Case> cases{
            {QByteArray(), QStringLiteral("the file has no rows")},
            {m_topic.toUtf8() + ",0\n", QStringLiteral(":1: expected 3 columns")},
            {m_topic.toUtf8() + ",0,5\n" + m_topic.toUtf8() + ",zero,5\n",
             QStringLiteral(":2: column 2: partition \"zero\"")},
            {m_topic.toUtf8() + ",0,-5\n", QStringLiteral(":1: column 3: offset -5 is negative")},
            {m_topic.toUtf8() + ",0,5\n" + m_topic.toUtf8() + ",0,6\n",
             QStringLiteral(":2: duplicate row")},
            {"other-group," + m_topic.toUtf8() + ",0,5\n",
             QStringLiteral("row for group 'other-group'")},
            {"no-such-topic-y,0,5\n", QStringLiteral("no-such-topic-y' does not exist")},
        };
        for (const Case& c : cases) {
            const QString path = m_dataDir.filePath(QStringLiteral("bad.csv"));
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(c.content);
            file.close();
            const auto result =
                groupscope({QStringLiteral("reset"), QStringLiteral("--group"), group,
                            QStringLiteral("--from-file"), path, QStringLiteral("--execute")});
            QVERIFY2(result.exitCode == 1, qPrintable(c.message));
            QVERIFY2((result.err + result.out).contains(c.message.toUtf8()),
                     (result.out + result.err).constData());
        }
        // A 100 MB file is refused before it is read.
        const QString huge = m_dataDir.filePath(QStringLiteral("huge.csv"));
        QFile file(huge);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.resize(100 * 1024 * 1024));
        file.close();
        const auto result =
            groupscope({QStringLiteral("reset"), QStringLiteral("--group"), group,
                        QStringLiteral("--from-file"), huge, QStringLiteral("--execute")});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("offsets files over 16 MiB are refused"),
                 result.err.constData());
        QCOMPARE(readBack(group), before);
    }

    void kafkaCommandLineRunsInKafkaTool() {
        const QString group = makeGroup(QStringLiteral("reset-cmd"));
        const auto line =
            groupscope({QStringLiteral("reset"), QStringLiteral("--group"), group,
                        QStringLiteral("--topic"), m_topic, QStringLiteral("--to-datetime"),
                        QStringLiteral("2024-01-01T01:00:07.000+01:00"),
                        QStringLiteral("--as-kafka-command")});
        QVERIFY2(line.ok(), line.err.constData());
        QStringList words = QString::fromUtf8(line.out).trimmed().split(u' ');
        QCOMPARE(words.first(), QStringLiteral("kafka-consumer-groups"));
        words.removeFirst();
        words.removeAt(words.indexOf(QStringLiteral("--bootstrap-server")) + 1);
        words.removeAll(QStringLiteral("--bootstrap-server"));
        const auto kafka =
            test::kafkaConsumerGroups(words + QStringList{QStringLiteral("--export")});
        QVERIFY2(kafka.ok(), kafka.err.constData());
        QCOMPARE(
            parseExport(kafka.out, group),
            ourPlan({group}, {QStringLiteral("--topic"), m_topic, QStringLiteral("--to-datetime"),
                              QStringLiteral("2024-01-01T01:00:07.000+01:00")}));
    }
};

QTEST_GUILESS_MAIN(TestResetAgainstKafkaTool)
#include "TestResetAgainstKafkaTool.moc"
