// Benchmark (label bench, not pass/fail): plan and dry-run a reset for one group over
// 1,000 partitions, Groupscope vs Kafka's own kafka-consumer-groups, in the same run.
// Both plans must be identical; the figures and the ratio are printed.
#include "TestBroker.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>

using namespace groupscope;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");
// The tool's script, started for each run as a user runs it (test::kafkaConsumerGroups asks
// a JVM that is already warm, which would flatter Kafka's figure).
const QString kafkaToolPath = QStringLiteral(GROUPSCOPE_TESTBED_DIR "/kafka-consumer-groups");
constexpr int partitionCount = 1000;
constexpr int runs = 3;

double medianOf(QList<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace

class BenchResetPlan : public QObject {
    Q_OBJECT
private slots:
    void planOneGroupOverThousandPartitions() {
        QString why;
        if (test::bootstrapServers(&why).isEmpty())
            QFAIL(qPrintable(why));
        const QString topic = test::uniqueName(QStringLiteral("bench-reset"));
        const QString group = test::uniqueName(QStringLiteral("bench-reset-group"));
        QVERIFY(test::createTopic(topic, partitionCount));
        // Three records per partition and a commit at offset 1 on every partition.
        const auto setup = test::runPython(QStringLiteral(R"(
from kafka import KafkaProducer, KafkaConsumer, TopicPartition
from kafka.structs import OffsetAndMetadata
p = KafkaProducer(bootstrap_servers=BOOTSTRAP, linger_ms=20, acks='all', retries=100, retry_backoff_ms=200)
sent = [p.send('%1', value=b'x', partition=partition, timestamp_ms=1704067200000 + i * 1000)
        for partition in range(%3) for i in range(3)]
for future in sent:
    future.get(timeout=60)  # a failed send raises here instead of vanishing
p.close()
c = KafkaConsumer(bootstrap_servers=BOOTSTRAP, group_id='%2', enable_auto_commit=False)
c.commit({TopicPartition('%1', partition): OffsetAndMetadata(1, None) for partition in range(%3)})
c.close()
)")
                                               .arg(topic, group)
                                               .arg(partitionCount),
                                           std::chrono::minutes(5));
        QVERIFY2(setup.ok(), setup.err.constData());

        const QStringList spec{QStringLiteral("--all-topics"), QStringLiteral("--to-datetime"),
                               QStringLiteral("2024-01-01T00:00:01.500")};
        QList<double> oursMs, kafkaMs;
        QMap<QString, qint64> ourPlan, kafkaPlan;
        for (int run = 0; run < runs; ++run) {
            QElapsedTimer timer;
            timer.start();
            const auto ours = test::run(
                cliPath, QStringList{QStringLiteral("--bootstrap-server"), test::bootstrapServers(),
                                     QStringLiteral("reset"), QStringLiteral("--group"), group} +
                             spec + QStringList{QStringLiteral("--export")});
            oursMs.append(double(timer.nsecsElapsed()) / 1e6);
            QVERIFY2(ours.ok(), ours.err.constData());
            timer.restart();
            const auto kafka = test::run(
                kafkaToolPath,
                QStringList{QStringLiteral("--bootstrap-server"), test::bootstrapServers(),
                            QStringLiteral("--reset-offsets"), QStringLiteral("--group"), group} +
                    spec + QStringList{QStringLiteral("--dry-run"), QStringLiteral("--export")});
            kafkaMs.append(double(timer.nsecsElapsed()) / 1e6);
            QVERIFY2(kafka.ok(), kafka.err.constData());
            ourPlan.clear();
            kafkaPlan.clear();
            for (const QByteArray& line : ours.out.split('\n'))
                if (const auto cells = line.split(','); cells.size() == 3)
                    ourPlan.insert(QString::fromUtf8(cells[0] + ':' + cells[1]),
                                   cells[2].toLongLong());
            for (const QByteArray& line : kafka.out.split('\n'))
                if (const auto cells = line.trimmed().split(','); cells.size() == 3)
                    kafkaPlan.insert(QString::fromUtf8(cells[0] + ':' + cells[1]),
                                     cells[2].toLongLong());
        }
        // Same plan from both tools, or the timing means nothing.
        QCOMPARE(ourPlan.size(), partitionCount);
        QCOMPARE(ourPlan, kafkaPlan);
        QCOMPARE(ourPlan.first(), qint64(2)); // the first record at or after 00:00:01.500

        const double ours = medianOf(oursMs), kafka = medianOf(kafkaMs);
        std::printf(
            "\nReset plan + dry run, 1 group x %d partitions (to-datetime), median of %d runs:\n",
            partitionCount, runs);
        std::printf("  groupscope-cli reset --export:           %8.1f ms\n", ours);
        std::printf("  kafka-consumer-groups --reset-offsets:   %8.1f ms (includes JVM start-up)\n",
                    kafka);
        std::printf("  ratio (Kafka's tool / Groupscope):       %8.1fx   (goal: at least 10x)\n",
                    kafka / ours);
    }
};

QTEST_GUILESS_MAIN(BenchResetPlan)
#include "BenchResetPlan.moc"
