// Log start and end offsets (and offsets for timestamps) are asked for in one ListOffsets
// request per partition leader, never one per partition (issue 2, section 4). On a
// three-node cluster of its own, a topic's many partitions are led by all three brokers;
// the protocol client's request observer counts the ListOffsets requests each broker
// receives. The offsets themselves must equal what Kafka's
// own GetOffsetShell reports, with some log starts moved by DeleteRecords so that they are
// not all zero.
#include "TestBroker.h"

#include "kafka/AdminClient.h"
#include "kafka/CoordinatorRequests.h"
#include "kafka/protocol/BrokerConnection.h"
#include "monitor/GroupInspector.h"
#include "monitor/LagDetailReader.h"

#include <QFile>
#include <QMutex>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <memory>
#include <utility>

using namespace groupscope;
using kafka::AdminClient;
using kafka::TopicPartition;

namespace {

constexpr int partitionCount = 30;

// Records produced to a partition: different per partition, so a mix-up shows.
int recordsIn(int partition) {
    return 3 + (partition * 7) % 11;
}

// Where DeleteRecords moves the log start of a partition; 0 (nothing deleted) for most.
int deletedBefore(int partition) {
    return partition % 4 == 1 ? 2 : 0;
}

// A tool class of the Kafka test bed's jars (GetOffsetShell, DeleteRecordsCommand), run the
// way tests/kafka's wrapper scripts run kafka-consumer-groups.
test::ProcessResult kafkaTool(const QString& className, const QStringList& arguments) {
    const QString script = QStringLiteral(
        R"(source "$0/lib.sh"; classpath=$(kafka_classpath); exec java -Xmx256m -cp "$classpath" )"
        R"(-Dlog4j.configuration=file:"$0/tools-log4j.properties" "$@")");
    return test::run(QStringLiteral("bash"),
                     QStringList{QStringLiteral("-c"), script,
                                 QStringLiteral(GROUPSCOPE_TESTBED_DIR), className} +
                         arguments);
}

// GetOffsetShell's "topic:partition:offset" lines, by partition.
QMap<int, qint64> offsetsByKafka(const QString& bootstrap, const QString& topic,
                                 const QString& time) {
    QMap<int, qint64> offsets;
    const auto result =
        kafkaTool(QStringLiteral("org.apache.kafka.tools.GetOffsetShell"),
                  {QStringLiteral("--bootstrap-server"), bootstrap, QStringLiteral("--topic"),
                   topic, QStringLiteral("--time"), time});
    if (!result.ok()) {
        qWarning("GetOffsetShell failed: %s", result.err.constData());
        return offsets;
    }
    for (const QByteArray& line : result.out.split('\n')) {
        const QList<QByteArray> fields = line.trimmed().split(':');
        if (fields.size() == 3 && QString::fromUtf8(fields[0]) == topic)
            offsets.insert(fields[1].toInt(), fields[2].toLongLong());
    }
    return offsets;
}

} // namespace

class TestLogOffsetsBatching : public QObject {
    Q_OBJECT

    test::KafkaCluster m_cluster;
    QString m_topic;
    QList<TopicPartition> m_partitions;
    QSet<int> m_leaders; // broker ids leading at least one of the topic's partitions
    std::unique_ptr<AdminClient> m_admin;

    // ListOffsets requests sent, per broker address, since the last takeListOffsetsRequests().
    mutable QMutex m_requestsMutex;
    QMap<QString, int> m_listOffsetsRequests;

    // The requests since the last call, per broker id.
    QMap<int, int> takeListOffsetsRequests() {
        QMutexLocker lock(&m_requestsMutex);
        QMap<int, int> byBroker;
        for (auto it = m_listOffsetsRequests.cbegin(); it != m_listOffsetsRequests.cend(); ++it) {
            int brokerId = -1;
            for (int node = 1; node <= test::KafkaCluster::nodeCount; ++node)
                if (m_cluster.nodeAddress(node) == it.key())
                    brokerId = test::KafkaCluster::brokerIdOfNode(node);
            byBroker[brokerId] += it.value();
        }
        m_listOffsetsRequests.clear();
        return byBroker;
    }

