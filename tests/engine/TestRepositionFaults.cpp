// Faults injected into the reposition engine through librdkafka's mock cluster (a broker
// going down mid-reposition, commit errors, positions out of range) and through the
// observer seam (a seek that times out). Each partition's outcome must say what happened,
// no partition may stay paused or locked, and delivery must continue without a gap.

#include "EngineTestSupport.h"
#include "TestBroker.h"

#include "consumer/ConsumerSession.h"

#include <librdkafka/rdkafka.h>

#include <QScopeGuard>
#include <QTest>

#include <thread>

using namespace groupscope;
using namespace groupscope::consumer;
using groupscope::test::DeliveryLog;
using groupscope::test::HoldingObserver;
using groupscope::test::TestProducer;
using kafka::TopicPartition;

namespace {
constexpr int perPartition = 200;
constexpr int16_t offsetCommitApiKey = 8; // Kafka protocol: OffsetCommit
} // namespace

class TestRepositionFaults : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void brokerDownMidReposition();
    void commitErrorIsReportedAndPositionStillApplies();
    void seekTimeoutFallsBackToProcessedPosition();
    void outOfRangeRecoversThroughTheEngine();

private:
    std::unique_ptr<ConsumerSession>
    startSession(HoldingObserver* observer, RepositionTarget start = RepositionTarget::earliest(),
                 bool waitUntilFull = true);
    void verifyNothingPausedOrLocked(ConsumerSession& session);

    std::unique_ptr<TestProducer> m_cluster;
    QString m_topic;
    QString m_group;
    TopicPartition m_p0, m_p1;
};

void TestRepositionFaults::init() {
    m_cluster = TestProducer::createMock(1);
    QVERIFY(m_cluster);
    m_topic = test::uniqueName(QStringLiteral("faults"));
    m_group = test::uniqueName(QStringLiteral("group"));
    m_p0 = {m_topic, 0};
    m_p1 = {m_topic, 1};
    QVERIFY(m_cluster->createMockTopic(m_topic, 2));
    for (int p = 0; p < 2; ++p)
        QVERIFY(m_cluster->produce(m_topic, p, perPartition));
}

void TestRepositionFaults::cleanup() {
    m_cluster.reset();
}

std::unique_ptr<ConsumerSession> TestRepositionFaults::startSession(HoldingObserver* observer,
                                                                    RepositionTarget start,
                                                                    bool waitUntilFull) {
    ConsumerSessionOptions options;
    options.profile.bootstrapServers = m_cluster->bootstrapServers();
    options.groupId = m_group;
    options.bufferCapacity = 40;
    options.operationTimeout = std::chrono::milliseconds(1500);
    options.properties = {{QStringLiteral("fetch.wait.max.ms"), QStringLiteral("50")},
                          {QStringLiteral("reconnect.backoff.max.ms"), QStringLiteral("200")}};
    auto created = ConsumerSession::create(options);
    if (!created)
        return nullptr;
    ConsumerSession& session = *created.value();
    session.setRepositionObserver(observer);
    if (!session.assign({{m_p0, start}, {m_p1, RepositionTarget::earliest()}}))
        return nullptr;
    if (waitUntilFull && !test::waitFor([&] { return session.statistics().partitionsPaused == 2; }))
        return nullptr;
    return std::move(created.value());
}

void TestRepositionFaults::verifyNothingPausedOrLocked(ConsumerSession& session) {
    for (const auto& partition : session.partitionStatistics())
        QVERIFY2(!partition.locked, qPrintable(partition.topicPartition.toString()));
    // Paused only when its buffer is full, i.e. by backpressure, never by the engine. A
    // buffer drained a moment ago is resumed by the fetch thread shortly after, so this
    // waits for that with a deadline rather than reading one instant.
    const auto onlyBackpressurePauses = [&] {
        const auto partitions = session.partitionStatistics();
        return std::all_of(partitions.cbegin(), partitions.cend(), [](const auto& partition) {
            return !partition.paused || partition.messagesBuffered >= 40;
        });
    };
    QVERIFY(test::waitFor(onlyBackpressurePauses, std::chrono::seconds(5)));
}

void TestRepositionFaults::brokerDownMidReposition() {
    HoldingObserver observer;
    auto session = startSession(&observer);
    QVERIFY(session);
    QCOMPARE(session->take(m_p0, 15).size(), size_t(15));
    QCOMPARE(session->take(m_p1, 25).size(), size_t(25));

    // Hold the engine right after the flush, take the broker down, then let it resolve.
    observer.holdAt(RepositionStep::Flush, m_p0);
    RepositionRequest request;
    request.targets = {{m_p0, RepositionTarget::earliest()}, {m_p1, RepositionTarget::latest()}};
    request.commit = true;
    QList<RepositionOutcome> outcomes;
    std::jthread caller([&] {
        if (auto result = session->reposition(request))
            outcomes = result.value();
    });
    auto releaseOnExit = qScopeGuard([&] { observer.release(); });
    QVERIFY(observer.waitUntilHeld());
    rd_kafka_mock_broker_set_down(m_cluster->mockCluster(), 1);
    observer.release();
    caller.join();

    QCOMPARE(outcomes.size(), 2);
    for (const RepositionOutcome& outcome : outcomes) {
        QVERIFY2(!outcome.ok(), qPrintable(outcome.topicPartition.toString()));
        QVERIFY(!outcome.committed);
        QVERIFY(outcome.messagesDropped > 0);
    }
    // The targets could not be resolved, so each partition went back to its processed
    // position: the flushed messages are fetched again, not skipped.
    QCOMPARE(test::findOutcome(outcomes, m_p0)->newPosition, 15);
    QCOMPARE(test::findOutcome(outcomes, m_p1)->newPosition, 25);
    verifyNothingPausedOrLocked(*session);

    rd_kafka_mock_broker_set_up(m_cluster->mockCluster(), 1);
    DeliveryLog log;
    QVERIFY2(test::drainUntil(*session, log,
                              [&] {
                                  return log.count(m_p0) >= perPartition - 15 &&
                                         log.count(m_p1) >= perPartition - 25;
                              }),
             qPrintable(test::describe(*session)));
    QVERIFY(test::isContiguousRange(log.offsets(m_p0), 15, perPartition - 1));
    QVERIFY(test::isContiguousRange(log.offsets(m_p1), 25, perPartition - 1));
    QCOMPARE(session->statistics().staleMessagesDiscarded, 0u);
}

