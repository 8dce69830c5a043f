// Lag detail against the real broker, differentially: the data is written by Kafka's own
// transactional producer (kafka-producer-perf-test), kcat and python3-kafka, log starts are
// moved by Kafka's kafka-delete-records, and Kafka's kafka-consumer-groups is the oracle
// for the plain figures, which must stay equal to its own. What only Groupscope says
// (effective lag, markers, open transactions, retention) is checked against what the test
// wrote. Then the requests one poll of lag detail costs, counted from inside.
#include "GroupMembers.h"
#include "TestBroker.h"

#include "kafka/AdminClient.h"
#include "kafka/protocol/BrokerConnection.h"
#include "monitor/GroupInspector.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QProcess>
#include <QTest>

using namespace groupscope;
using kafka::protocol::ApiKey;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");
const QString testBed = QStringLiteral(GROUPSCOPE_TESTBED_DIR);

test::ProcessResult runGroupscope(const QStringList& arguments) {
    return test::run(cliPath,
                     QStringList{QStringLiteral("--bootstrap-server"), test::bootstrapServers()} +
                         arguments);
}

// `describe --lag-detail --json` of one group: its JSON object.
QJsonObject describedByGroupscope(const QString& group) {
    const auto result = runGroupscope({QStringLiteral("describe"), QStringLiteral("--group"), group,
                                       QStringLiteral("--lag-detail"), QStringLiteral("--json")});
    if (!result.ok())
        qWarning("groupscope-cli failed: %s", result.err.constData());
    return QJsonDocument::fromJson(result.out).array().at(0).toObject();
}

QJsonObject partitionOf(const QJsonObject& group, int partition) {
    for (const QJsonValue& value : group[QStringLiteral("partitions")].toArray())
        if (value[QStringLiteral("partition")].toInt() == partition)
            return value.toObject();
    return {};
}

std::optional<test::KafkaDescribeRow> kafkaRow(const QString& group, int partition) {
    const auto rows = test::describedByKafka(group);
    if (!rows)
        return std::nullopt;
    for (const auto& row : *rows)
        if (row.partition == partition)
            return row;
    return std::nullopt;
}

// The test bed's copy of Kafka's transactional producer: `count` records in one
// transaction that it commits before it exits.
QStringList transactionalProducer(const QString& topic, qint64 count, double perSecond) {
    return {QStringLiteral("--topic"),
            topic,
            QStringLiteral("--num-records"),
            QString::number(count),
            QStringLiteral("--record-size"),
            QStringLiteral("10"),
            QStringLiteral("--throughput"),
            QString::number(perSecond),
            QStringLiteral("--transactional-id"),
            topic + QStringLiteral("-producer"),
            QStringLiteral("--transaction-duration-ms"),
            QStringLiteral("600000"),
            QStringLiteral("--command-property"),
            QStringLiteral("bootstrap.servers=") + test::bootstrapServers(),
            QStringLiteral("transaction.timeout.ms=600000"),
            QStringLiteral("linger.ms=0")};
}

// Counts the requests every BrokerConnection sends, by API key, while it lives.
class RequestCounter {
public:
    RequestCounter() {
        kafka::protocol::BrokerConnection::setRequestObserver([this](ApiKey api, const QString&) {
            QMutexLocker lock(&m_mutex);
            ++m_counts[int(api)];
        });
    }
    ~RequestCounter() { kafka::protocol::BrokerConnection::setRequestObserver({}); }
    int take(ApiKey api) {
        QMutexLocker lock(&m_mutex);
        return m_counts.take(int(api));
    }
    void reset() {
        QMutexLocker lock(&m_mutex);
        m_counts.clear();
    }

private:
    QMutex m_mutex;
    QHash<int, int> m_counts;
};

} // namespace

class TestLagDetailOnBroker : public QObject {
    Q_OBJECT

    std::unique_ptr<kafka::AdminClient> m_admin;
    QString m_markerGroup;

    int64_t logEnd(const QString& topic, int partition = 0) {
        auto offsets = m_admin->logOffsets({{topic, partition}});
        return offsets && !offsets.value().isEmpty() ? offsets.value().front().logEndOffset : -1;
    }

private slots:
    void initTestCase() {
        SKIP_WITHOUT_TEST_BROKER();
        auto admin = kafka::AdminClient::create(test::brokerProfile());
        QVERIFY2(admin, admin ? "" : qPrintable(admin.error().toString()));
        m_admin = std::move(admin).value();
        QVERIFY(!m_admin->isFallback());
    }

