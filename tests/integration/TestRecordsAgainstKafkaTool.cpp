// `groupscope-cli records` and the RecordBrowser under it, on the real broker:
//   - the records around a group's commit are what Kafka's console consumer prints for the
//     same offsets (offset, key, value, headers), and the commit is marked;
//   - anchors outside the log (above its end; below its start after retention) are clamped
//     and said; bad input is refused with a message;
//   - a value that is not UTF-8 is shown as hex, a JSON value as JSON;
//   - a jump while a producer writes delivers the target offset first and nothing below it
//     (the reposition engine's promise, on the session the Records tab uses).

#include "GroupMembers.h"
#include "TestBroker.h"

#include "records/RecordBrowser.h"
#include "records/RecordWindow.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

using namespace groupscope;
using namespace std::chrono_literals;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");

// Records key-N, {"id":N,"name":"order-N"} with header trace:abc-N, N from `from`.
bool produceOrders(const QString& topic, int from, int count) {
    const auto result = test::runPython(QStringLiteral(R"(
from kafka import KafkaProducer
p = KafkaProducer(bootstrap_servers=BOOTSTRAP, acks='all')
for n in range(%2, %2 + %3):
    p.send('%1', key=b'key-%d' % n, value=b'{"id":%d,"name":"order-%d"}' % (n, n),
           headers=[('trace', b'abc-%d' % n)], partition=0).get(timeout=60)
p.close()
)")
                                            .arg(topic)
                                            .arg(from)
                                            .arg(count));
    if (!result.ok())
        qWarning("produce failed: %s", result.err.constData());
    return result.ok();
}

// One line of Kafka's console consumer with print.offset, print.headers and print.key:
// "Offset:7<TAB>trace:abc-7<TAB>key-7<TAB>{...}".
QStringList consoleConsumerLines(const QString& topic, int offset, int count) {
    const auto result = test::run(
        QStringLiteral(GROUPSCOPE_TESTBED_DIR "/kafka-console-consumer"),
        {QStringLiteral("--bootstrap-server"), test::bootstrapServers(), QStringLiteral("--topic"),
         topic, QStringLiteral("--partition"), QStringLiteral("0"), QStringLiteral("--offset"),
         QString::number(offset), QStringLiteral("--max-messages"), QString::number(count),
         QStringLiteral("--property"), QStringLiteral("print.offset=true"),
         QStringLiteral("--property"), QStringLiteral("print.key=true"),
         QStringLiteral("--property"), QStringLiteral("print.headers=true"),
         QStringLiteral("--timeout-ms"), QStringLiteral("30000")});
    QStringList lines;
    for (const QByteArray& line : result.out.split('\n'))
        if (line.startsWith("Offset:"))
            lines.append(QString::fromUtf8(line));
    return lines;
}

// Our record as the console consumer prints it.
QString asConsoleLine(const QJsonObject& record) {
    QStringList headers;
    for (const QJsonValue& header : record[QStringLiteral("headers")].toArray())
        headers.append(header[QStringLiteral("key")].toString() + u':' +
                       header[QStringLiteral("value")].toString());
    const QJsonValue value = record[QStringLiteral("value")];
    return QStringLiteral("Offset:%1\t%2\t%3\t%4")
        .arg(record[QStringLiteral("offset")].toInteger())
        .arg(headers.join(u','), record[QStringLiteral("key")].toString(),
             value.isObject()
                 ? QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact))
                 : value.toString());
}

} // namespace

class TestRecordsAgainstKafkaTool : public QObject {
    Q_OBJECT

    QString m_topic; // 40 orders on partition 0
    QString m_group; // committed at 12

    test::ProcessResult cli(const QStringList& arguments) {
        return test::run(
            cliPath, QStringList{QStringLiteral("--bootstrap-server"), test::bootstrapServers()} +
                         arguments);
    }

private slots:
    void initTestCase() {
        SKIP_WITHOUT_TEST_BROKER();
        m_topic = test::uniqueName(QStringLiteral("records-orders"));
        m_group = test::uniqueName(QStringLiteral("records-group"));
        QVERIFY(test::createTopic(m_topic, 1));
        QVERIFY(produceOrders(m_topic, 0, 40));
        QVERIFY(test::commitOffsets(m_group, m_topic, {12}));
    }

