// Seed bug 2: a message already queued when offsets were reset was consumed afterwards and
// set the position back, silently undoing the reset. Fills the buffers, repositions
// backwards and forwards, and checks that the first message delivered is the target, that
// nothing from before the reposition appears, and that neither the position nor the
// committed offset is overwritten by a stale message.

#include "EngineTestSupport.h"
#include "TestBroker.h"

#include "consumer/ConsumerSession.h"

#include <QTest>

using namespace groupscope;
using namespace groupscope::consumer;
using groupscope::test::DeliveryLog;
using groupscope::test::TestProducer;
using kafka::TopicPartition;

class TestStaleMessages : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void backwardsAndForwardsWithFullBuffers();
    void staleMessagesNeverMoveTheCommit();

private:
    int64_t committedOffset(const TopicPartition& partition);
    std::unique_ptr<ConsumerSession> startFullSession(int partitions);

    std::unique_ptr<TestProducer> m_cluster;
    QString m_topic;
    QString m_group;
    static constexpr int perPartition = 500;
    static constexpr size_t capacity = 50;
};

void TestStaleMessages::init() {
    m_cluster = TestProducer::createMock(1);
    QVERIFY(m_cluster);
    m_topic = test::uniqueName(QStringLiteral("stale"));
    m_group = test::uniqueName(QStringLiteral("group"));
    QVERIFY(m_cluster->createMockTopic(m_topic, 2));
    for (int p = 0; p < 2; ++p)
        QVERIFY(m_cluster->produce(m_topic, p, perPartition));
}

void TestStaleMessages::cleanup() {
    m_cluster.reset();
}

int64_t TestStaleMessages::committedOffset(const TopicPartition& partition) {
    return test::committedOffset(m_cluster->bootstrapServers(), m_group, partition);
}

std::unique_ptr<ConsumerSession> TestStaleMessages::startFullSession(int partitions) {
    ConsumerSessionOptions options;
    options.profile.bootstrapServers = m_cluster->bootstrapServers();
    options.groupId = m_group;
    options.bufferCapacity = capacity;
    options.operationTimeout = std::chrono::seconds(5);
    options.properties = {{QStringLiteral("fetch.wait.max.ms"), QStringLiteral("50")}};
    auto created = ConsumerSession::create(options);
    if (!created)
        return nullptr;
    QMap<TopicPartition, RepositionTarget> targets;
    for (int p = 0; p < partitions; ++p)
        targets.insert({m_topic, p}, RepositionTarget::earliest());
    if (!created.value()->assign(targets))
        return nullptr;
    // Every buffer full and its partition paused: the stale messages are in place.
    if (!test::waitFor(
            [&] { return created.value()->statistics().partitionsPaused == partitions; }))
        return nullptr;
    return std::move(created.value());
}

void TestStaleMessages::backwardsAndForwardsWithFullBuffers() {
    auto session = startFullSession(2);
    QVERIFY(session);
    const TopicPartition p0{m_topic, 0}, p1{m_topic, 1};
    DeliveryLog before;
    before.add(session->take(p0, 10));
    QVERIFY(test::isContiguousRange(before.offsets(p0), 0, 9));
    QCOMPARE(session->position(p0), 10);

    // Backwards, with commit: the buffered 10..49 are stale now.
    RepositionRequest backwards;
    backwards.targets = {{p0, RepositionTarget::offset(5)}};
    backwards.commit = true;
    auto outcomes = session->reposition(backwards);
    QVERIFY(outcomes);
    QCOMPARE(outcomes.value().size(), 1);
    const RepositionOutcome outcome = outcomes.value().first();
    QVERIFY2(outcome.ok(), qPrintable(outcome.error.toString()));
    QCOMPARE(outcome.newPosition, 5);
    QCOMPARE(outcome.messagesDropped, int64_t(capacity - 10));
    QVERIFY(outcome.committed);
    QCOMPARE(session->position(p0), 5);
    QCOMPARE(committedOffset(p0), 5);

    DeliveryLog log;
    QVERIFY(test::drainUntil(*session, log, [&] { return log.count(p0) >= 100; }));
    QCOMPARE(log.offsets(p0).front(), 5);
    QVERIFY2(
        test::isContiguousRange(
            std::vector<int64_t>(log.offsets(p0).begin(), log.offsets(p0).begin() + 100), 5, 104),
        qPrintable(test::describe(log.offsets(p0))));

    // Forwards, past everything buffered and fetched so far.
    QVERIFY(test::waitFor([&] { return session->statistics().partitionsPaused >= 1; }));
    RepositionRequest forwards;
    forwards.targets = {{p0, RepositionTarget::offset(400)}};
    forwards.commit = true;
    outcomes = session->reposition(forwards);
    QVERIFY(outcomes);
    QCOMPARE(outcomes.value().first().newPosition, 400);
    QCOMPARE(session->position(p0), 400);
    QCOMPARE(committedOffset(p0), 400);
    const size_t deliveredBefore = log.count(p0);
    QVERIFY(test::drainUntil(*session, log, [&] {
        return log.count(p0) >= deliveredBefore + perPartition - 400 &&
               log.count(p1) >= perPartition;
    }));
    const std::vector<int64_t> afterForwards(log.offsets(p0).begin() + qsizetype(deliveredBefore),
                                             log.offsets(p0).end());
    QVERIFY2(test::isContiguousRange(afterForwards, 400, perPartition - 1),
             qPrintable(test::describe(afterForwards)));
    // The other partition was never touched: all of it, once, in order.
    QVERIFY(test::isContiguousRange(log.offsets(p1), 0, perPartition - 1));
    QCOMPARE(session->position(p0), perPartition);
    QCOMPARE(session->statistics().staleMessagesDiscarded, 0u);
}

