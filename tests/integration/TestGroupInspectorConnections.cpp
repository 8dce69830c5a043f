// GroupInspector spreads many groups over several connections (AdminClientPool) when
// librdkafka reads the groups (one request per group: the fallback for profiles the group
// protocol client does not speak, forced here with GROUPSCOPE_GROUP_CLIENT=librdkafka).
// On the real broker: the spread inspection reports exactly what one connection and
// Kafka's own tool report, the extra connections are kept for the next inspection, few
// groups use one connection, and a cancel or an unreachable cluster ends every
// connection's work. The group protocol client batches per coordinator and needs no
// extra connection at all.
#include "TestBroker.h"

#include "kafka/AdminClient.h"
#include "kafka/AdminClientPool.h"
#include "kafka/GroupClientChoice.h"
#include "monitor/GroupInspector.h"

#include <librdkafka/rdkafka.h>

#include <QElapsedTimer>
#include <QTest>

#include <atomic>

using namespace groupscope;

namespace {

constexpr int partitionCount = 4;
constexpr int groupCount = 160; // 160 / minGroupsPerConnection(50): three connections

// "group topic partition" -> "current logEnd lag", with "-" for an absent value, as
// test::kafkaDescribeOffsetRows reads Kafka's tool.
using Rows = QMap<QString, QString>;

QString cell(std::optional<int64_t> value) {
    return value ? QString::number(*value) : QStringLiteral("-");
}

Rows rowsOf(const QList<monitor::GroupSnapshot>& groups) {
    Rows rows;
    for (const monitor::GroupSnapshot& group : groups)
        for (const monitor::PartitionSnapshot& p : group.partitions)
            rows.insert(QStringLiteral("%1 %2 %3")
                            .arg(group.groupId(), p.topicPartition.topic)
                            .arg(p.topicPartition.partition),
                        QStringList{cell(p.committedOffset),
                                    cell(p.logEndOffset >= 0 ? std::optional(p.logEndOffset)
                                                             : std::nullopt),
                                    cell(p.lag)}
                            .join(u' '));
    return rows;
}

} // namespace

class TestGroupInspectorConnections : public QObject {
    Q_OBJECT

    QString m_topic;
    QString m_groupPrefix;
    QStringList m_groups;
    std::unique_ptr<kafka::AdminClient> m_admin;

private slots:
    void initTestCase() {
        QString why;
        if (test::bootstrapServers(&why).isEmpty())
            QFAIL(qPrintable(why));
        m_topic = test::uniqueName(QStringLiteral("inspected"));
        m_groupPrefix = test::uniqueName(QStringLiteral("spread-group"));
        QVERIFY(test::createTopic(m_topic, partitionCount));
        for (int partition = 0; partition < partitionCount; ++partition)
            QVERIFY(test::produce(m_topic, 5 * (partition + 1), partition));
        qputenv(kafka::GroupClientChoice::environmentVariable, "librdkafka");
        auto admin = kafka::AdminClient::create(test::brokerProfile(), std::chrono::seconds(30));
        QVERIFY(admin);
        m_admin = std::move(admin).value();
        QVERIFY(m_admin->isFallback());

        // Every group commits a different offset on each partition (some none at all).
        for (int group = 0; group < groupCount; ++group) {
            const QString id =
                QStringLiteral("%1-%2").arg(m_groupPrefix).arg(group, 3, 10, QChar(u'0'));
            QList<QPair<kafka::TopicPartition, int64_t>> offsets;
            for (int partition = 0; partition < partitionCount; ++partition)
                if ((group + partition) % 5 != 0)
                    offsets.append({{m_topic, partition}, (group + partition) % (partition + 6)});
            QString problem;
            const bool written = test::waitFor(
                [&] {
                    // The broker's first commit creates the offsets topic: retry until then.
                    const auto result = m_admin->alterCommittedOffsets(id, offsets);
                    problem = result ? QString() : result.error().toString();
                    return bool(result) &&
                           std::none_of(
                               result.value().cbegin(), result.value().cend(),
                               [](const auto& outcome) { return outcome.error.isError(); });
                },
                std::chrono::seconds(120));
            QVERIFY2(written, qPrintable(problem));
            m_groups.append(id);
        }
    }