    void recordsAroundTheCommitAreWhatKafkasConsoleConsumerPrints() {
        const auto shown =
            cli({QStringLiteral("records"), QStringLiteral("--group"), m_group,
                 QStringLiteral("--topic"), m_topic + QStringLiteral(":0"),
                 QStringLiteral("--before"), QStringLiteral("5"), QStringLiteral("--after"),
                 QStringLiteral("5"), QStringLiteral("--json")});
        QVERIFY2(shown.ok(), shown.err.constData());
        const QJsonObject page = QJsonDocument::fromJson(shown.out).object();
        QCOMPARE(page[QStringLiteral("committedOffset")].toInteger(), qint64(12));
        QCOMPARE(page[QStringLiteral("anchorOffset")].toInteger(), qint64(12));
        const QJsonArray records = page[QStringLiteral("records")].toArray();
        QCOMPARE(records.size(), 10);
        QCOMPARE(records.first()[QStringLiteral("offset")].toInteger(), qint64(7));
        QStringList ours;
        for (const QJsonValue& record : records) {
            ours.append(asConsoleLine(record.toObject()));
            QCOMPARE(record[QStringLiteral("atAnchor")].toBool(),
                     record[QStringLiteral("offset")].toInteger() == 12);
            QCOMPARE(record[QStringLiteral("valueFormat")].toString(), QStringLiteral("json"));
            QCOMPARE(record[QStringLiteral("timestampType")].toString(),
                     QStringLiteral("CreateTime"));
        }
        QCOMPARE(ours, consoleConsumerLines(m_topic, 7, 10));

        // The text form marks the committed record and names the group.
        const auto text = cli({QStringLiteral("records"), QStringLiteral("--group"), m_group,
                               QStringLiteral("--topic"), m_topic + QStringLiteral(":0")});
        QVERIFY2(text.ok(), text.err.constData());
        QVERIFY2(text.out.contains("the committed offset of group '" + m_group.toUtf8() + "' (12)"),
                 text.out.constData());
        bool marked = false;
        for (const QByteArray& line : text.out.split('\n'))
            marked |= line.startsWith(">") && line.contains(" 12 ") && line.contains("key-12");
        QVERIFY2(marked, text.out.constData());
    }

    void anchorsOutsideTheLogAreClampedAndSaid() {
        const auto above =
            cli({QStringLiteral("records"), QStringLiteral("--topic"),
                 m_topic + QStringLiteral(":0"), QStringLiteral("--at"), QStringLiteral("1000"),
                 QStringLiteral("--before"), QStringLiteral("2"), QStringLiteral("--json")});
        QVERIFY2(above.ok(), above.err.constData());
        QVERIFY2(above.err.contains("offset (1000) is above the log end 40"),
                 above.err.constData());
        const QJsonArray records =
            QJsonDocument::fromJson(above.out).object()[QStringLiteral("records")].toArray();
        QCOMPARE(records.size(), 2);
        QCOMPARE(records.last()[QStringLiteral("offset")].toInteger(), qint64(39));

        const auto negative =
            cli({QStringLiteral("records"), QStringLiteral("--topic"),
                 m_topic + QStringLiteral(":0"), QStringLiteral("--at"), QStringLiteral("-3")});
        QCOMPARE(negative.exitCode, 2);
        QVERIFY2(negative.err.contains("offset -3 is negative"), negative.err.constData());
        const auto noPartition =
            cli({QStringLiteral("records"), QStringLiteral("--topic"), m_topic});
        QCOMPARE(noPartition.exitCode, 2);
        QVERIFY2(noPartition.err.contains("TOPIC:PARTITION"), noPartition.err.constData());
        const auto noCommit = cli({QStringLiteral("records"), QStringLiteral("--group"),
                                   test::uniqueName(QStringLiteral("records-none")),
                                   QStringLiteral("--topic"), m_topic + QStringLiteral(":0")});
        QCOMPARE(noCommit.exitCode, 1);
        QVERIFY2(noCommit.err.contains("has no committed offset on"), noCommit.err.constData());
    }

    // Retention (here Kafka's kafka-delete-records) moved the log start past the group's
    // commit: the page starts at the log start, and the note says why.
    void aCommitBelowTheLogStartIsClampedAndSaid() {
        const QString topic = test::uniqueName(QStringLiteral("records-retention"));
        const QString group = test::uniqueName(QStringLiteral("records-behind"));
        QVERIFY(test::createTopic(topic, 1));
        QVERIFY(produceOrders(topic, 0, 20));
        QVERIFY(test::commitOffsets(group, topic, {3}));
        const auto deleted = test::deleteRecordsBefore(topic, 0, 9);
        QVERIFY2(deleted.ok(), deleted.err.constData());

        const auto shown =
            cli({QStringLiteral("records"), QStringLiteral("--group"), group,
                 QStringLiteral("--topic"), topic + QStringLiteral(":0"), QStringLiteral("--after"),
                 QStringLiteral("2"), QStringLiteral("--json")});
        QVERIFY2(shown.ok(), shown.err.constData());
        QVERIFY2(shown.err.contains("(3) is below the log start 9: showing from 9"),
                 shown.err.constData());
        const QJsonObject page = QJsonDocument::fromJson(shown.out).object();
        QCOMPARE(page[QStringLiteral("committedOffset")].toInteger(), qint64(3));
        QCOMPARE(page[QStringLiteral("anchorOffset")].toInteger(), qint64(9));
        const QJsonArray records = page[QStringLiteral("records")].toArray();
        QCOMPARE(records.size(), 2);
        QCOMPARE(records.first()[QStringLiteral("offset")].toInteger(), qint64(9));
    }

