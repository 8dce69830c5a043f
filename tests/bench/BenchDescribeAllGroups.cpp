// One full refresh of a cluster with 500 groups over 100 topics (1,000 partitions):
// `groupscope-cli describe --all-groups --json` against Kafka's own
// `kafka-consumer-groups --describe --all-groups`, same broker, same run, five runs each
// (median). Both outputs must report the same (group, topic, partition, current offset,
// log end, lag) for every partition of the benchmark's groups. Prints figures; the 10x goal
// is reported, not asserted: timings do not gate CI.
#include "TestBroker.h"

#include "kafka/AdminClient.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cstdio>

using namespace groupscope;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");
constexpr int topicCount = 100;
constexpr int partitionsPerTopic = 10;
constexpr int groupCount = 500;
// Five runs, the tools taking turns to go first: the first request after the groups were
// made meets a cold broker, and that penalty should fall on each tool alike.
constexpr int runs = 5;

// "group topic partition" -> "current logEnd lag"
using Rows = QMap<QString, QString>;

QString jsonCell(const QJsonValue& value) {
    return value.isNull() || value.isUndefined() ? QStringLiteral("-")
                                                 : QString::number(value.toInteger());
}

Rows rowsFromGroupscope(const QByteArray& output, const QString& prefix) {
    Rows rows;
    for (const QJsonValue& groupValue : QJsonDocument::fromJson(output).array()) {
        const QJsonObject group = groupValue.toObject();
        const QString id = group[QStringLiteral("group")].toString();
        if (!id.startsWith(prefix))
            continue;
        for (const QJsonValue& value : group[QStringLiteral("partitions")].toArray()) {
            const QJsonObject p = value.toObject();
            rows.insert(QStringList{id, p[QStringLiteral("topic")].toString(),
                                    QString::number(p[QStringLiteral("partition")].toInt())}
                            .join(u' '),
                        QStringList{jsonCell(p[QStringLiteral("currentOffset")]),
                                    jsonCell(p[QStringLiteral("logEndOffset")]),
                                    jsonCell(p[QStringLiteral("lag")])}
                            .join(u' '));
        }
    }
    return rows;
}