    void theGroupProtocolClientNeedsNoExtraConnection() {
        qunsetenv(kafka::GroupClientChoice::environmentVariable);
        auto own = kafka::AdminClient::create(test::brokerProfile(), std::chrono::seconds(30));
        qputenv(kafka::GroupClientChoice::environmentVariable, "librdkafka");
        QVERIFY(own && !own.value()->isFallback());
        kafka::AdminClientPool pool;
        monitor::GroupInspector inspector(*own.value(), &pool);
        const auto inspected = inspector.inspect(m_groups);
        QVERIFY2(inspected, qPrintable(inspected ? QString() : inspected.error().toString()));
        QCOMPARE(pool.size(), 0);
        monitor::GroupInspector throughLibrdkafka(*m_admin);
        throughLibrdkafka.setMaxConnections(1);
        const auto expected = throughLibrdkafka.inspect(m_groups);
        QVERIFY(expected);
        QCOMPARE(rowsOf(inspected.value()), rowsOf(expected.value()));
    }

    void manyGroupsAreSpreadOverConnectionsAndAgreeWithOneConnectionAndKafka() {
        kafka::AdminClientPool pool;
        monitor::GroupInspector spread(*m_admin, &pool);
        const auto spreadResult = spread.inspect(m_groups);
        QVERIFY2(spreadResult,
                 qPrintable(spreadResult ? QString() : spreadResult.error().toString()));
        QCOMPARE(pool.size(), 2); // three connections: the primary and two from the pool
        QCOMPARE(spreadResult.value().size(), groupCount);
        for (int i = 0; i < groupCount; ++i) // sorted by group id, as one connection sorts
            QCOMPARE(spreadResult.value()[i].groupId(), m_groups[i]);

        monitor::GroupInspector single(*m_admin);
        single.setMaxConnections(1);
        const auto singleResult = single.inspect(m_groups);
        QVERIFY(singleResult);
        const Rows spreadRows = rowsOf(spreadResult.value());
        QCOMPARE(spreadRows, rowsOf(singleResult.value()));

        // What was committed, one row per committed partition, and what Kafka reports.
        int committed = 0;
        for (int group = 0; group < groupCount; ++group)
            for (int partition = 0; partition < partitionCount; ++partition)
                committed += (group + partition) % 5 != 0;
        QCOMPARE(spreadRows.size(), committed);
        QStringList arguments{QStringLiteral("--describe")};
        for (const QString& group : std::as_const(m_groups))
            arguments << QStringLiteral("--group") << group;
        const auto kafka = test::kafkaConsumerGroups(arguments);
        QVERIFY2(kafka.ok(), kafka.err.left(2000).constData());
        QCOMPARE(spreadRows, test::kafkaDescribeOffsetRows(kafka.out, m_groupPrefix));
    }

    void extraConnectionsAreKeptForTheNextInspection() {
        kafka::AdminClientPool pool;
        monitor::GroupInspector inspector(*m_admin, &pool);
        QVERIFY(inspector.inspect(m_groups));
        const std::vector<kafka::AdminClient*> first = pool.clientsLike(*m_admin, 2);
        QVERIFY(inspector.inspect(m_groups));
        QCOMPARE(pool.size(), 2);
        QVERIFY(pool.clientsLike(*m_admin, 2) == first);
    }

    void fewGroupsUseOneConnection() {
        kafka::AdminClientPool pool;
        const auto result = monitor::GroupInspector(*m_admin, &pool).inspect(m_groups.mid(0, 60));
        QVERIFY(result);
        QCOMPARE(result.value().size(), 60);
        QCOMPARE(pool.size(), 0);
    }

    // The cancel flag of the primary client reaches the pool's: none of them waits out its
    // 30 s timeout for a broker that never answers.
    void cancelStopsEveryConnection() {
        test::SilentListener silent;
        QVERIFY(!silent.address().isEmpty());
        kafka::ConnectionProfile profile;
        profile.bootstrapServers = silent.address();
        auto admin = kafka::AdminClient::create(profile, std::chrono::seconds(30));
        QVERIFY(admin);
        const std::atomic<bool> cancelled = true;
        admin.value()->setCancelFlag(&cancelled);
        kafka::AdminClientPool pool;
        QElapsedTimer elapsed;
        elapsed.start();
        const auto result = monitor::GroupInspector(*admin.value(), &pool).inspect(m_groups);
        const qint64 tookMs = elapsed.elapsed();
        QVERIFY(!result);
        QCOMPARE(result.error().code, RD_KAFKA_RESP_ERR__INTR);
        QCOMPARE(pool.size(), 2);
        QVERIFY2(tookMs < 5000, qPrintable(QStringLiteral("took %1 ms").arg(tookMs)));
    }
};

QTEST_GUILESS_MAIN(TestGroupInspectorConnections)
#include "TestGroupInspectorConnections.moc"
