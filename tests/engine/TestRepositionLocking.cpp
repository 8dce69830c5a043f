// Seed bug 1: a consumer resumed fetching before it had sought back, and a gap appeared.
// Holds the reposition engine before each of its steps and checks that nothing of the
// partitions being repositioned is handed out meanwhile, and that delivery afterwards
// starts exactly at the target without a gap, also with a rebalance at the same time.

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

class TestRepositionLocking : public QObject {
    Q_OBJECT

private slots:
    void noDeliveryWhileRepositioning_data();
    void noDeliveryWhileRepositioning();
    void noGapWhenRebalancingConcurrently();

private:
    static ConsumerSessionOptions options(const QString& bootstrap, const QString& group) {
        ConsumerSessionOptions options;
        options.profile.bootstrapServers = bootstrap;
        options.groupId = group;
        options.bufferCapacity = 60;
        options.operationTimeout = std::chrono::seconds(5);
        options.properties = {{QStringLiteral("fetch.wait.max.ms"), QStringLiteral("50")},
                              {QStringLiteral("session.timeout.ms"), QStringLiteral("6000")},
                              {QStringLiteral("heartbeat.interval.ms"), QStringLiteral("500")}};
        return options;
    }
};

void TestRepositionLocking::noDeliveryWhileRepositioning_data() {
    QTest::addColumn<RepositionStep>("step");
    for (RepositionStep step :
         {RepositionStep::Lock, RepositionStep::Pause, RepositionStep::Flush,
          RepositionStep::Resolve, RepositionStep::Seek, RepositionStep::Bookkeeping,
          RepositionStep::Commit, RepositionStep::Resume, RepositionStep::Unlock})
        QTest::newRow(qPrintable(repositionStepName(step))) << step;
}

void TestRepositionLocking::noDeliveryWhileRepositioning() {
    QFETCH(RepositionStep, step);
    auto cluster = TestProducer::createMock(1);
    QVERIFY(cluster);
    const QString topic = test::uniqueName(QStringLiteral("locking"));
    QVERIFY(cluster->createMockTopic(topic, 3));
    constexpr int perPartition = 300;
    for (int p = 0; p < 3; ++p)
        QVERIFY(cluster->produce(topic, p, perPartition));

    HoldingObserver observer; // outlives the session
    auto created = ConsumerSession::create(
        options(cluster->bootstrapServers(), test::uniqueName(QStringLiteral("group"))));
    QVERIFY2(created, qPrintable(created ? QString() : created.error().toString()));
    ConsumerSession& session = *created.value();
    const TopicPartition p0{topic, 0}, p1{topic, 1}, p2{topic, 2};
    QMap<TopicPartition, RepositionTarget> start{{p0, RepositionTarget::earliest()},
                                                 {p1, RepositionTarget::earliest()},
                                                 {p2, RepositionTarget::earliest()}};
    QVERIFY(session.assign(start).ok());
    // Fill every buffer so that the reposition has stale messages to get wrong.
    QVERIFY(test::waitFor([&] { return session.statistics().partitionsPaused == 3; }));

    session.setRepositionObserver(&observer);
    observer.holdAt(step, p0);
    RepositionRequest request;
    request.targets = {{p0, RepositionTarget::offset(120)}, {p1, RepositionTarget::offset(7)}};
    request.commit = true;
    QList<RepositionOutcome> outcomes;
    std::jthread caller([&] {
        auto result = session.reposition(request);
        if (result)
            outcomes = result.value();
    });
    auto releaseOnExit = qScopeGuard([&] { observer.release(); });
    QVERIFY(observer.waitUntilHeld());

    // While the engine is held, the partitions being repositioned hand out nothing (once
    // unlocked, they may: the log below checks those start at the target); the others
    // are not affected.
    DeliveryLog log;
    log.add(session.take(p0, 1000));
    log.add(session.take(p1, 1000));
    const bool repositionedDelivered = log.count(p0) + log.count(p1) > 0;
    const bool otherDelivered = !session.take(p2, 1).empty();
    const int locked = session.statistics().partitionsLocked;
    observer.release();
    caller.join();
    if (step != RepositionStep::Unlock) {
        QVERIFY2(!repositionedDelivered, "a message of a partition under reposition was delivered");
        QCOMPARE(locked, 2);
    }
    QVERIFY(otherDelivered);

    QCOMPARE(outcomes.size(), 2);
    const auto* outcome0 = test::findOutcome(outcomes, p0);
    const auto* outcome1 = test::findOutcome(outcomes, p1);
    QVERIFY(outcome0 && outcome1);
    QVERIFY2(outcome0->ok(), qPrintable(outcome0->error.toString()));
    QCOMPARE(outcome0->newPosition, 120);
    QCOMPARE(outcome1->newPosition, 7);
    QVERIFY(outcome0->committed && outcome1->committed);
    QCOMPARE(outcome0->messagesDropped, 60); // the full buffer
    QCOMPARE(session.position(p0), 120);

    // Delivery starts exactly at the target, with no gap up to the end of the partition.
    QVERIFY2(test::drainUntil(session, log,
                              [&] {
                                  return log.count(p0) >= perPartition - 120 &&
                                         log.count(p1) >= perPartition - 7;
                              }),
             qPrintable(test::describe(session)));
    QVERIFY2(test::isContiguousRange(log.offsets(p0), 120, perPartition - 1),
             qPrintable(test::describe(log.offsets(p0))));
    QVERIFY2(test::isContiguousRange(log.offsets(p1), 7, perPartition - 1),
             qPrintable(test::describe(log.offsets(p1))));
    const auto statistics = session.statistics();
    QCOMPARE(statistics.staleMessagesDiscarded, 0u);
    QCOMPARE(statistics.partitionsLocked, 0);
    // The steps ran in the documented order.
    const QList<RepositionStep> expected{
        RepositionStep::Lock,    RepositionStep::Pause,  RepositionStep::Flush,
        RepositionStep::Resolve, RepositionStep::Seek,   RepositionStep::Bookkeeping,
        RepositionStep::Commit,  RepositionStep::Resume, RepositionStep::Unlock};
    QCOMPARE(observer.steps().mid(0, expected.size()), expected);
}