    // Burrow#651: a read_committed consumer that commits after the last record of a
    // committed transaction. Kafka's tool says lag 1 (the commit marker); Groupscope says
    // plain 1 too, and effective 0 with the reason.
    void aTransactionMarkerAtTheEndIsEffectiveLagZero() {
        const QString topic = test::uniqueName(QStringLiteral("lagdetail-txn"));
        m_markerGroup = test::uniqueName(QStringLiteral("lagdetail-caught-up"));
        const QString fromStart = test::uniqueName(QStringLiteral("lagdetail-from-start"));
        QVERIFY(test::createTopic(topic, 1));
        const int64_t before = QDateTime::currentMSecsSinceEpoch();
        const auto produced = test::run(testBed + QStringLiteral("/kafka-producer-perf-test"),
                                        transactionalProducer(topic, 5, -1));
        QVERIFY2(produced.ok(), produced.err.constData());
        // The coordinator writes the marker after the producer's commit returned.
        QVERIFY(test::waitFor([&] { return logEnd(topic) == 6; }));

        // Kafka's own read_committed consumer receives the five records, not the marker.
        const auto consumed =
            test::run(testBed + QStringLiteral("/kafka-console-consumer"),
                      {QStringLiteral("--bootstrap-server"), test::bootstrapServers(),
                       QStringLiteral("--topic"), topic, QStringLiteral("--from-beginning"),
                       QStringLiteral("--isolation-level"), QStringLiteral("read_committed"),
                       QStringLiteral("--timeout-ms"), QStringLiteral("10000"),
                       QStringLiteral("--max-messages"), QStringLiteral("6")});
        QCOMPARE(consumed.out.count('\n'), 5);

        // What a consumer that commits each record's offset + 1 leaves: 5.
        QVERIFY(test::commitOffsets(m_markerGroup, topic, {5}));
        QVERIFY(test::commitOffsets(fromStart, topic, {0}));

        const auto oracle = kafkaRow(m_markerGroup, 0);
        QVERIFY(oracle);
        QCOMPARE(oracle->lag, std::optional<qint64>(1));
        const QJsonObject row = partitionOf(describedByGroupscope(m_markerGroup), 0);
        QCOMPARE(row[QStringLiteral("lag")].toInteger(), 1);
        const QJsonObject detail = row[QStringLiteral("lagDetail")].toObject();
        QCOMPARE(detail[QStringLiteral("effectiveLag")].toInteger(-1), 0);
        QCOMPARE(detail[QStringLiteral("transactionMarkers")].toInteger(), 1);
        QCOMPARE(detail[QStringLiteral("reason")].toString(),
                 QStringLiteral("caught up: 1 transaction marker"));
        QCOMPARE(detail[QStringLiteral("lastStableOffset")].toInteger(), 6);
        QCOMPARE(detail[QStringLiteral("lastStableLag")].toInteger(), 1);
        QVERIFY(detail[QStringLiteral("notComputed")].toArray().isEmpty());

        // From the start: five records to go, the oldest one's own timestamp.
        const QJsonObject start =
            partitionOf(describedByGroupscope(fromStart), 0)[QStringLiteral("lagDetail")]
                .toObject();
        QCOMPARE(start[QStringLiteral("effectiveLag")].toInteger(), 5);
        const QJsonObject oldest = start[QStringLiteral("oldestRecord")].toObject();
        QCOMPARE(oldest[QStringLiteral("status")].toString(), QStringLiteral("exact"));
        QCOMPARE(oldest[QStringLiteral("offset")].toInteger(), 0);
        const qint64 timestamp = oldest[QStringLiteral("timestampMs")].toInteger();
        QVERIFY2(timestamp >= before - 1000 && timestamp <= QDateTime::currentMSecsSinceEpoch(),
                 qPrintable(QString::number(timestamp - before)));

        // The default table stays Kafka's; --lag-detail adds its own after it.
        const auto plain =
            runGroupscope({QStringLiteral("describe"), QStringLiteral("--group"), m_markerGroup});
        QVERIFY(plain.ok());
        QVERIFY(!plain.out.contains("EFFECTIVE"));
        const auto text = runGroupscope({QStringLiteral("describe"), QStringLiteral("--group"),
                                         m_markerGroup, QStringLiteral("--lag-detail")});
        QVERIFY(text.out.startsWith(plain.out));
        QVERIFY2(text.out.contains("caught up: 1 transaction marker"), text.out.constData());
        QVERIFY2(text.out.contains("TOTAL LAG 1, EFFECTIVE 0"), text.out.constData());
    }