void TestRepositionFaults::commitErrorIsReportedAndPositionStillApplies() {
    HoldingObserver observer;
    auto session = startSession(&observer);
    QVERIFY(session);
    RepositionRequest first;
    first.targets = {{m_p0, RepositionTarget::offset(10)}};
    first.commit = true;
    auto outcomes = session->reposition(first);
    QVERIFY(outcomes && outcomes.value().first().committed);

    rd_kafka_mock_push_request_errors(m_cluster->mockCluster(), offsetCommitApiKey, 1,
                                      RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED);
    RepositionRequest second;
    second.targets = {{m_p0, RepositionTarget::offset(120)}, {m_p1, RepositionTarget::offset(30)}};
    second.commit = true;
    outcomes = session->reposition(second);
    QVERIFY(outcomes);
    for (const RepositionOutcome& outcome : outcomes.value()) {
        QVERIFY(!outcome.committed);
        QCOMPARE(outcome.error.code, RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED);
    }
    QCOMPARE(test::findOutcome(outcomes.value(), m_p0)->newPosition, 120);
    QCOMPARE(test::committedOffset(m_cluster->bootstrapServers(), m_group, m_p0), 10);
    verifyNothingPausedOrLocked(*session);

    DeliveryLog log;
    QVERIFY(test::drainUntil(*session, log, [&] {
        return log.count(m_p0) >= perPartition - 120 && log.count(m_p1) >= perPartition - 30;
    }));
    QVERIFY(test::isContiguousRange(log.offsets(m_p0), 120, perPartition - 1));
    QVERIFY(test::isContiguousRange(log.offsets(m_p1), 30, perPartition - 1));
}

void TestRepositionFaults::seekTimeoutFallsBackToProcessedPosition() {
    HoldingObserver observer;
    auto session = startSession(&observer);
    QVERIFY(session);
    QCOMPARE(session->take(m_p0, 12).size(), size_t(12));
    observer.injectOnce(RepositionStep::Seek, m_p0,
                        kafka::KafkaError::timeout(QStringLiteral("injected seek timeout")));
    RepositionRequest request;
    request.targets = {{m_p0, RepositionTarget::offset(150)}, {m_p1, RepositionTarget::offset(60)}};
    auto outcomes = session->reposition(request);
    QVERIFY(outcomes);
    const RepositionOutcome* outcome0 = test::findOutcome(outcomes.value(), m_p0);
    const RepositionOutcome* outcome1 = test::findOutcome(outcomes.value(), m_p1);
    QCOMPARE(outcome0->error.code, RD_KAFKA_RESP_ERR__TIMED_OUT);
    QCOMPARE(outcome0->newPosition, 12); // back to the processed position
    QVERIFY2(outcome1->ok(), qPrintable(outcome1->error.toString()));
    QCOMPARE(outcome1->newPosition, 60);
    verifyNothingPausedOrLocked(*session);

    DeliveryLog log;
    QVERIFY(test::drainUntil(*session, log, [&] {
        return log.count(m_p0) >= perPartition - 12 && log.count(m_p1) >= perPartition - 60;
    }));
    QVERIFY(test::isContiguousRange(log.offsets(m_p0), 12, perPartition - 1));
    QVERIFY(test::isContiguousRange(log.offsets(m_p1), 60, perPartition - 1));
}

void TestRepositionFaults::outOfRangeRecoversThroughTheEngine() {
    HoldingObserver observer;
    // Far beyond the log end: the broker answers OFFSET_OUT_OF_RANGE.
    auto session = startSession(&observer, RepositionTarget::offset(5000), false);
    QVERIFY(session);
    DeliveryLog log;
    QVERIFY2(test::drainUntil(*session, log,
                              [&] {
                                  return log.count(m_p0) >= perPartition &&
                                         log.count(m_p1) >= perPartition;
                              }),
             qPrintable(test::describe(*session)));
    QVERIFY(session->statistics().outOfRangeRecoveries >= 1);
    // Recovery (to earliest) went through the engine's steps like every other move.
    QVERIFY(observer.steps().count(RepositionStep::Seek) >= 2);
    QVERIFY2(test::isContiguousRange(log.offsets(m_p0), 0, perPartition - 1),
             qPrintable(test::describe(log.offsets(m_p0))));
    QVERIFY(test::isContiguousRange(log.offsets(m_p1), 0, perPartition - 1));
    verifyNothingPausedOrLocked(*session);
}

QTEST_GUILESS_MAIN(TestRepositionFaults)
#include "TestRepositionFaults.moc"