    static QString countsText(const QHash<QString, int>& counts) {
        QStringList parts;
        for (auto it = counts.cbegin(); it != counts.cend(); ++it)
            parts.append(QStringLiteral("%1: %2").arg(it.key()).arg(it.value()));
        parts.sort();
        return parts.join(QStringLiteral(", "));
    }

    static QString requestsText(const QMap<int, int>& requests) {
        QStringList parts;
        for (auto it = requests.cbegin(); it != requests.cend(); ++it)
            parts.append(QStringLiteral("broker %1: %2").arg(it.key()).arg(it.value()));
        return parts.join(QStringLiteral(", "));
    }

    // Every leader, and no other broker, got ListOffsets requests, each a number `allowed`
    // accepts. Prints the counts for `asked` (what the partitions were asked for).
    void checkEveryLeaderAsked(const QMap<int, int>& requests, const char* asked,
                               const std::function<bool(int)>& allowed) {
        qInfo("ListOffsets requests for %d %s: %s", partitionCount, asked,
              qPrintable(requestsText(requests)));
        QCOMPARE(QSet<int>(requests.keyBegin(), requests.keyEnd()), m_leaders);
        for (auto it = requests.cbegin(); it != requests.cend(); ++it)
            QVERIFY2(allowed(it.value()), qPrintable(requestsText(requests)));
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_cluster.start(), qPrintable(m_cluster.error()));
        const QString bootstrap = m_cluster.bootstrap();
        m_topic = test::uniqueName(QStringLiteral("batching"));
        QVERIFY(test::createTopic(m_topic, partitionCount, bootstrap, 1));

        // Every send is checked: kafka-python does not retry by default, and a partition
        // whose leader it does not know yet would silently stay empty.
        QStringList counts;
        for (int partition = 0; partition < partitionCount; ++partition)
            counts.append(QString::number(recordsIn(partition)));
        const auto produced = test::runPython(QStringLiteral(R"(
from kafka import KafkaProducer
p = KafkaProducer(bootstrap_servers=BOOTSTRAP, acks='all', retries=20, retry_backoff_ms=200)
sent = [p.send('%1', b'r', partition=partition)
        for partition, count in enumerate([%2]) for _ in range(count)]
p.flush()
for future in sent:
    future.get(timeout=60)
p.close()
)")
                                                  .arg(m_topic, counts.join(u',')),
                                              std::chrono::seconds(120), bootstrap);
        QVERIFY2(produced.ok(), produced.err.constData());

        QStringList deletions;
        for (int partition = 0; partition < partitionCount; ++partition)
            if (deletedBefore(partition) > 0)
                deletions.append(QStringLiteral(R"({"topic":"%1","partition":%2,"offset":%3})")
                                     .arg(m_topic)
                                     .arg(partition)
                                     .arg(deletedBefore(partition)));
        QTemporaryDir directory;
        QVERIFY(directory.isValid());
        QFile json(directory.filePath(QStringLiteral("delete.json")));
        QVERIFY(json.open(QIODevice::WriteOnly));
        json.write(QStringLiteral(R"({"version":1,"partitions":[%1]})")
                       .arg(deletions.join(u','))
                       .toUtf8());
        json.close();
        const auto deleted =
            kafkaTool(QStringLiteral("org.apache.kafka.tools.DeleteRecordsCommand"),
                      {QStringLiteral("--bootstrap-server"), bootstrap,
                       QStringLiteral("--offset-json-file"), json.fileName()});
        QVERIFY2(deleted.ok(), deleted.err.constData());

        kafka::protocol::BrokerConnection::setRequestObserver(
            [this](kafka::protocol::ApiKey api, const QString& broker) {
                if (api == kafka::protocol::ApiKey::ListOffsets) {
                    QMutexLocker lock(&m_requestsMutex);
                    ++m_listOffsetsRequests[broker];
                }
            });
        kafka::ConnectionProfile profile;
        profile.bootstrapServers = bootstrap;
        auto admin = AdminClient::create(profile, std::chrono::seconds(30));
        QVERIFY2(admin, admin ? "" : qPrintable(admin.error().toString()));
        m_admin = std::move(admin).value();