    void aValueThatIsNotTextIsShownAsHex() {
        const QString topic = test::uniqueName(QStringLiteral("records-bytes"));
        QVERIFY(test::createTopic(topic, 1));
        const auto produced = test::runPython(QStringLiteral(R"(
from kafka import KafkaProducer
p = KafkaProducer(bootstrap_servers=BOOTSTRAP, acks='all')
p.send('%1', value=b'\xff\xfe\x00\x01', partition=0).get(timeout=60)
p.send('%1', value=b'plain text', partition=0).get(timeout=60)
p.close()
)")
                                                  .arg(topic));
        QVERIFY2(produced.ok(), produced.err.constData());
        const auto shown = cli({QStringLiteral("records"), QStringLiteral("--topic"),
                                topic + QStringLiteral(":0"), QStringLiteral("--json")});
        QVERIFY2(shown.ok(), shown.err.constData());
        const QJsonArray records =
            QJsonDocument::fromJson(shown.out).object()[QStringLiteral("records")].toArray();
        QCOMPARE(records.size(), 2);
        QCOMPARE(records[0][QStringLiteral("valueFormat")].toString(), QStringLiteral("hex"));
        QCOMPARE(records[0][QStringLiteral("value")].toString(), QStringLiteral("ff fe 00 01"));
        QVERIFY(records[0][QStringLiteral("key")].isNull());
        QCOMPARE(records[1][QStringLiteral("valueFormat")].toString(), QStringLiteral("text"));
        QCOMPARE(records[1][QStringLiteral("value")].toString(), QStringLiteral("plain text"));
    }

    // A producer keeps writing while the browser jumps back and forth: after each jump the
    // first record is the target, and every record after it follows in order.
    void aJumpWhileAProducerWritesDeliversTheTargetFirst() {
        const QString topic = test::uniqueName(QStringLiteral("records-jumps"));
        QVERIFY(test::createTopic(topic, 1));
        QVERIFY(produceOrders(topic, 0, 200));
        QProcess producer;
        producer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        producer.start(QStringLiteral("/usr/bin/python3"),
                       {QStringLiteral("-c"), QStringLiteral(R"(
import select, sys
from kafka import KafkaProducer
p = KafkaProducer(bootstrap_servers='%1', linger_ms=5)
n = 200
while True:
    p.send('%2', value=b'live-%d' % n, partition=0)
    n += 1
    if n % 50 == 0:
        p.flush()
        print('sent', n, flush=True)
    ready, _, _ = select.select([sys.stdin], [], [], 0.002)
    if ready and not sys.stdin.readline():
        break
p.close()
)")
                                                  .arg(test::bootstrapServers(), topic)});
        QVERIFY(producer.waitForReadyRead(60000));

        records::RecordBrowser::Options options;
        options.profile = test::brokerProfile();
        auto browser = records::RecordBrowser::open({topic, 0}, 0, options);
        QVERIFY2(browser, browser ? "" : qPrintable(browser.error().message));
        for (const int64_t target : {150, 3, 199, 60, 0, 120}) {
            const auto read = browser.value()->readFrom(target, 30, target + 30);
            QVERIFY2(read, read ? "" : qPrintable(read.error().message));
            QCOMPARE(read.value().size(), 30);
            for (qsizetype i = 0; i < read.value().size(); ++i)
                QCOMPARE(read.value().at(i).offset, target + i);
        }
        // Follow: what arrives next continues where the last read stopped.
        const auto arrived = browser.value()->takeNew(10s, 50);
        QVERIFY(!arrived.isEmpty());
        QCOMPARE(arrived.first().offset, 150);
        producer.closeWriteChannel();
        QVERIFY(producer.waitForFinished(30000));
    }
};

QTEST_GUILESS_MAIN(TestRecordsAgainstKafkaTool)
#include "TestRecordsAgainstKafkaTool.moc"