void TestStaleMessages::staleMessagesNeverMoveTheCommit() {
    auto session = startFullSession(1);
    QVERIFY(session);
    const TopicPartition p0{m_topic, 0};
    QCOMPARE(session->take(p0, 20).size(), size_t(20));

    // Reset to 300 and commit; a stale message (20..49 are buffered) must not change the
    // position, nor what a later commit of processed work stores.
    RepositionRequest reset;
    reset.targets = {{p0, RepositionTarget::offset(300)}};
    reset.commit = true;
    QVERIFY(session->reposition(reset));
    QCOMPARE(committedOffset(p0), 300);
    auto commit = session->commit();
    QVERIFY(commit);
    QVERIFY(commit.value().first().committed);
    QCOMPARE(committedOffset(p0), 300);
    QCOMPARE(session->position(p0), 300);

    // After taking 10 messages, the processed position is 310, not a stale 21..50.
    DeliveryLog log;
    QVERIFY(test::waitFor([&] {
        log.add(session->take(p0, 10 - log.count(p0)));
        return log.count(p0) == 10;
    }));
    QVERIFY(test::isContiguousRange(log.offsets(p0), 300, 309));
    QVERIFY(session->commit());
    QCOMPARE(committedOffset(p0), 310);
    QCOMPARE(session->position(p0), 310);

    // Reset by timestamp-free logical targets behaves the same: earliest, then latest.
    RepositionRequest earliest;
    earliest.targets = {{p0, RepositionTarget::earliest()}};
    earliest.commit = true;
    auto outcomes = session->reposition(earliest);
    QVERIFY(outcomes);
    QCOMPARE(outcomes.value().first().newPosition, 0);
    QCOMPARE(committedOffset(p0), 0);
    log.clear();
    QVERIFY(test::drainUntil(*session, log, [&] { return log.count(p0) >= 1; }));
    QCOMPARE(log.offsets(p0).front(), 0);

    RepositionRequest latest;
    latest.targets = {{p0, RepositionTarget::latest()}};
    latest.commit = true;
    outcomes = session->reposition(latest);
    QVERIFY(outcomes);
    QCOMPARE(outcomes.value().first().newPosition, perPartition);
    QCOMPARE(committedOffset(p0), perPartition);
    QVERIFY(m_cluster->produce(m_topic, 0, 5));
    log.clear();
    QVERIFY(test::drainUntil(*session, log, [&] { return log.count(p0) >= 5; }));
    QVERIFY2(test::isContiguousRange(log.offsets(p0), perPartition, perPartition + 4),
             qPrintable(test::describe(log.offsets(p0))));
    QCOMPARE(session->statistics().staleMessagesDiscarded, 0u);
}

QTEST_GUILESS_MAIN(TestStaleMessages)
#include "TestStaleMessages.moc"
