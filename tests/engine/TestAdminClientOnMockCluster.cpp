// The librdkafka AdminClient (the fallback for profiles the own protocol client cannot
// speak, forced here with GROUPSCOPE_GROUP_CLIENT=librdkafka) on librdkafka's mock
// cluster, which is librdkafka's own and not Kafka: its answers differ from Kafka's in
// places (a null array where Kafka's schema allows none), which the own client refuses as
// Kafka's own clients would; the own client is tested on the real broker. A client made
// from a bootstrap address, log offsets read back, and the two ways a call ends early: its deadline
// passes (a slow broker: a timeout error value naming the bootstrap servers, never a hang) or
// another thread sets the cancel flag (an "interrupted" error at once, not at the deadline).
// librdkafka 2.0.2's mock cluster has no ListGroups or DescribeGroups; those are tested
// against the real broker.
#include "EngineTestSupport.h"

#include "kafka/AdminClient.h"
#include "kafka/GroupClientChoice.h"
#include "kafka/LibrdkafkaConnection.h"

#include <librdkafka/rdkafka.h>

#include <QElapsedTimer>
#include <QScopeGuard>
#include <QTest>

#include <atomic>
#include <future>
#include <thread>

using namespace groupscope;
using namespace std::chrono_literals;
using kafka::AdminClient;
using kafka::TopicPartition;
using test::TestProducer;

namespace {

constexpr int brokerCount = 3;

std::unique_ptr<AdminClient> adminFor(const QString& bootstrap, std::chrono::milliseconds timeout,
                                      bool protocolLog = false) {
    kafka::ConnectionProfile profile;
    profile.bootstrapServers = bootstrap;
    if (protocolLog)
        profile.extraProperties = {{QStringLiteral("debug"), QStringLiteral("protocol")}};
    auto admin = AdminClient::create(profile, timeout);
    if (!admin) {
        qWarning("AdminClient::create: %s", qPrintable(admin.error().toString()));
        return nullptr;
    }
    return std::move(admin).value();
}

void setRoundTripTime(rd_kafka_mock_cluster_t* cluster, int milliseconds) {
    for (int broker = 1; broker <= brokerCount; ++broker)
        rd_kafka_mock_broker_set_rtt(cluster, broker, milliseconds);
}

} // namespace