    // A transaction left open holds back its records: named with its size.
    void anOpenTransactionIsNamedWithItsSize() {
        const QString topic = test::uniqueName(QStringLiteral("lagdetail-open"));
        const QString group = test::uniqueName(QStringLiteral("lagdetail-open"));
        QVERIFY(test::createTopic(topic, 1));
        QVERIFY(test::produce(topic, 3, 0)); // plain records before it: offsets 0-2
        QProcess producer;
        producer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        producer.start(testBed + QStringLiteral("/kafka-producer-perf-test"),
                       transactionalProducer(topic, 1'000'000, 5));
        const bool wrote =
            test::waitFor([&] { return logEnd(topic) >= 6; }, std::chrono::seconds(90));
        producer.kill(); // the transaction stays open until its 10-minute timeout
        producer.waitForFinished(10000);
        QVERIFY(wrote);
        QVERIFY(test::commitOffsets(group, topic, {0}));

        const QJsonObject row = partitionOf(describedByGroupscope(group), 0);
        const qint64 end = row[QStringLiteral("logEndOffset")].toInteger();
        const QJsonObject detail = row[QStringLiteral("lagDetail")].toObject();
        QCOMPARE(detail[QStringLiteral("lastStableOffset")].toInteger(), 3);
        QCOMPARE(detail[QStringLiteral("lastStableLag")].toInteger(), 3);
        QCOMPARE(detail[QStringLiteral("openTransactionRecords")].toInteger(), end - 3);
        QCOMPARE(detail[QStringLiteral("effectiveLag")].toInteger(), end);
        QVERIFY2(detail[QStringLiteral("reason")].toString().contains(
                     QStringLiteral("open transaction holding back %1 records").arg(end - 3)),
                 qPrintable(detail[QStringLiteral("reason")].toString()));
        const auto oracle = kafkaRow(group, 0);
        QVERIFY(oracle && oracle->lag && oracle->logEndOffset);
        QCOMPARE(*oracle->lag, *oracle->logEndOffset); // Kafka's tool: the whole log
    }

    // Retention (here DeleteRecords, which moves the log start the same way) removed the
    // records after the commit: flagged, never a phantom effective lag.
    void aCommitDeletedByRetentionIsFlagged() {
        const QString topic = test::uniqueName(QStringLiteral("lagdetail-retention"));
        const QString group = test::uniqueName(QStringLiteral("lagdetail-retention"));
        QVERIFY(test::createTopic(topic, 1));
        QVERIFY(test::produce(topic, 10, 0));
        QVERIFY(test::commitOffsets(group, topic, {3}));
        const auto deleted = test::deleteRecordsBefore(topic, 0, 7);
        QVERIFY2(deleted.ok(), deleted.err.constData());

        const auto oracle = kafkaRow(group, 0);
        QVERIFY(oracle);
        QCOMPARE(oracle->lag, std::optional<qint64>(7)); // Kafka's tool: the phantom lag
        const QJsonObject row = partitionOf(describedByGroupscope(group), 0);
        QCOMPARE(row[QStringLiteral("lag")].toInteger(), 7); // the same, where they compare
        QCOMPARE(row[QStringLiteral("logStartOffset")].toInteger(), 7);
        const QJsonObject detail = row[QStringLiteral("lagDetail")].toObject();
        QVERIFY(detail[QStringLiteral("commitDeletedByRetention")].toBool());
        QCOMPARE(detail[QStringLiteral("recordsDeletedByRetention")].toInteger(), 4);
        QVERIFY(detail[QStringLiteral("effectiveLag")].isNull());
        QVERIFY(detail[QStringLiteral("reason")].toString().startsWith(
            QStringLiteral("commit deleted by retention: 4 records gone")));
    }