        // Who leads what.
        const auto described = m_admin->describePartitions({m_topic});
        QVERIFY2(described, described ? "" : qPrintable(described.error().toString()));
        QCOMPARE(described.value().size(), partitionCount);
        for (const auto& info : described.value()) {
            m_partitions.append(info.topicPartition);
            m_leaders.insert(info.leader);
        }
        // Kafka spreads the leaders of a new topic over every broker.
        QCOMPARE(m_leaders.size(), test::KafkaCluster::nodeCount);
    }

    void cleanupTestCase() {
        m_admin.reset();
        kafka::protocol::BrokerConnection::setRequestObserver({});
        m_cluster.stop();
    }

    void logOffsetsAskEachLeaderOncePerEnd() {
        const auto kafkaStarts =
            offsetsByKafka(m_cluster.bootstrap(), m_topic, QStringLiteral("-2"));
        const auto kafkaEnds = offsetsByKafka(m_cluster.bootstrap(), m_topic, QStringLiteral("-1"));
        QCOMPARE(kafkaStarts.size(), partitionCount);
        QCOMPARE(kafkaEnds.size(), partitionCount);

        takeListOffsetsRequests();
        const auto offsets = m_admin->logOffsets(m_partitions);
        const QMap<int, int> requests = takeListOffsetsRequests();
        QVERIFY2(offsets, offsets ? "" : qPrintable(offsets.error().toString()));

        // One request per leader for the log starts and one for the log ends: 2 per broker
        // here, where one request per partition would be 2 * 10.
        checkEveryLeaderAsked(requests, "partitions", [](int count) { return count <= 2; });
        if (QTest::currentTestFailed())
            return;

        QCOMPARE(offsets.value().size(), partitionCount);
        for (const auto& entry : offsets.value()) {
            const int partition = entry.topicPartition.partition;
            QVERIFY2(!entry.error, qPrintable(entry.error.toString()));
            QCOMPARE(entry.logStartOffset, kafkaStarts.value(partition, -1));
            QCOMPARE(entry.logEndOffset, kafkaEnds.value(partition, -1));
            // The oracle itself agrees with what the test did.
            QCOMPARE(entry.logStartOffset, qint64(deletedBefore(partition)));
            QCOMPARE(entry.logEndOffset, qint64(recordsIn(partition)));
        }
    }

    void offsetsForTimestampsAskEachLeaderOnce() {
        // Timestamp 0: the first record still in the log, which DeleteRecords moved.
        const auto kafkaOffsets =
            offsetsByKafka(m_cluster.bootstrap(), m_topic, QStringLiteral("0"));
        QCOMPARE(kafkaOffsets.size(), partitionCount);
        QList<QPair<TopicPartition, int64_t>> timestamps;
        for (const TopicPartition& tp : std::as_const(m_partitions))
            timestamps.append({tp, 0});

        takeListOffsetsRequests();
        const auto offsets = m_admin->offsetsForTimestamps(timestamps);
        const QMap<int, int> requests = takeListOffsetsRequests();
        QVERIFY2(offsets, offsets ? "" : qPrintable(offsets.error().toString()));

        checkEveryLeaderAsked(requests, "timestamps", [](int count) { return count == 1; });
        if (QTest::currentTestFailed())
            return;

        QCOMPARE(offsets.value().size(), partitionCount);
        for (const TopicPartition& tp : std::as_const(m_partitions))
            QCOMPARE(offsets.value().value(tp, -2), kafkaOffsets.value(tp.partition, -3));
    }