double median(QList<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace

class BenchDescribeAllGroups : public QObject {
    Q_OBJECT

    QString m_prefix;
    QStringList m_topics;

private slots:
    void initTestCase() {
        QString why;
        if (test::bootstrapServers(&why).isEmpty())
            QFAIL(qPrintable(why));
        m_prefix = test::uniqueName(QStringLiteral("bench-group"));
        const QString topicPrefix = test::uniqueName(QStringLiteral("bench-topic"));
        for (int i = 0; i < topicCount; ++i)
            m_topics.append(QStringLiteral("%1-%2").arg(topicPrefix).arg(i, 3, 10, QChar(u'0')));

        // Topics and messages by python3-kafka: partition p of every topic holds p+1 messages.
        const auto created = test::runPython(QStringLiteral(R"(
from kafka.admin import KafkaAdminClient, NewTopic
from kafka import KafkaProducer
topics = ['{}-{:03d}'.format('%1', i) for i in range(%2)]
admin = KafkaAdminClient(bootstrap_servers=BOOTSTRAP, request_timeout_ms=120000)
admin.create_topics([NewTopic(name=t, num_partitions=%3, replication_factor=1) for t in topics],
                    timeout_ms=120000)
admin.close()
# Retries: a partition's leader is not known at once after its topic was created, and a
# send that fails is otherwise only reported through its future.
producer = KafkaProducer(bootstrap_servers=BOOTSTRAP, linger_ms=20, acks='all', retries=100,
                         retry_backoff_ms=200)
sent = [producer.send(t, value=b'x', partition=p)
        for t in topics for p in range(%3) for k in range(p + 1)]
producer.flush()
for future in sent:
    future.get(timeout=60)
producer.close()
)")
                                                 .arg(topicPrefix)
                                                 .arg(topicCount)
                                                 .arg(partitionsPerTopic),
                                             std::chrono::minutes(10));
        QVERIFY2(created.ok(), created.err.constData());

        // Commits through the Admin API (AlterConsumerGroupOffsets): each group on two
        // topics, an offset per partition between 0 and its log end.
        auto admin = kafka::AdminClient::create(test::brokerProfile(), std::chrono::seconds(30));
        QVERIFY(admin);
        for (int group = 0; group < groupCount; ++group) {
            QList<QPair<kafka::TopicPartition, int64_t>> offsets;
            for (const int topic : {group % topicCount, (group * 7 + 3) % topicCount}) {
                for (int partition = 0; partition < partitionsPerTopic; ++partition)
                    offsets.append(
                        {{m_topics[topic], partition}, (group + partition) % (partition + 2)});
                if ((group * 7 + 3) % topicCount == group % topicCount)
                    break;
            }
            // On a fresh broker the first commit also creates __consumer_offsets, and its
            // coordinator is not available at once: retry until it is.
            const QString groupId =
                QStringLiteral("%1-%2").arg(m_prefix).arg(group, 3, 10, QChar(u'0'));
            QString problem;
            const bool written = test::waitFor(
                [&] {
                    const auto result = admin.value()->alterCommittedOffsets(groupId, offsets);
                    if (result) {
                        for (const kafka::PartitionOutcome& outcome : result.value())
                            if (outcome.error.isError()) {
                                problem = outcome.error.toString();
                                return false;
                            }
                        return true;
                    }
                    problem = result.error().toString();
                    return false;
                },
                std::chrono::seconds(120));
            QVERIFY2(written, qPrintable(problem));
        }
    }

    void describeAllGroups() {
        QList<double> oursMs, kafkaMs;
        Rows ours, kafka;
        const auto runGroupscope = [&] {
            QElapsedTimer timer;
            timer.start();
            const auto groupscope = test::run(
                cliPath,
                {QStringLiteral("--bootstrap-server"), test::bootstrapServers(),
                 QStringLiteral("--timeout"), QStringLiteral("30000"), QStringLiteral("describe"),
                 QStringLiteral("--all-groups"), QStringLiteral("--json")},
                {}, std::chrono::minutes(5));
            oursMs.append(double(timer.elapsed()));
            QVERIFY2(groupscope.ok(), groupscope.err.left(2000).constData());
            ours = rowsFromGroupscope(groupscope.out, m_prefix);
        };
        const auto runKafkaTool = [&] {
            QElapsedTimer timer;
            timer.start();
            const auto oracle = test::kafkaConsumerGroups(
                {QStringLiteral("--describe"), QStringLiteral("--all-groups")});
            kafkaMs.append(double(timer.elapsed()));
            QVERIFY2(oracle.ok(), oracle.err.left(2000).constData());
            kafka = test::kafkaDescribeOffsetRows(oracle.out, m_prefix);
        };
        for (int run = 0; run < runs; ++run) {
            if (run % 2 == 0) {
                runGroupscope();
                runKafkaTool();
            } else {
                runKafkaTool();
                runGroupscope();
            }
            if (QTest::currentTestFailed())
                return;
            // Every run, not just the last, must report the same numbers in both outputs.
            QVERIFY(ours.size() >= groupCount * partitionsPerTopic);
            QCOMPARE(ours.size(), kafka.size());
            // The data are what the set-up meant: partition p holds p+1 messages.
            for (auto it = ours.cbegin(); it != ours.cend(); ++it)
                QVERIFY2(it.value().section(u' ', 1, 1) ==
                             QString::number(it.key().section(u' ', 2, 2).toInt() + 1),
                         qPrintable(it.key() + QStringLiteral(": ") + it.value()));
            for (auto it = kafka.cbegin(); it != kafka.cend(); ++it)
                QVERIFY2(ours.value(it.key()) == it.value(),
                         qPrintable(QStringLiteral("run %1, %2: groupscope %3, Kafka %4")
                                        .arg(run + 1)
                                        .arg(it.key(), ours.value(it.key()), it.value())));
        }

        const double oursMedian = median(oursMs);
        const double kafkaMedian = median(kafkaMs);
        std::printf("BenchDescribeAllGroups: %d groups, %d topics, %d partitions, %lld rows "
                    "compared (identical)\n",
                    groupCount, topicCount, topicCount * partitionsPerTopic,
                    static_cast<long long>(ours.size()));
        std::printf("  groupscope-cli describe --all-groups --json   median %8.0f ms  runs",
                    oursMedian);
        for (double ms : oursMs)
            std::printf(" %.0f", ms);
        std::printf("\n  kafka-consumer-groups --describe --all-groups median %8.0f ms  runs",
                    kafkaMedian);
        for (double ms : kafkaMs)
            std::printf(" %.0f", ms);
        std::printf("\n  ratio (Kafka / groupscope): %.1fx (goal: at least 10x)\n",
                    kafkaMedian / oursMedian);
        std::fflush(stdout);
    }
};

QTEST_GUILESS_MAIN(BenchDescribeAllGroups)
#include "BenchDescribeAllGroups.moc"