    // Partitions a member owns without a commit are counted apart, not as lag 0.
    void partitionsWithoutACommitAreCountedApart() {
        const QString topic = test::uniqueName(QStringLiteral("lagdetail-nocommit"));
        const QString group = test::uniqueName(QStringLiteral("lagdetail-nocommit"));
        QVERIFY(test::createTopic(topic, 3));
        QVERIFY(test::produce(topic, 4, 0));
        QVERIFY(test::commitOffsets(group, topic, {1})); // partition 0 only
        test::PythonGroupMember member(topic, group, QStringLiteral("lagdetail-member"));
        QVERIFY(member.waitUntilAssigned());

        const auto rows = test::describedByKafka(group);
        QVERIFY(rows && rows->size() == 3);
        int withoutByKafka = 0;
        for (const auto& row : *rows)
            withoutByKafka += row.currentOffset ? 0 : 1;
        QCOMPARE(withoutByKafka, 2);

        const QJsonObject described = describedByGroupscope(group);
        QCOMPARE(described[QStringLiteral("partitionsWithoutCommit")].toInt(), 2);
        QCOMPARE(described[QStringLiteral("totalLag")].toInteger(), 3);
        QCOMPARE(described[QStringLiteral("totalEffectiveLag")].toInteger(), 3);
        const auto text = runGroupscope({QStringLiteral("describe"), QStringLiteral("--group"),
                                         group, QStringLiteral("--lag-detail")});
        QVERIFY2(text.out.contains("TOTAL LAG 3, EFFECTIVE 3; 2 partitions without a commit "
                                   "(not counted)"),
                 text.out.constData());
        QVERIFY(text.out.contains("no commit"));
    }

    // The cost of lag detail per poll, from inside: only a lagging partition is asked
    // about, once per leader; a second poll with nothing changed reads no records again.
    void aPollCostsOneRequestPerLeaderAndOnlyWhenNeeded() {
        if (m_markerGroup.isEmpty())
            QSKIP("needs aTransactionMarkerAtTheEndIsEffectiveLagZero's group");
        monitor::LagDetailReader reader;
        RequestCounter counter;
        monitor::GroupInspector inspector(*m_admin);
        inspector.setLagDetailReader(&reader);

        auto first = inspector.inspect({m_markerGroup});
        QVERIFY(first);
        const int firstFetches = counter.take(ApiKey::Fetch);
        const int firstListOffsets = counter.take(ApiKey::ListOffsets);
        const int firstMetadata = counter.take(ApiKey::Metadata);
        QCOMPARE(first.value().front().partitions.front().lagDetail->effectiveLag,
                 std::optional<int64_t>(0));
        counter.reset();
        auto second = inspector.inspect({m_markerGroup});
        QVERIFY(second);
        const int secondFetches = counter.take(ApiKey::Fetch);
        const int secondListOffsets = counter.take(ApiKey::ListOffsets);
        qInfo("lag detail of one lagging partition: first poll %d Fetch, %d ListOffsets, "
              "%d Metadata; second poll %d Fetch, %d ListOffsets (one leader)",
              firstFetches, firstListOffsets, firstMetadata, secondFetches, secondListOffsets);
        // Every inspection reads the log start and end (one ListOffsets each, one leader
        // here); lag detail adds one READ_COMMITTED ListOffsets for the lagging partition.
        constexpr int logOffsetsRequests = 2;
        QCOMPARE(firstFetches, 1);
        QCOMPARE(firstListOffsets, logOffsetsRequests + 1);
        QCOMPARE(secondFetches, 0); // the read is kept: commit and log end unchanged
        QCOMPARE(secondListOffsets, logOffsetsRequests + 1);
        QCOMPARE(reader.lastCost().reusedReads, 1);
        QCOMPARE(second.value().front().partitions.front().lagDetail,
                 first.value().front().partitions.front().lagDetail);

        // A caught-up group costs nothing.
        const QString topic = test::uniqueName(QStringLiteral("lagdetail-quiet"));
        const QString quiet = test::uniqueName(QStringLiteral("lagdetail-quiet"));
        QVERIFY(test::createTopic(topic, 1));
        QVERIFY(test::produce(topic, 2, 0));
        QVERIFY(test::commitOffsets(quiet, topic, {2}));
        counter.reset();
        auto caughtUp = inspector.inspect({quiet});
        QVERIFY(caughtUp);
        QCOMPARE(counter.take(ApiKey::Fetch), 0);
        QCOMPARE(counter.take(ApiKey::ListOffsets), logOffsetsRequests);
        QCOMPARE(caughtUp.value().front().partitions.front().lagDetail->effectiveLag,
                 std::optional<int64_t>(0));

        // Groups at the same commit of a partition share one detail (one allocation, not one
        // per row); a group at another commit has its own.
        const QString alsoQuiet = test::uniqueName(QStringLiteral("lagdetail-quiet"));
        const QString behind = test::uniqueName(QStringLiteral("lagdetail-behind"));
        QVERIFY(test::commitOffsets(alsoQuiet, topic, {2}));
        QVERIFY(test::commitOffsets(behind, topic, {1}));
        auto three = inspector.inspect({quiet, alsoQuiet, behind});
        QVERIFY(three);
        QCOMPARE(three.value().size(), 3);
        const auto detailOf = [&](const QString& group) -> const lag::LagDetail* {
            for (const monitor::GroupSnapshot& snapshot : three.value())
                if (snapshot.groupId() == group)
                    return &snapshot.partitions.front().lagDetail.get();
            return nullptr;
        };
        QVERIFY(detailOf(quiet) && detailOf(quiet) == detailOf(alsoQuiet));
        QVERIFY(detailOf(behind) && detailOf(behind) != detailOf(quiet));
        QCOMPARE(detailOf(behind)->effectiveLag, std::optional<int64_t>(1));
    }