private:
    // Commits offsets on every partition of the topic for groups `first` to `last - 1`.
    void commitGroups(int first, int last) {
        QList<QPair<TopicPartition, int64_t>> offsets;
        for (const TopicPartition& tp : std::as_const(m_partitions))
            offsets.append({tp, 1});
        for (int g = first; g < last; ++g) {
            const QString group = QStringLiteral("%1-refresh-%2").arg(m_topic).arg(g);
            const auto written = m_admin->alterCommittedOffsets(group, offsets);
            QVERIFY2(written, written ? "" : qPrintable(written.error().toString()));
        }
    }

    // What one refresh of the whole cluster sends, as the GUI's and the exporter's poller
    // make it (every group listed, described with its offsets, log offsets, lag detail),
    // from a new client: requests per broker address, and per broker and API.
    struct RefreshRequests {
        QHash<QString, int> connectionsByBroker; // ApiVersions: one per connection
        QHash<QString, int> requestsByBroker;
        QHash<QString, QSet<int>> apisByBroker;
        QHash<QString, int> offsetFetchesByBroker;
        QHash<QString, int> groupsByCoordinator; // every group of the cluster, by address
        int groupsRefreshed = 0;                 // groups named `groupPrefix`...
        int groupsAsCommitted = 0;               // ... whose rows are what `asCommitted` expects
    };
    // Each group of commitGroups() has a row per partition of the topic, each at offset 1.
    bool committedByCommitGroups(const monitor::GroupSnapshot& group) const {
        bool asCommitted = group.partitions.size() == partitionCount;
        for (const auto& row : group.partitions)
            asCommitted = asCommitted && row.committedOffset == 1;
        return asCommitted;
    }
    RefreshRequests refreshOnce() {
        return refreshOnce(
            m_topic + QStringLiteral("-refresh-"),
            [this](const monitor::GroupSnapshot& group) { return committedByCommitGroups(group); });
    }
    RefreshRequests
    refreshOnce(const QString& groupPrefix,
                const std::function<bool(const monitor::GroupSnapshot&)>& asCommitted) {
        RefreshRequests seen;
        QMutex mutex;
        kafka::protocol::BrokerConnection::setRequestObserver(
            [&](kafka::protocol::ApiKey api, const QString& broker) {
                QMutexLocker lock(&mutex);
                ++seen.requestsByBroker[broker];
                seen.apisByBroker[broker].insert(int(api));
                if (api == kafka::protocol::ApiKey::OffsetFetch)
                    ++seen.offsetFetchesByBroker[broker];
                if (api == kafka::protocol::ApiKey::ApiVersions)
                    ++seen.connectionsByBroker[broker];
            });
        kafka::ConnectionProfile profile;
        profile.bootstrapServers = m_cluster.bootstrap();
        auto admin = AdminClient::create(profile, std::chrono::seconds(30));
        if (!admin || admin.value()->isFallback())
            return seen;
        monitor::LagDetailReader lagDetail;
        monitor::GroupInspector inspector(*admin.value());
        inspector.setLagDetailReader(&lagDetail);
        const auto cluster = inspector.inspectAll();
        kafka::protocol::BrokerConnection::setRequestObserver({});
        if (!cluster) {
            qWarning("refresh failed: %s", qPrintable(cluster.error().toString()));
            return seen;
        }
        for (const auto& group : cluster.value().groups) {
            const kafka::BrokerNode& coordinator = group.description.coordinator;
            ++seen.groupsByCoordinator
                  [QStringLiteral("%1:%2").arg(coordinator.host).arg(coordinator.port)];
            if (!group.groupId().startsWith(groupPrefix))
                continue;
            ++seen.groupsRefreshed;
            // Each group's rows are its own, whichever coordinator answered: the
            // coordinators are asked at once, and their answers merged.
            seen.groupsAsCommitted += asCommitted(group) ? 1 : 0;
        }
        qInfo("one refresh of %lld groups: connections per broker %s; requests per broker %s",
              qint64(cluster.value().groups.size()),
              qPrintable(countsText(seen.connectionsByBroker)),
              qPrintable(countsText(seen.requestsByBroker)));
        return seen;
    }

