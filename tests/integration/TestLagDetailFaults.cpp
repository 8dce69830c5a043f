// Lag detail where a figure cannot be computed, on the real broker: records whose producer
// wrote no timestamp (CreateTime -1, written by python3-kafka and read back by kcat), and a
// broker that refuses ListOffsets with isolation READ_COMMITTED (the test broker behind
// tests/support/FaultyProxy, which sets an error in those answers only). Each time the plain
// figures stay Kafka's own (kafka-consumer-groups is the oracle) and the figure that could
// not be computed is empty and named, never a wrong number.
#include "FaultyProxy.h"
#include "TestBroker.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace groupscope;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");

test::ProcessResult runGroupscope(const QString& bootstrap, const QStringList& arguments) {
    return test::run(cliPath,
                     QStringList{QStringLiteral("--bootstrap-server"), bootstrap} + arguments);
}

// Partition 0's row of `describe --lag-detail --json` of one group.
QJsonObject describedPartitionZero(const QString& bootstrap, const QString& group) {
    const auto result =
        runGroupscope(bootstrap, {QStringLiteral("describe"), QStringLiteral("--group"), group,
                                  QStringLiteral("--lag-detail"), QStringLiteral("--json")});
    if (!result.ok())
        qWarning("groupscope-cli failed: %s", result.err.constData());
    const QJsonArray partitions =
        QJsonDocument::fromJson(result.out).array().at(0)[QStringLiteral("partitions")].toArray();
    for (const QJsonValue& value : partitions)
        if (value[QStringLiteral("partition")].toInt() == 0)
            return value.toObject();
    return {};
}

std::optional<qint64> lagByKafka(const QString& group) {
    const auto rows = test::describedByKafka(group);
    if (!rows || rows->isEmpty())
        return std::nullopt;
    return rows->front().lag;
}

bool anyLineStartsWith(const QJsonArray& lines, const QString& prefix) {
    for (const QJsonValue& line : lines)
        if (line.toString().startsWith(prefix))
            return true;
    return false;
}

} // namespace