    // A poll of many groups goes a slice of groups at a time (so it holds one slice's
    // descriptions and commits); each partition's log offsets, last stable offset and
    // records are still read once per poll, by the first slice that names them, and the
    // rows are those of a poll in one piece.
    void aPollInSlicesReadsEachPartitionOncePerPoll() {
        const QString topic = test::uniqueName(QStringLiteral("lagdetail-sliced"));
        QVERIFY(test::createTopic(topic, 2));
        QVERIFY(test::produce(topic, 5, 0));
        QVERIFY(test::produce(topic, 5, 1));
        QStringList groups;
        for (int i = 0; i < 3; ++i) {
            groups.append(test::uniqueName(QStringLiteral("lagdetail-sliced")));
            QVERIFY(test::commitOffsets(groups.last(), topic, {2, 3}));
        }
        groups.sort();

        monitor::LagDetailReader wholeReader;
        monitor::GroupInspector whole(*m_admin);
        whole.setLagDetailReader(&wholeReader);
        const auto inOnePiece = whole.inspect(groups);
        QVERIFY(inOnePiece);

        monitor::LagDetailReader slicedReader;
        monitor::GroupInspector sliced(*m_admin);
        sliced.setLagDetailReader(&slicedReader);
        sliced.setGroupsPerSlice(1);
        RequestCounter counter;
        const auto inSlices = sliced.inspect(groups);
        QVERIFY(inSlices);
        // One leader: log starts and ends (two ListOffsets), the last stable offsets (one)
        // and the records after the commits (one Fetch), all in the first slice; a slice
        // per group would ask each again.
        QCOMPARE(counter.take(ApiKey::ListOffsets), 3);
        QCOMPARE(counter.take(ApiKey::Fetch), 1);
        QCOMPARE(slicedReader.lastCost().readPartitions, 2);
        QCOMPARE(slicedReader.lastCost().stableOffsetPartitions, 2);

        QCOMPARE(inSlices.value().size(), groups.size());
        for (qsizetype g = 0; g < groups.size(); ++g) {
            const monitor::GroupSnapshot& expected = inOnePiece.value().at(g);
            const monitor::GroupSnapshot& actual = inSlices.value().at(g);
            QCOMPARE(actual.groupId(), groups.at(g));
            QCOMPARE(actual.partitions.size(), 2);
            for (qsizetype p = 0; p < 2; ++p) {
                const monitor::PartitionSnapshot& row = actual.partitions.at(p);
                QCOMPARE(row.topicPartition, expected.partitions.at(p).topicPartition);
                QCOMPARE(row.committedOffset, expected.partitions.at(p).committedOffset);
                QCOMPARE(row.logEndOffset, 5);
                QCOMPARE(row.lag, expected.partitions.at(p).lag);
                QCOMPARE(row.lagDetail->effectiveLag,
                         expected.partitions.at(p).lagDetail->effectiveLag);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestLagDetailOnBroker)
#include "TestLagDetailOnBroker.moc"