private slots:
    // One refresh opens one connection per broker, each authenticated once (one
    // ApiVersions per connection), never a second client stack, and sends a number of
    // requests per broker that depends on what the broker coordinates and leads, not on
    // the number of groups: ten times the groups (spread over every broker's coordinator
    // partitions) sends exactly as many requests to each broker.
    void refreshRequestsPerBrokerDoNotGrowWithGroups() {
        constexpr int fewGroups = 30; // about 10 per coordinator: per-group requests would show
        constexpr int manyGroups = 300;
        commitGroups(0, fewGroups);
        if (QTest::currentTestFailed())
            return;
        const RefreshRequests few = refreshOnce();
        QCOMPARE(few.groupsRefreshed, fewGroups);
        QCOMPARE(few.groupsAsCommitted, fewGroups);
        QCOMPARE(few.connectionsByBroker.size(), test::KafkaCluster::nodeCount);
        for (int connections : std::as_const(few.connectionsByBroker))
            QCOMPARE(connections, 1);
        // Fixed per broker: ApiVersions, Metadata, ListGroups, FindCoordinator, the
        // describes and OffsetFetch per coordinator, two ListOffsets per leader.
        for (int requests : std::as_const(few.requestsByBroker))
            QVERIFY2(requests <= 14, qPrintable(countsText(few.requestsByBroker)));

        commitGroups(fewGroups, manyGroups);
        if (QTest::currentTestFailed())
            return;
        const RefreshRequests many = refreshOnce();
        QCOMPARE(many.groupsRefreshed, manyGroups);
        QCOMPARE(many.groupsAsCommitted, manyGroups);
        // Every broker coordinates some of the groups (their offsets are fetched there).
        for (int node = 1; node <= test::KafkaCluster::nodeCount; ++node)
            QVERIFY2(many.apisByBroker.value(m_cluster.nodeAddress(node))
                         .contains(int(kafka::protocol::ApiKey::OffsetFetch)),
                     qPrintable(QStringLiteral("node %1 coordinates none of %2 groups")
                                    .arg(node)
                                    .arg(manyGroups)));
        for (auto it = many.requestsByBroker.cbegin(); it != many.requestsByBroker.cend(); ++it)
            QVERIFY2(it.value() <= few.requestsByBroker.value(it.key()),
                     qPrintable(QStringLiteral("%1 groups: %2; %3 groups: %4")
                                    .arg(fewGroups)
                                    .arg(countsText(few.requestsByBroker))
                                    .arg(manyGroups)
                                    .arg(countsText(many.requestsByBroker))));
    }

    // A coordinator of more than CoordinatorRequests::maxGroupsPerBatch groups is asked for
    // them in batches of that many, one after the other (a broker builds each answer whole in
    // its heap), and every group's rows are still its own.
    void aCoordinatorOfManyGroupsIsAskedInBatches() {
        constexpr int seededGroups = 3'600; // over 1,000 on at least one of three coordinators
        const QString prefix = test::uniqueName(QStringLiteral("batches"));
        const auto seeded = test::seedGroups(m_cluster.bootstrap(), seededGroups, 1, 1, prefix);
        QVERIFY2(seeded.ok(), seeded.err.left(2000).constData());

        // kafka-seed-groups commits group G on its one partition at G % 101.
        const RefreshRequests seen = refreshOnce(
            prefix + QStringLiteral("-group-"), [](const monitor::GroupSnapshot& group) {
                const int number = group.groupId().section(u'-', -1).toInt();
                return group.partitions.size() == 1 && group.partitions.front().committedOffset ==
                                                           std::optional<int64_t>(number % 101);
            });
        QCOMPARE(seen.groupsRefreshed, seededGroups);
        QCOMPARE(seen.groupsAsCommitted, seededGroups);
        qInfo("groups per coordinator %s; OffsetFetch requests per broker %s",
              qPrintable(countsText(seen.groupsByCoordinator)),
              qPrintable(countsText(seen.offsetFetchesByBroker)));
        constexpr int batch = int(kafka::CoordinatorRequests::maxGroupsPerBatch);
        int batchedCoordinators = 0;
        for (auto it = seen.groupsByCoordinator.cbegin(); it != seen.groupsByCoordinator.cend();
             ++it) {
            QCOMPARE(seen.offsetFetchesByBroker.value(it.key()), (it.value() + batch - 1) / batch);
            batchedCoordinators += it.value() > batch ? 1 : 0;
        }
        QVERIFY2(batchedCoordinators > 0, "no coordinator had more groups than one batch");
    }
};

QTEST_GUILESS_MAIN(TestLogOffsetsBatching)
#include "TestLogOffsetsBatching.moc"
