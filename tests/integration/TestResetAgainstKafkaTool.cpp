// Offset resets against Kafka's own kafka-consumer-groups on the real broker. For every
// mode and scope, on identical groups, Groupscope's dry-run plan must equal Kafka's; after
// --execute, the offsets an independent client (python3-kafka) reads back must equal it.
#include "TestBroker.h"
#include "offsets/WriteJournal.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace groupscope;
using namespace Qt::StringLiterals;

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
    QStringList m_dryRunGroups; // made once: a dry run must leave them as they are

    test::ProcessResult groupscope(const QStringList& arguments) {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        qputenv("GROUPSCOPE_DATA_DIR", m_dataDir.path().toUtf8());
        return test::run(
            cliPath, QStringList{QStringLiteral("--bootstrap-server"), test::bootstrapServers()} +
                         test::afterSetupCommits(arguments));
    }

    // Commits the same starting offsets into a new group: t:0=10, t:1=2, t:2=1, other:0=4,
    // other:1=1 (t:3 has no commit).
    // What makeGroup commits for `group`, keyed like OffsetMap.
    OffsetMap madeOffsets(const QString& group) const {
        return {{key(group, m_topic, 0), 10},
                {key(group, m_topic, 1), 2},
                {key(group, m_topic, 2), 1},
                {key(group, m_other, 0), 4},
                {key(group, m_other, 1), 1}};
    }

    // A new group with the commits madeOffsets gives.
    QString makeGroup(const QString& prefix) {
        const QString group = test::uniqueName(prefix);
        const auto result = test::runPython(QStringLiteral(R"(
from kafka import KafkaConsumer, TopicPartition
from kafka.structs import OffsetAndMetadata
c = KafkaConsumer(bootstrap_servers=BOOTSTRAP, group_id='%1', enable_auto_commit=False)
c.commit({TopicPartition('%2', 0): OffsetAndMetadata(10, None), TopicPartition('%2', 1): OffsetAndMetadata(2, None),
          TopicPartition('%2', 2): OffsetAndMetadata(1, None), TopicPartition('%3', 0): OffsetAndMetadata(4, None),
          TopicPartition('%3', 1): OffsetAndMetadata(1, None)})
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

    // Groupscope's --json plan rows, keyed like OffsetMap.
    QMap<QString, QJsonObject> ourRows(const QString& group, const QStringList& arguments) {
        const auto result =
            groupscope(QStringList{QStringLiteral("reset"), QStringLiteral("--group"), group} +
                       arguments + QStringList{QStringLiteral("--json")});
        if (!result.ok())
            qWarning("groupscope-cli failed (%d): %s", result.exitCode, result.err.constData());
        QMap<QString, QJsonObject> rows;
        for (const QJsonValue& value : QJsonDocument::fromJson(result.out).array()) {
            const QJsonObject row = value.toObject();
            rows.insert(key(row[QStringLiteral("group")].toString(),
                            row[QStringLiteral("topic")].toString(),
                            row[QStringLiteral("partition")].toInt()),
                        row);
        }
        return rows;
    }

    QString writeFile(const QString& name, const QByteArray& content) {
        const QString path = m_dataDir.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        file.write(content);
        return path;
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

    void dryRunEqualsKafka_data() { addResetRows(RowsOf::EveryKindAndScope); }
    void dryRunEqualsKafka() {
        QFETCH(QStringList, arguments);
        QFETCH(int, expectedRows);
        QFETCH(int, groupCount);
        // A dry run changes nothing, so every row plans on the same groups.
        while (m_dryRunGroups.size() < groupCount)
            m_dryRunGroups.append(makeGroup(QStringLiteral("reset-dry")));
        const QStringList groups = m_dryRunGroups.mid(0, groupCount);
        const OffsetMap expected = kafkaPlan(groups, arguments);
        const OffsetMap actual = ourPlan(groups, arguments);
        QCOMPARE(expected.size(), expectedRows * groupCount);
        QCOMPARE(actual, expected);
        for (const QString& group : groups)
            QCOMPARE(readBack(group), madeOffsets(group)); // nothing changed, anywhere
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

    void executeEqualsKafkaAndReadsBack_data() { addResetRows(RowsOf::OneOfEachKind); }
    void executeEqualsKafkaAndReadsBack() {
        QFETCH(QStringList, arguments);
        QFETCH(int, groupCount);
        QStringList ours, theirs;
        for (int i = 0; i < groupCount; ++i) {
            ours.append(makeGroup(QStringLiteral("reset-ours")));
            theirs.append(makeGroup(QStringLiteral("reset-theirs")));
        }
        const OffsetMap ourPlanned = ourPlan(ours, arguments, true);
        const OffsetMap kafkaPlanned = kafkaPlan(theirs, arguments, true);
        QVERIFY(!ourPlanned.isEmpty());
        OffsetMap renamed = ourPlanned;
        for (int i = 0; i < groupCount; ++i)
            renamed = renameGroup(renamed, ours[i], theirs[i]);
        QCOMPARE(renamed, kafkaPlanned);
        // What the broker now holds, read by an independent client, is exactly the plan
        // (plus the commits outside the plan's scope, unchanged).
        for (int i = 0; i < groupCount; ++i) {
            const OffsetMap readOurs = readBack(ours[i]);
            for (auto it = ourPlanned.cbegin(); it != ourPlanned.cend(); ++it)
                if (it.key().startsWith(ours[i] + u'/'))
                    QVERIFY2(readOurs.value(it.key(), -1) == it.value(), qPrintable(it.key()));
            QCOMPARE(renameGroup(readOurs, ours[i], theirs[i]), readBack(theirs[i]));
        }
    }

    void threeColumnFileExecutesLikeKafka() {
        const QString ours = makeGroup(QStringLiteral("reset-file3-ours"));
        const QString theirs = makeGroup(QStringLiteral("reset-file3-theirs"));
        const QString path = writeFile(
            QStringLiteral("plan3.csv"),
            QStringLiteral("%1,0,7\n%1,1,50\n%1,3,0\n%2,1,2\n").arg(m_topic, m_other).toUtf8());
        const QStringList arguments{QStringLiteral("--from-file"), path};
        const OffsetMap ourPlanned = ourPlan({ours}, arguments, true);
        const OffsetMap kafkaPlanned = kafkaPlan({theirs}, arguments, true);
        QCOMPARE(kafkaPlanned.size(), 4);
        QCOMPARE(renameGroup(ourPlanned, ours, theirs), kafkaPlanned);
        QCOMPARE(kafkaPlanned.value(key(theirs, m_topic, 1)), qint64(12)); // clamped
        const OffsetMap readOurs = readBack(ours);
        for (auto it = ourPlanned.cbegin(); it != ourPlanned.cend(); ++it)
            QVERIFY2(readOurs.value(it.key(), -1) == it.value(), qPrintable(it.key()));
        QCOMPARE(renameGroup(readOurs, ours, theirs), readBack(theirs));
    }

    void rowFieldsAndWarnings() {
        // Beyond the new offsets that the differential tests compare: every row carries the
        // committed offset, the log bounds, the delta and the warnings.
        const QString group = m_dryRunGroups.isEmpty() ? makeGroup(QStringLiteral("reset-fields"))
                                                       : m_dryRunGroups.first();
        auto rows = ourRows(group, {QStringLiteral("--all-topics"), QStringLiteral("--to-offset"),
                                    QStringLiteral("5")});
        QCOMPARE(rows.size(), 5);
        QJsonObject row = rows.value(key(group, m_topic, 0));
        QCOMPARE(row[QStringLiteral("currentOffset")].toInteger(), qint64(10));
        QCOMPARE(row[QStringLiteral("logStartOffset")].toInteger(), qint64(0));
        QCOMPARE(row[QStringLiteral("logEndOffset")].toInteger(), qint64(20));
        QCOMPARE(row[QStringLiteral("newOffset")].toInteger(), qint64(5));
        QCOMPARE(row[QStringLiteral("delta")].toInteger(), qint64(-5));
        QVERIFY(row[QStringLiteral("warnings")].toArray().isEmpty());
        row = rows.value(key(group, m_topic, 2)); // 3 records: 5 is after the log end
        QCOMPARE(row[QStringLiteral("currentOffset")].toInteger(), qint64(1));
        QCOMPARE(row[QStringLiteral("logEndOffset")].toInteger(), qint64(3));
        QCOMPARE(row[QStringLiteral("newOffset")].toInteger(), qint64(3));
        QCOMPARE(row[QStringLiteral("delta")].toInteger(), qint64(2));
        QCOMPARE(row[QStringLiteral("warnings")].toArray(),
                 QJsonArray{QStringLiteral("offset 5 is after the log end; clamped to 3")});

        rows = ourRows(group, {QStringLiteral("--all-topics"), QStringLiteral("--shift-by"),
                               QStringLiteral("-30")});
        row = rows.value(key(group, m_topic, 0));
        QCOMPARE(row[QStringLiteral("newOffset")].toInteger(), qint64(0));
        QCOMPARE(row[QStringLiteral("delta")].toInteger(), qint64(-10));
        QCOMPARE(row[QStringLiteral("warnings")].toArray(),
                 QJsonArray{QStringLiteral("offset -20 is before the log start; clamped to 0")});

        rows = ourRows(group, {QStringLiteral("--topic"), m_topic, QStringLiteral("--to-datetime"),
                               QStringLiteral("2030-01-01T00:00:00.000")});
        row = rows.value(key(group, m_topic, 1));
        QCOMPARE(row[QStringLiteral("currentOffset")].toInteger(), qint64(2));
        QCOMPARE(row[QStringLiteral("newOffset")].toInteger(), qint64(12));
        QCOMPARE(row[QStringLiteral("delta")].toInteger(), qint64(10));
        QCOMPARE(
            row[QStringLiteral("warnings")].toArray(),
            QJsonArray{QStringLiteral(
                "no record at or after 2030-01-01T00:00:00.000Z; falls back to the log end 12")});
        row = rows.value(key(group, m_topic, 3)); // no commit: no current offset, no delta
        QVERIFY(row[QStringLiteral("currentOffset")].isNull());
        QVERIFY(row[QStringLiteral("delta")].isNull());
        QCOMPARE(row[QStringLiteral("logEndOffset")].toInteger(), qint64(0));
        QCOMPARE(row[QStringLiteral("newOffset")].toInteger(), qint64(0));
    }

    void exportIsKafkasByteForByte() {
        // Names over 24 characters, which Kafka's CSV writer quotes.
        const QString longTopic = test::uniqueName(QStringLiteral("reset-export-long-topic"));
        QVERIFY(test::createTopic(longTopic, 1));
        const QString first = makeGroup(QStringLiteral("reset-export-with-a-long-name"));
        const QString second = makeGroup(QStringLiteral("reset-x"));
        QVERIFY(test::commitOffsets(first, longTopic, {0}));
        const QStringList arguments{QStringLiteral("--all-topics"), QStringLiteral("--to-earliest"),
                                    QStringLiteral("--dry-run"), QStringLiteral("--export")};
        // Kafka prints rows in hash order: compare the lines as sets, each byte for byte,
        // and the whole output's bytes (the empty line after the rows included).
        auto sortedLines = [](const QByteArray& text) {
            QList<QByteArray> lines = text.split('\n');
            std::sort(lines.begin(), lines.end());
            return lines;
        };
        for (const QStringList& groups : {QStringList{first}, QStringList{first, second}}) {
            QStringList groupWords;
            for (const QString& group : groups)
                groupWords << QStringLiteral("--group") << group;
            const auto kafka = test::kafkaConsumerGroups(
                QStringList{QStringLiteral("--reset-offsets")} + groupWords + arguments);
            QVERIFY2(kafka.ok(), kafka.err.constData());
            const auto ours =
                groupscope(QStringList{QStringLiteral("reset")} + groupWords + arguments);
            QVERIFY2(ours.ok(), ours.err.constData());
            if (groups.size() > 1)
                QVERIFY2(kafka.out.contains('"' + first.toUtf8() + '"'), kafka.out.constData());
            QVERIFY2(kafka.out.contains('"' + longTopic.toUtf8() + '"'), kafka.out.constData());
            QCOMPARE(ours.out.size(), kafka.out.size());
            QCOMPARE(sortedLines(ours.out), sortedLines(kafka.out));
            QVERIFY(ours.out.endsWith("\n\n"));
        }
        // Rows with errors are not in the CSV, so they are said on stderr.
        const auto withError =
            groupscope({QStringLiteral("reset"), QStringLiteral("--group"), first,
                        QStringLiteral("--topic"), m_topic + QStringLiteral(":0,9"),
                        QStringLiteral("--to-earliest"), QStringLiteral("--export")});
        QCOMPARE(withError.exitCode, 1);
        QVERIFY2(withError.err.contains("partition 9 does not exist"), withError.err.constData());
    }

    void activeGroupIsRefusedAndUnchanged() {
        const QString group = makeGroup(QStringLiteral("reset-active"));
        const OffsetMap before = readBack(group);
        test::PythonGroupMember member(m_topic, group, QStringLiteral("live-member"));
        QVERIFY(member.waitUntilAssigned());
        // The dry run already says that applying would be refused, and who is there.
        const auto dryRun =
            groupscope({QStringLiteral("reset"), QStringLiteral("--group"), group,
                        QStringLiteral("--all-topics"), QStringLiteral("--to-earliest")});
        QVERIFY2(dryRun.ok(), dryRun.err.constData());
        QVERIFY2(dryRun.err.contains("applying will be refused"), dryRun.err.constData());
        QVERIFY2(dryRun.err.contains("live-member"), dryRun.err.constData());
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
        QCOMPARE(before.size(), 5);
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
        // Kafka's tool lets commit + shift wrap around, then clamps the negative result to
        // the log start; Groupscope refuses the row instead.
        QTest::newRow("shift arithmetic overflow")
            << QStringList{QStringLiteral("--all-topics"), QStringLiteral("--shift-by"),
                           QStringLiteral("9223372036854775807")}
            << QStringLiteral("shift by 9223372036854775807 overflows the offset range");
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
            {"no-such-topic-y,0,5\n", QStringLiteral("bad.csv:1: ")},
            {"no-such-topic-y,0,5\n", QStringLiteral("no-such-topic-y' does not exist")},
            // Errors only the planner finds still name the file and line.
            {m_topic.toUtf8() + ",7,5\n", QStringLiteral("bad.csv:1: partition 7 does not exist")},
            {m_topic.toUtf8() + ",0,5\n" + m_topic.toUtf8() + ",9,5\n",
             QStringLiteral("bad.csv:2: partition 9 does not exist")},
            {m_topic.toUtf8() + ",0,99999999999999999999\n",
             QStringLiteral("bad.csv:1: column 3: offset")},
            {m_topic.toUtf8() + ",0,99999999999999999999\n",
             QStringLiteral("does not fit in 64 bits")},
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
            QCOMPARE(readBack(group), before);
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

    void deleteOffsetsDryRunExecuteAndUndo() {
        const QString group = makeGroup(QStringLiteral("reset-delete"));
        const OffsetMap before = readBack(group);
        QCOMPARE(before.size(), 5);
        const QStringList words{QStringLiteral("delete-offsets"), QStringLiteral("--group"), group,
                                QStringLiteral("--topic"), m_other};
        // Kafka's --delete-offsets deletes at once; ours previews unless told to execute.
        const auto dryRun = groupscope(words);
        QVERIFY2(dryRun.ok(), dryRun.err.constData());
        QVERIFY2(dryRun.err.contains("nothing was deleted"), dryRun.err.constData());
        QVERIFY2(dryRun.err.contains("--execute"), dryRun.err.constData());
        QCOMPARE(readBack(group), before);

        const auto deleted = groupscope(words + QStringList{QStringLiteral("--execute")});
        QVERIFY2(deleted.ok(), deleted.err.constData());
        OffsetMap expected = before;
        expected.remove(key(group, m_other, 0));
        expected.remove(key(group, m_other, 1));
        QCOMPARE(readBack(group), expected);

        const auto history = groupscope({QStringLiteral("history"), QStringLiteral("--group"),
                                         group, QStringLiteral("--json")});
        const QJsonArray entries = QJsonDocument::fromJson(history.out).array();
        QCOMPARE(entries.size(), 1);
        const auto undone = groupscope({QStringLiteral("undo"), QStringLiteral("--entry"),
                                        entries.first()[QStringLiteral("id")].toString(),
                                        QStringLiteral("--execute")});
        QVERIFY2(undone.ok(), undone.err.constData());
        QCOMPARE(readBack(group), before);
    }

    void deleteOffsetsOfActiveGroupAsKafkaDoes() {
        // As with Kafka's tool, the request is sent and the broker answers per partition: it
        // refuses the topics the members subscribe to and deletes the others.
        const QString group = makeGroup(QStringLiteral("reset-delete-active"));
        test::PythonGroupMember member(m_topic, group, QStringLiteral("delete-member"));
        QVERIFY(member.waitUntilAssigned());
        const QStringList words{QStringLiteral("delete-offsets"),
                                QStringLiteral("--group"),
                                group,
                                QStringLiteral("--topic"),
                                m_topic + QStringLiteral(":0"),
                                QStringLiteral("--topic"),
                                m_other};
        const auto dryRun = groupscope(words);
        QVERIFY2(dryRun.ok(), dryRun.err.constData());
        QVERIFY2(dryRun.err.contains("GROUP_SUBSCRIBED_TO_TOPIC"), dryRun.err.constData());
        const auto deleted = groupscope(words + QStringList{QStringLiteral("--execute")});
        QCOMPARE(deleted.exitCode, 1);
        QVERIFY2(deleted.err.contains("2 of 3 partition(s) applied"), deleted.err.constData());
        int refusedRows = 0;
        for (const QByteArray& line : deleted.out.split('\n'))
            if (line.contains(m_topic.toUtf8() + ' ') && line.contains("FAILED:") &&
                line.contains("GROUP_SUBSCRIBED_TO_TOPIC"))
                ++refusedRows;
        QVERIFY2(refusedRows == 1, deleted.out.constData());
        const OffsetMap after = readBack(group);
        QCOMPARE(after.value(key(group, m_topic, 0), -1), qint64(10));
        QVERIFY(!after.contains(key(group, m_other, 0)));
        QVERIFY(!after.contains(key(group, m_other, 1)));
        QVERIFY(member.leave());
    }

    // --to-group G plans each partition at G's commit: the same plan as Kafka's --from-file
    // with G's offsets; a partition G has no commit for is named and left unchanged; after
    // --execute python3-kafka reads G's offsets back from the copy.
    void toGroupEqualsFromFileWithTheSourcesOffsets() {
        const QString source = makeGroup(QStringLiteral("copy-source"));
        const QString target = test::uniqueName(QStringLiteral("copy-target"));
        QVERIFY(test::commitOffsets(target, m_topic, {0, 0, 0, 0})); // t:3 only in the target
        const OffsetMap sourceOffsets = readBack(source);
        QCOMPARE(sourceOffsets.size(), 5);
        QByteArray csv;
        for (auto it = sourceOffsets.cbegin(); it != sourceOffsets.cend(); ++it) {
            const QString partition = it.key().mid(source.size() + 1); // topic:partition
            csv += partition.left(partition.lastIndexOf(u':')).toUtf8() + ',' +
                   partition.mid(partition.lastIndexOf(u':') + 1).toUtf8() + ',' +
                   QByteArray::number(it.value()) + '\n';
        }
        const QString file = writeFile(QStringLiteral("copy-source.csv"), csv);
        const OffsetMap kafka = kafkaPlan({target}, {QStringLiteral("--from-file"), file});
        QCOMPARE(kafka, renameGroup(sourceOffsets, source, target));

        const QStringList copy{QStringLiteral("--all-topics"), QStringLiteral("--to-group"),
                               source};
        const QMap<QString, QJsonObject> rows = ourRows(target, copy);
        QCOMPARE(rows.size(), 6);
        OffsetMap planned;
        for (auto it = rows.cbegin(); it != rows.cend(); ++it)
            if (it.value()[QStringLiteral("newOffset")].toInteger() !=
                it.value()[QStringLiteral("currentOffset")].toInteger(-1))
                planned.insert(it.key(), it.value()[QStringLiteral("newOffset")].toInteger());
        // Partitions where the target already stands where the source does do not move.
        OffsetMap moving = kafka;
        for (auto it = kafka.cbegin(); it != kafka.cend(); ++it)
            if (it.value() == 0)
                moving.remove(it.key());
        QCOMPARE(planned, moving);
        const QJsonObject untouched = rows.value(key(target, m_topic, 3));
        QCOMPARE(untouched[QStringLiteral("newOffset")].toInteger(), qint64(0));
        QVERIFY2(untouched[QStringLiteral("warnings")].toArray().first().toString().contains(
                     QStringLiteral("has no commit")),
                 QJsonDocument(untouched).toJson().constData());

        // Kafka's tool has no --to-group: the copy command says what to do instead.
        const auto asKafka =
            groupscope(QStringList{QStringLiteral("reset"), QStringLiteral("--group"), target,
                                   QStringLiteral("--as-kafka-command")} +
                       copy);
        QCOMPARE(asKafka.exitCode, 1);
        QVERIFY2(asKafka.err.contains("--from-file"), asKafka.err.constData());

        ourPlan({target}, copy, true);
        OffsetMap expected = renameGroup(sourceOffsets, source, target);
        expected.insert(key(target, m_topic, 3), 0);
        QCOMPARE(readBack(target), expected);
    }

    void toGroupFromAGroupWithoutCommitsChangesNothing() {
        const QString target = makeGroup(QStringLiteral("copy-nothing"));
        const OffsetMap before = readBack(target);
        const QString nobody = test::uniqueName(QStringLiteral("nobody"));
        const auto result =
            groupscope({QStringLiteral("reset"), QStringLiteral("--group"), target,
                        QStringLiteral("--all-topics"), QStringLiteral("--to-group"), nobody,
                        QStringLiteral("--execute")});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains(
                     QStringLiteral("group '%1' has no committed offsets").arg(nobody).toUtf8()),
                 result.err.constData());
        QCOMPARE(readBack(target), before);
    }

    // An entry names its cluster by the id Metadata gives: the same broker under another
    // spelling of its address is the same cluster, an entry of another cluster id is refused
    // (both ids named) unless --force.
    void undoRefusesAnotherCluster() {
        const QString group = makeGroup(QStringLiteral("reset-cluster"));
        const auto applied =
            groupscope({QStringLiteral("reset"), QStringLiteral("--group"), group,
                        QStringLiteral("--all-topics"), QStringLiteral("--to-earliest"),
                        QStringLiteral("--execute")});
        QVERIFY2(applied.ok(), applied.err.constData());
        const OffsetMap after = readBack(group);
        const auto history = groupscope({QStringLiteral("history"), QStringLiteral("--group"),
                                         group, QStringLiteral("--json")});
        const QJsonObject recorded =
            QJsonDocument::fromJson(history.out).array().first().toObject();
        const QString clusterId = recorded[QStringLiteral("clusterId")].toString();
        QVERIFY2(!clusterId.isEmpty(), history.out.constData());

        // The same entry as if recorded on another cluster (same group name, same address).
        offsets::JournalEntry foreign = offsets::JournalEntry::fromJson(recorded).value();
        foreign.id += QStringLiteral("-foreign");
        foreign.clusterId = QStringLiteral("another-cluster-id");
        {
            offsets::WriteJournal journal(m_dataDir.filePath(QStringLiteral("journal.sqlite")));
            QVERIFY(journal.insert(foreign));
        }
        const QString otherSpelling =
            QString(test::bootstrapServers())
                .replace(QStringLiteral("127.0.0.1"), QStringLiteral("localhost"));
        QVERIFY(otherSpelling != test::bootstrapServers());
        auto undo = [&](const QString& entryId, const QStringList& extra) {
            return test::run(cliPath,
                             QStringList{QStringLiteral("--bootstrap-server"), otherSpelling,
                                         QStringLiteral("undo"), QStringLiteral("--entry"), entryId,
                                         QStringLiteral("--execute"),
                                         QStringLiteral("--verify-for"), QStringLiteral("0")} +
                                 extra);
        };
        const auto refused = undo(foreign.id, {});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("add --force") &&
                     refused.err.contains("another-cluster-id") &&
                     refused.err.contains(clusterId.toUtf8()),
                 refused.err.constData());
        QCOMPARE(readBack(group), after);
        // Another spelling of the same broker: the ids agree, the undo goes through.
        const auto undone =
            undo(recorded[QStringLiteral("id")].toString(), {QStringLiteral("--force")});
        QVERIFY2(undone.ok(), undone.err.constData());
        QVERIFY2(!undone.err.contains("was recorded"), undone.err.constData());
        QCOMPARE(readBack(group).value(key(group, m_topic, 0)), qint64(10));
    }

    void allGroupsEqualsKafkaOnPrivateBroker() {
        // --all-groups takes every group of the cluster, and Kafka's dry run refuses active
        // ones: on the shared broker other tests' groups would be part of it, so this case
        // runs on a broker of its own, with groups only this test made.
        test::TestBedDirectory bed;
        QVERIFY2(bed.start({}, "GROUPSCOPE_TEST_PRIVATE_BROKER_DIR",
                           QStringLiteral("private broker"), std::chrono::seconds(240)),
                 qPrintable(bed.error()));
        const QString bootstrap = bed.firstLineOf(QStringLiteral("bootstrap"));
        QVERIFY(!bootstrap.isEmpty());
        const QString topic = test::uniqueName(QStringLiteral("all-groups-topic-with-long-name"));
        QVERIFY(test::createTopic(topic, 2, bootstrap));
        QVERIFY(test::produce(topic, 6, 0, bootstrap));
        QVERIFY(test::produce(topic, 4, 1, bootstrap));
        auto cli = [&](const QStringList& arguments) {
            return test::run(cliPath, QStringList{QStringLiteral("--bootstrap-server"), bootstrap} +
                                          test::afterSetupCommits(arguments));
        };
        auto sortedLines = [](const QByteArray& text) {
            QList<QByteArray> lines = text.split('\n');
            std::sort(lines.begin(), lines.end());
            return lines;
        };
        const QStringList exportWords{QStringLiteral("--all-groups"),
                                      QStringLiteral("--all-topics"),
                                      QStringLiteral("--to-earliest"), QStringLiteral("--dry-run"),
                                      QStringLiteral("--export")};
        // One group: --all-groups still exports four columns, as Kafka's tool does.
        const QString first = test::uniqueName(QStringLiteral("all-groups-a"));
        QVERIFY(test::commitOffsets(first, topic, {3, 1}, {}, bootstrap));
        auto kafka = test::kafkaConsumerGroups(
            QStringList{QStringLiteral("--reset-offsets")} + exportWords, bootstrap);
        QVERIFY2(kafka.ok(), kafka.err.constData());
        auto ours = cli(QStringList{QStringLiteral("reset")} + exportWords);
        QVERIFY2(ours.ok(), ours.err.constData());
        QVERIFY2(kafka.out.startsWith('"' + first.toUtf8() + "\",\""), kafka.out.constData());
        QCOMPARE(ours.out.size(), kafka.out.size());
        QCOMPARE(sortedLines(ours.out), sortedLines(kafka.out));

        // Two groups, each kind: same plan as Kafka's.
        const QString second = test::uniqueName(QStringLiteral("all-groups-b"));
        QVERIFY(test::commitOffsets(second, topic, {5, 2}, {}, bootstrap));
        const QList<QStringList> kinds{
            {QStringLiteral("--to-offset"), QStringLiteral("4")},
            {QStringLiteral("--shift-by"), QStringLiteral("-2")},
            {QStringLiteral("--to-earliest")},
            {QStringLiteral("--to-latest")},
            {QStringLiteral("--to-current")},
            {QStringLiteral("--to-datetime"), QStringLiteral("2020-01-01T00:00:00.000")},
            {QStringLiteral("--by-duration"), QStringLiteral("PT1H")}};
        for (const QStringList& kind : kinds) {
            const QStringList words =
                QStringList{QStringLiteral("--all-groups"), QStringLiteral("--all-topics")} + kind;
            kafka = test::kafkaConsumerGroups(
                QStringList{QStringLiteral("--reset-offsets")} + words +
                    QStringList{QStringLiteral("--dry-run"), QStringLiteral("--export")},
                bootstrap);
            QVERIFY2(kafka.ok(), kafka.err.constData());
            ours = cli(QStringList{QStringLiteral("reset")} + words +
                       QStringList{QStringLiteral("--json")});
            QVERIFY2(ours.ok(), ours.err.constData());
            const OffsetMap expected = parseExport(kafka.out, QString());
            QCOMPARE(expected.size(), 4);
            QCOMPARE(parsePlanJson(ours.out), expected);
        }
        // Executed: an independent client reads back the plan in both groups.
        const QStringList shift{QStringLiteral("reset"),
                                QStringLiteral("--all-groups"),
                                QStringLiteral("--all-topics"),
                                QStringLiteral("--shift-by"),
                                QStringLiteral("1"),
                                QStringLiteral("--json"),
                                QStringLiteral("--execute")};
        ours = cli(shift);
        QVERIFY2(ours.ok(), ours.err.constData());
        QCOMPARE(test::committedOffsetsByKafka(first, topic, bootstrap),
                 (QMap<int, qlonglong>{{0, 4}, {1, 2}}));
        QCOMPARE(test::committedOffsetsByKafka(second, topic, bootstrap),
                 (QMap<int, qlonglong>{{0, 6}, {1, 3}}));
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

private:
    // Every kind under every scope is planned (dryRunEqualsKafka) against Kafka's tool. The
    // write that follows a plan is one path whatever the kind, so execution is compared
    // for one row of each kind, with clamping, each scope and several groups among them:
    // running the whole matrix twice more cost CI about two minutes and tried no other code.
    enum class RowsOf { EveryKindAndScope, OneOfEachKind };
    void addResetRows(RowsOf rowsOf) {
        static const QStringList executed{u"to-offset all-topics (clamps)"_s,
                                          u"shift back (clamps at start)"_s,
                                          u"shift forward (clamps at end)"_s,
                                          u"to-earliest partitions"_s,
                                          u"to-latest topics"_s,
                                          u"to-current (uncommitted takes log end)"_s,
                                          u"to-datetime +08:00"_s,
                                          u"by-duration all-topics"_s,
                                          u"two groups shift"_s,
                                          u"two groups to-datetime"_s};
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("expectedRows"); // per group
        QTest::addColumn<int>("groupCount");   // --group a [--group b]
        const QString t = QStringLiteral("--topic");
        const QString all = QStringLiteral("--all-topics");
        const QString topic = m_topic;
        const QString some = m_topic + QStringLiteral(":0,3"); // committed and not
        const QString dt = QStringLiteral("--to-datetime");
        const QString dur = QStringLiteral("--by-duration");
        qsizetype executedRows = 0;
        auto row = [rowsOf, &executedRows](const char* name, const QStringList& arguments, int rows,
                                           int groups = 1) {
            const bool isExecuted = executed.contains(QLatin1String(name));
            executedRows += isExecuted;
            if (rowsOf == RowsOf::EveryKindAndScope || isExecuted)
                QTest::newRow(name) << arguments << rows << groups;
        };
        // Every kind under every scope: all topics (5 committed partitions), one topic (4
        // partitions, one without a commit), listed partitions.
        row("to-offset all-topics (clamps)", {all, QStringLiteral("--to-offset"), u"5"_s}, 5);
        row("to-offset topic", {t, topic, QStringLiteral("--to-offset"), u"11"_s}, 4);
        row("to-offset partitions",
            {t, m_topic + QStringLiteral(":0,2"), QStringLiteral("--to-offset"), u"2"_s}, 2);
        row("shift back (clamps at start)", {all, QStringLiteral("--shift-by"), u"-3"_s}, 5);
        row("shift forward (clamps at end)", {all, QStringLiteral("--shift-by"), u"100"_s}, 5);
        row("shift topic", {t, m_other, QStringLiteral("--shift-by"), u"-2"_s}, 2);
        row("shift partitions",
            {t, m_topic + QStringLiteral(":0,1"), QStringLiteral("--shift-by"), u"5"_s}, 2);
        row("to-earliest all-topics", {all, QStringLiteral("--to-earliest")}, 5);
        row("to-earliest topic", {t, topic, QStringLiteral("--to-earliest")}, 4);
        row("to-earliest partitions", {t, some, QStringLiteral("--to-earliest")}, 2);
        row("to-latest all-topics", {all, QStringLiteral("--to-latest")}, 5);
        row("to-latest topics", {t, topic, t, m_other, QStringLiteral("--to-latest")}, 6);
        row("to-latest partitions", {t, some, QStringLiteral("--to-latest")}, 2);
        row("to-current all-topics", {all, QStringLiteral("--to-current")}, 5);
        row("to-current (uncommitted takes log end)", {t, topic, QStringLiteral("--to-current")},
            4);
        row("to-current partitions", {t, some, QStringLiteral("--to-current")}, 2);
        row("to-datetime UTC", {t, topic, dt, u"2024-01-01T00:00:05.500"_s}, 4);
        row("to-datetime Z", {t, topic, dt, u"2024-01-01T00:00:02.000Z"_s}, 4);
        row("to-datetime +08", {t, topic, dt, u"2024-01-01T08:00:04.000+08"_s}, 4);
        row("to-datetime +0800", {t, topic, dt, u"2024-01-01T08:00:03.500+0800"_s}, 4);
        row("to-datetime +08:00", {t, topic, dt, u"2024-01-01T08:00:09.000+08:00"_s}, 4);
        row("to-datetime +01:00", {t, topic, dt, u"2024-01-01T01:00:07.000+01:00"_s}, 4);
        row("to-datetime -05:00", {t, topic, dt, u"2023-12-31T19:00:15.000-05:00"_s}, 4);
        row("to-datetime before all", {t, topic, dt, u"2020-01-01T00:00:00.000"_s}, 4);
        row("to-datetime after all (log end)", {t, topic, dt, u"2030-01-01T00:00:00.000"_s}, 4);
        row("to-datetime all-topics", {all, dt, u"2024-01-01T00:00:01.000"_s}, 5);
        row("to-datetime partitions", {t, some, dt, u"2024-01-01T00:00:11.000"_s}, 2);
        row("by-duration long ago", {t, topic, dur, u"P3650D"_s}, 4);
        row("by-duration recent (log end)", {t, topic, dur, u"PT1H"_s}, 4);
        row("by-duration all-topics", {all, dur, u"P3650D"_s}, 5);
        row("by-duration partitions", {t, some, dur, u"PT1H"_s}, 2);
        // Several groups, each kind.
        row("two groups to-offset", {all, QStringLiteral("--to-offset"), u"3"_s}, 5, 2);
        row("two groups shift", {t, m_other, QStringLiteral("--shift-by"), u"1"_s}, 2, 2);
        row("two groups to-earliest", {t, topic, QStringLiteral("--to-earliest")}, 4, 2);
        row("two groups to-latest", {all, QStringLiteral("--to-latest")}, 5, 2);
        row("two groups to-current", {t, some, QStringLiteral("--to-current")}, 2, 2);
        row("two groups to-datetime", {t, topic, dt, u"2024-01-01T00:00:05.500"_s}, 4, 2);
        row("two groups by-duration", {all, dur, u"PT1H"_s}, 5, 2);
        QCOMPARE(executedRows, executed.size()); // every name above names a row
    }
};

QTEST_GUILESS_MAIN(TestResetAgainstKafkaTool)
#include "TestResetAgainstKafkaTool.moc"