class TestAdminClientOnMockCluster : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { qputenv(kafka::GroupClientChoice::environmentVariable, "librdkafka"); }

    void createNeedsBootstrapServers() {
        const auto admin = AdminClient::create(kafka::ConnectionProfile{});
        QVERIFY(!admin);
        QCOMPARE(admin.error().code, RD_KAFKA_RESP_ERR__INVALID_ARG);
    }

    void logOffsetsOfEveryPartition() {
        auto cluster = TestProducer::createMock(brokerCount);
        QVERIFY(cluster);
        const QString topic = QStringLiteral("mock-offsets");
        QVERIFY(cluster->createMockTopic(topic, 6));
        for (int partition = 0; partition < 6; ++partition)
            QVERIFY(cluster->produce(topic, partition, partition + 2));
        auto admin = adminFor(cluster->bootstrapServers(), 10s);
        QVERIFY(admin);

        QList<TopicPartition> partitions;
        for (int partition = 5; partition >= 0; --partition)
            partitions.append({topic, partition});
        partitions.append({topic, 3}); // asked twice, answered once
        const auto offsets = admin->logOffsets(partitions);
        QVERIFY2(offsets, offsets ? "" : qPrintable(offsets.error().toString()));
        QCOMPARE(offsets.value().size(), 6);
        for (const auto& entry : offsets.value()) {
            QVERIFY2(!entry.error, qPrintable(entry.error.toString()));
            QCOMPARE(entry.logStartOffset, 0);
            QCOMPARE(entry.logEndOffset, entry.topicPartition.partition + 2);
        }
    }

    // Every broker answers 10 s late; each call must end at its own 500 ms deadline with
    // an error value that says so and names the bootstrap servers.
    void slowBrokerIsATimeoutErrorValue() {
        auto cluster = TestProducer::createMock(brokerCount);
        QVERIFY(cluster);
        const QString topic = QStringLiteral("mock-slow");
        QVERIFY(cluster->createMockTopic(topic, 3));
        setRoundTripTime(cluster->mockCluster(), 10'000);
        constexpr auto timeout = 500ms;
        // Requests to partition leaders and for metadata only. A call that goes through a
        // group coordinator (ListConsumerGroupOffsets, DescribeConsumerGroups) and times out
        // while the coordinator lookup is unanswered makes librdkafka 2.0.2 abort when the
        // handle is destroyed some time later ("rd_kafka_enq_once_del_source_return:
        // Assertion `eonce->refcnt > 0'", librdkafka issue 4605, fix proposed in PR 5397);
        // that is librdkafka's, and would only crash this test.
        auto offsetsAdmin = adminFor(cluster->bootstrapServers(), timeout);
        auto metadataAdmin = adminFor(cluster->bootstrapServers(), timeout);
        QVERIFY(offsetsAdmin && metadataAdmin);

        QElapsedTimer elapsed;
        elapsed.start();
        const auto offsets = offsetsAdmin->logOffsets({{topic, 0}, {topic, 1}, {topic, 2}});
        const qint64 offsetsMs = elapsed.restart();
        const auto partitions = metadataAdmin->describePartitions({topic});
        const qint64 partitionsMs = elapsed.elapsed();
        qInfo("with a 10 s round trip and a 500 ms timeout: log offsets failed after %lld ms, "
              "partition metadata after %lld ms",
              offsetsMs, partitionsMs);

        for (const kafka::KafkaError& error :
             {offsets ? kafka::KafkaError() : offsets.error(),
              partitions ? kafka::KafkaError() : partitions.error()}) {
            QCOMPARE(error.code, RD_KAFKA_RESP_ERR__TIMED_OUT);
            QVERIFY2(error.message.contains(cluster->bootstrapServers()),
                     qPrintable(error.message));
            QVERIFY(error.retriable);
        }
        // Generous bounds (the round trip is 10 s): what matters is that neither call waited
        // for the answer.
        QVERIFY2(offsetsMs < 3000, qPrintable(QString::number(offsetsMs)));
        QVERIFY2(partitionsMs < 3000, qPrintable(QString::number(partitionsMs)));
        setRoundTripTime(cluster->mockCluster(), 0);
    }

    // The flag is set by another thread while the call waits for its answer (seen in the
    // protocol log: the request has been sent); the call ends long before its 60 s deadline.
    void cancelFlagEndsAWaitingCall() {
        auto cluster = TestProducer::createMock(brokerCount);
        QVERIFY(cluster);

        std::atomic<bool> cancelled = false;
        std::atomic<bool> armed = false;
        std::promise<void> requestSent;
        kafka::LibrdkafkaConnection::setLogSink([&](int, const QString&, const QString& message) {
            if (message.contains(u"Sent OffsetFetchRequest") ||
                message.contains(u"Sent FindCoordinatorRequest"))
                if (armed.exchange(false))
                    requestSent.set_value();
        });
        // Declared after what the sink uses and before the client, so the client goes first,
        // then the sink, whichever way the test ends.
        const auto removeSink = qScopeGuard([] { kafka::LibrdkafkaConnection::setLogSink({}); });
        auto admin = adminFor(cluster->bootstrapServers(), 60s, true);
        QVERIFY(admin);
        admin->setCancelFlag(&cancelled);
        // Connected and the group's coordinator known while the brokers answer at once; from
        // then on they answer 30 s late, so the next request is sent and not answered.
        const auto warmUp = admin->listCommittedOffsets({QStringLiteral("g")});
        QVERIFY2(warmUp, warmUp ? "" : qPrintable(warmUp.error().toString()));
        setRoundTripTime(cluster->mockCluster(), 30'000);
        armed = true;

        auto call = std::async(std::launch::async,
                               [&] { return admin->listCommittedOffsets({QStringLiteral("g")}); });
        const bool sent = requestSent.get_future().wait_for(20s) == std::future_status::ready;
        QElapsedTimer sinceCancel;
        sinceCancel.start();
        cancelled = true;
        QVERIFY(call.wait_for(20s) == std::future_status::ready);
        const qint64 returnedMs = sinceCancel.elapsed();
        const auto result = call.get();
        qInfo("returned %lld ms after the cancel flag was set", returnedMs);

        QVERIFY(sent);
        QVERIFY(!result);
        QCOMPARE(result.error().code, RD_KAFKA_RESP_ERR__INTR);
        QVERIFY2(result.error().message.contains(u"cancelled"), qPrintable(result.error().message));
        // About 100 ms (the wait's polling slice); the bound is loose, the deadline is 60 s.
        QVERIFY2(returnedMs < 2000, qPrintable(QString::number(returnedMs)));
        setRoundTripTime(cluster->mockCluster(), 0);
    }
};

QTEST_GUILESS_MAIN(TestAdminClientOnMockCluster)
#include "TestAdminClientOnMockCluster.moc"