void TestRepositionLocking::noGapWhenRebalancingConcurrently() {
    auto cluster = TestProducer::createMock(1);
    QVERIFY(cluster);
    const QString topic = test::uniqueName(QStringLiteral("rebalance"));
    const QString group = test::uniqueName(QStringLiteral("group"));
    constexpr int partitions = 4, perPartition = 200;
    QVERIFY(cluster->createMockTopic(topic, partitions));
    for (int p = 0; p < partitions; ++p)
        QVERIFY(cluster->produce(topic, p, perPartition));

    HoldingObserver observer; // outlives the session
    auto first = ConsumerSession::create(options(cluster->bootstrapServers(), group));
    QVERIFY(first);
    ConsumerSession& a = *first.value();
    QVERIFY(a.subscribe({topic}).ok());
    QVERIFY(test::waitFor([&] {
        return a.assignment().size() == partitions && a.statistics().messagesBuffered > 0;
    }));
    const TopicPartition p0{topic, 0}, p1{topic, 1};
    QVERIFY(test::waitFor([&] { return !a.take(p0, 30).empty(); }));

    a.setRepositionObserver(&observer);
    observer.holdAt(RepositionStep::Seek, p0);
    RepositionRequest request;
    request.targets = {{p0, RepositionTarget::offset(100)}, {p1, RepositionTarget::offset(50)}};
    request.commit = true;
    QList<RepositionOutcome> outcomes;
    std::jthread caller([&] {
        auto result = a.reposition(request);
        if (result)
            outcomes = result.value();
    });
    auto releaseOnExit = qScopeGuard([&] { observer.release(); });
    QVERIFY(observer.waitUntilHeld());
    // A second member joins while the reposition is held: the group rebalances meanwhile.
    auto second = ConsumerSession::create(options(cluster->bootstrapServers(), group));
    QVERIFY(second);
    ConsumerSession& b = *second.value();
    QVERIFY(b.subscribe({topic}).ok());
    const bool deliveredWhileHeld = !a.take(p0, 1000).empty() || !a.take(p1, 1000).empty();
    observer.release();
    caller.join();
    QVERIFY(!deliveredWhileHeld);
    const auto* outcome0 = test::findOutcome(outcomes, p0);
    QVERIFY(outcome0);
    // The group is rebalancing, so the broker may refuse the commit; the engine reports it
    // and the position is set all the same.
    QVERIFY2(outcome0->ok() || outcome0->error.code == RD_KAFKA_RESP_ERR_REBALANCE_IN_PROGRESS,
             qPrintable(outcome0->error.toString()));
    QCOMPARE(outcome0->newPosition, 100);

    // Whoever owns a partition after the rebalance, the offsets delivered after the
    // reposition, by both members together, start at the target and reach the end without
    // a gap. (librdkafka's mock refuses commits while a group is joining, which Kafka
    // accepts, so a handed-over partition may repeat from its last commit here; the stress
    // test checks exactly-once hand-over on the real broker.)
    //
    // Done means "the last offset was delivered", not "enough messages were delivered":
    // such a repeat counts towards any message count, and a count reached part-way
    // through the repeat made this test fail now and then although nothing was missing.
    DeliveryLog logA, logB;
    auto reachedEnd = [&](const TopicPartition& partition) {
        for (DeliveryLog* log : {&logA, &logB})
            for (int64_t offset : log->offsets(partition))
                if (offset == perPartition - 1)
                    return true;
        return false;
    };
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!(reachedEnd(p0) && reachedEnd(p1) && b.assignment().size() > 0) &&
           std::chrono::steady_clock::now() < deadline) {
        a.waitForMessages(std::chrono::milliseconds(50));
        logA.add(a.takeAll(100));
        logB.add(b.takeAll(100));
    }
    QVERIFY2(b.assignment().size() > 0, "the second member never got partitions");
    QVERIFY(a.statistics().rebalances >= 2);
    for (const auto& [partition, target] :
         {std::pair{p0, int64_t(100)}, std::pair{p1, int64_t(50)}}) {
        std::vector<int64_t> combined = logA.offsets(partition);
        const auto& fromB = logB.offsets(partition);
        combined.insert(combined.end(), fromB.begin(), fromB.end());
        QVERIFY2(test::startsAtAndHasNoGap(combined, target, perPartition - 1),
                 qPrintable(QStringLiteral("%1: A %2 | B %3")
                                .arg(partition.toString(), test::describe(logA.offsets(partition)),
                                     test::describe(fromB))));
    }
    QCOMPARE(a.statistics().staleMessagesDiscarded, 0u);
    QCOMPARE(b.statistics().staleMessagesDiscarded, 0u);
}

QTEST_GUILESS_MAIN(TestRepositionLocking)
#include "TestRepositionLocking.moc"