class TestLagDetailFaults : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { SKIP_WITHOUT_TEST_BROKER(); }

    // A producer may send CreateTime -1 ("no timestamp"); Kafka stores it as sent. The
    // oldest record is found and named, its age is not computed, and nothing else moves.
    void recordsWithoutATimestampHaveNoAge() {
        const QString topic = test::uniqueName(QStringLiteral("lagfault-untimed"));
        const QString group = test::uniqueName(QStringLiteral("lagfault-untimed"));
        QVERIFY(test::createTopic(topic, 1));
        const auto produced = test::runPython(QStringLiteral(R"(
from kafka import KafkaProducer
producer = KafkaProducer(bootstrap_servers=BOOTSTRAP, linger_ms=0)
for i in range(3):
    producer.send('%1', value=b'untimed-%d' % i, partition=0, timestamp_ms=-1).get(timeout=30)
producer.close()
)")
                                                  .arg(topic));
        QVERIFY2(produced.ok(), produced.err.constData());
        // kcat (librdkafka) reads back what the broker stored: three records, no timestamp.
        const auto readBack =
            test::run(QStringLiteral("kcat"),
                      {QStringLiteral("-C"), QStringLiteral("-b"), test::bootstrapServers(),
                       QStringLiteral("-t"), topic, QStringLiteral("-p"), QStringLiteral("0"),
                       QStringLiteral("-o"), QStringLiteral("beginning"), QStringLiteral("-e"),
                       QStringLiteral("-f"), QStringLiteral("%o %T\\n")});
        QVERIFY2(readBack.ok(), readBack.err.constData());
        QCOMPARE(readBack.out, QByteArray("0 -1\n1 -1\n2 -1\n"));

        QVERIFY(test::commitOffsets(group, topic, {1}));
        QCOMPARE(lagByKafka(group), std::optional<qint64>(2));
        const QJsonObject row = describedPartitionZero(test::bootstrapServers(), group);
        QCOMPARE(row[QStringLiteral("lag")].toInteger(), 2);
        const QJsonObject detail = row[QStringLiteral("lagDetail")].toObject();
        QCOMPARE(detail[QStringLiteral("effectiveLag")].toInteger(-1), 2);
        const QJsonObject oldest = detail[QStringLiteral("oldestRecord")].toObject();
        QCOMPARE(oldest[QStringLiteral("status")].toString(), QStringLiteral("noTimestamp"));
        QCOMPARE(oldest[QStringLiteral("offset")].toInteger(), 1);
        QVERIFY(oldest[QStringLiteral("ageMs")].isNull());
        QVERIFY(oldest[QStringLiteral("timestampMs")].isNull());
        const QJsonArray notComputed = detail[QStringLiteral("notComputed")].toArray();
        QVERIFY2(anyLineStartsWith(notComputed, QStringLiteral("oldest record's age: the record "
                                                               "has no timestamp")),
                 QJsonDocument(notComputed).toJson().constData());

        const auto text = runGroupscope(test::bootstrapServers(),
                                        {QStringLiteral("describe"), QStringLiteral("--group"),
                                         group, QStringLiteral("--lag-detail")});
        QVERIFY2(text.out.contains("no timestamp"), text.out.constData());
    }

    // The broker answers ListOffsets READ_COMMITTED with an error for every partition and
    // READ_UNCOMMITTED as usual: the log end and plain lag are Kafka's, the last stable
    // offset is empty and named, and the effective lag is still decided from the records
    // (a read_committed Fetch carries its own last stable offset).
    void aBrokerRefusingReadCommittedListOffsetsCostsOnlyTheLastStableOffset() {
        const QString topic = test::uniqueName(QStringLiteral("lagfault-lso"));
        const QString group = test::uniqueName(QStringLiteral("lagfault-lso"));
        QVERIFY(test::createTopic(topic, 1));
        QVERIFY(test::produce(topic, 4, 0));
        QVERIFY(test::commitOffsets(group, topic, {1}));
        QCOMPARE(lagByKafka(group), std::optional<qint64>(3));

        test::FaultyProxy proxy(test::bootstrapServers().split(u',').front());
        QVERIFY(proxy.start());
        test::FaultyProxy::Fault refuse;
        refuse.mode = test::FaultyProxy::Mode::PartitionError;
        refuse.api = kafka::protocol::ApiKey::ListOffsets;
        refuse.errorCode = 42; // INVALID_REQUEST
        refuse.onlyReadCommitted = true;
        proxy.setFault(refuse);

        const QJsonObject row = describedPartitionZero(proxy.address(), group);
        QVERIFY2(proxy.faultsApplied() >= 1, "no READ_COMMITTED ListOffsets was refused");
        QCOMPARE(row[QStringLiteral("logEndOffset")].toInteger(), 4);
        QCOMPARE(row[QStringLiteral("lag")].toInteger(), 3);
        const QJsonObject detail = row[QStringLiteral("lagDetail")].toObject();
        QVERIFY(detail[QStringLiteral("lastStableOffset")].isNull());
        QVERIFY(detail[QStringLiteral("lastStableLag")].isNull());
        const QJsonArray notComputed = detail[QStringLiteral("notComputed")].toArray();
        QVERIFY2(anyLineStartsWith(notComputed, QStringLiteral("last stable offset: ")),
                 QJsonDocument(notComputed).toJson().constData());
        QCOMPARE(detail[QStringLiteral("effectiveLag")].toInteger(-1), 3);

        // Without the fault the same proxy gives the last stable offset.
        proxy.passThrough();
        const QJsonObject healed =
            describedPartitionZero(proxy.address(), group)[QStringLiteral("lagDetail")].toObject();
        QCOMPARE(healed[QStringLiteral("lastStableOffset")].toInteger(-1), 4);
        QVERIFY(healed[QStringLiteral("notComputed")].toArray().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestLagDetailFaults)
#include "TestLagDetailFaults.moc"
