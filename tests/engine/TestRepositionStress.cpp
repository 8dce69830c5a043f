// Stress on the real broker: a producer writes continuously while 1,000 random
// repositions (offsets and timestamps) hit 12 partitions, some while a second member
// joins or leaves the group. Per partition, delivery after each reposition must start at
// its target and stay contiguous until the next one: nothing lost, nothing duplicated.
// Runs once per rebalance protocol: EAGER (range) and COOPERATIVE (cooperative-sticky).

#include "EngineTestSupport.h"
#include "TestBroker.h"

#include "consumer/ConsumerSession.h"

#include <librdkafka/rdkafka.h>

#include <QDateTime>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QTest>

#include <array>
#include <atomic>
#include <thread>

using namespace groupscope;
using namespace groupscope::consumer;
using groupscope::test::TestProducer;
using kafka::TopicPartition;

namespace {
constexpr int partitionCount = 12;
constexpr int repositionCount = 1000;
} // namespace

class TestRepositionStress : public QObject {
    Q_OBJECT

private slots:
    void thousandRandomRepositionsWithRebalances_data();
    void thousandRandomRepositionsWithRebalances();

private:
    static ConsumerSessionOptions options(const QString& group, const QString& strategy) {
        ConsumerSessionOptions options;
        options.profile = test::brokerProfile();
        options.groupId = group;
        options.assignmentStrategy = strategy;
        options.bufferCapacity = 200;
        options.properties = {{QStringLiteral("fetch.wait.max.ms"), QStringLiteral("20")},
                              {QStringLiteral("session.timeout.ms"), QStringLiteral("10000")},
                              {QStringLiteral("heartbeat.interval.ms"), QStringLiteral("500")}};
        return options;
    }
};

// Checks each delivered offset against the expected next offset of its partition.
class ContiguityChecker {
public:
    void expect(const TopicPartition& partition, int64_t next) { m_expected[partition] = next; }
    void check(const std::vector<ConsumedMessage>& messages) {
        for (const ConsumedMessage& message : messages) {
            const TopicPartition partition{message.topic(), message.partition()};
            int64_t& expected = m_expected[partition];
            if (message.offset() != expected && m_violations.size() < 10)
                m_violations.append(QStringLiteral("%1: expected %2, delivered %3")
                                        .arg(partition.toString())
                                        .arg(expected)
                                        .arg(message.offset()));
            if (message.offset() != expected)
                ++m_violationCount;
            expected = message.offset() + 1;
            ++m_delivered;
        }
    }
    int64_t expected(const TopicPartition& partition) { return m_expected[partition]; }
    int violationCount() const { return m_violationCount; }
    QString violations() const { return m_violations.join(QStringLiteral("; ")); }
    int64_t delivered() const { return m_delivered; }

private:
    std::map<TopicPartition, int64_t> m_expected;
    QStringList m_violations;
    int m_violationCount = 0;
    int64_t m_delivered = 0;
};

void TestRepositionStress::thousandRandomRepositionsWithRebalances_data() {
    QTest::addColumn<QString>("strategy");
    QTest::newRow("eager") << QStringLiteral("range");
    QTest::newRow("cooperative") << QStringLiteral("cooperative-sticky");
}

void TestRepositionStress::thousandRandomRepositionsWithRebalances() {
    QFETCH(QString, strategy);
    QString why;
    const QString bootstrap = test::bootstrapServers(&why);
    if (bootstrap.isEmpty())
        QSKIP(qPrintable(why));
    const QString topic = test::uniqueName(QStringLiteral("stress"));
    const QString group = test::uniqueName(QStringLiteral("group"));
    QVERIFY(test::createTopic(topic, partitionCount));
    const int64_t startedAt = QDateTime::currentMSecsSinceEpoch();

    // The producer keeps writing to every partition until the end of the run.
    auto producer = TestProducer::createFor(bootstrap);
    QVERIFY(producer);
    std::atomic<bool> producing{true};
    std::atomic<bool> producerFailed{false};
    std::array<std::atomic<int64_t>, partitionCount> written{}; // acknowledged by the broker
    std::jthread writer([&] {
        while (producing)
            for (int p = 0; p < partitionCount && producing; ++p) {
                if (producer->produce(topic, p, 20))
                    written[size_t(p)] += 20;
                else
                    producerFailed = true;
            }
    });
    auto stopProducer = qScopeGuard([&] { producing = false; });

    auto created = ConsumerSession::create(options(group, strategy));
    QVERIFY(created);
    ConsumerSession& session = *created.value();
    QVERIFY(session.subscribe({topic}));
    QVERIFY(test::waitFor([&] { return session.assignment().size() == partitionCount; }));

    ContiguityChecker checker;
    for (int p = 0; p < partitionCount; ++p)
        checker.expect({topic, p}, 0); // a new group starts at the log start
    std::unique_ptr<ConsumerSession> otherMember;
    QRandomGenerator random(20240601);
    int succeeded = 0, failed = 0, commitsHeld = 0;
    // Bounded: a run takes about 25 s; one that has not finished in 40 s fails below.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(40);

    for (int i = 0; i < repositionCount && std::chrono::steady_clock::now() < deadline; ++i) {
        // A second member joins and leaves now and then: the group rebalances while the
        // repositions go on.
        if (i == 200 || i == 600)
            if (auto member = ConsumerSession::create(options(group, strategy)); member) {
                otherMember = std::move(member.value());
                otherMember->subscribe({topic});
            }
        if (i == 450 || i == 850)
            otherMember.reset();

        session.waitForMessages(std::chrono::milliseconds(10));
        checker.check(session.takeAll(5000));

        const QList<TopicPartition> assigned = session.assignment();
        if (assigned.isEmpty())
            continue;
        RepositionRequest request;
        request.commit = random.bounded(2) == 0;
        const int partitionsToMove = 1 + int(random.bounded(3));
        for (int k = 0; k < partitionsToMove; ++k) {
            const TopicPartition partition = assigned[random.bounded(int(assigned.size()))];
            if (random.bounded(2) == 0) {
                // Within what the producer has written: a target past the log end is out
                // of range, and recovering from that (to the log start) is another test's.
                const int64_t highest =
                    std::max<int64_t>(1, std::min<int64_t>(checker.expected(partition) + 50,
                                                           written[size_t(partition.partition)]));
                request.targets.insert(
                    partition, RepositionTarget::offset(qint64(random.bounded(double(highest)))));
            } else {
                const int64_t now = QDateTime::currentMSecsSinceEpoch();
                request.targets.insert(
                    partition,
                    RepositionTarget::timestamp(
                        startedAt + int64_t(random.bounded(double(now - startedAt + 1)))));
            }
        }
        auto outcomes = session.reposition(request);
        QVERIFY(outcomes);
        for (const RepositionOutcome& outcome : outcomes.value()) {
            (outcome.ok() ? succeeded : failed) += 1;
            if (outcome.error.code == RD_KAFKA_RESP_ERR_REBALANCE_IN_PROGRESS)
                ++commitsHeld;
            // A failed target leaves the partition at its processed position, which the
            // checker expects anyway; a known new position is where delivery must go on.
            if (outcome.newPosition >= 0)
                checker.expect(outcome.topicPartition, outcome.newPosition);
        }
    }
    otherMember.reset();
    producing = false;
    writer.join();
    QVERIFY(!producerFailed);

    // Nothing lost at the tail: every partition is delivered up to its log end.
    QVERIFY(test::waitFor([&] { return session.assignment().size() == partitionCount; }));
    std::map<TopicPartition, int64_t> logEnd;
    for (int p = 0; p < partitionCount; ++p) {
        int64_t low = 0, high = 0;
        QCOMPARE(rd_kafka_query_watermark_offsets(producer->handle(), topic.toUtf8().constData(), p,
                                                  &low, &high, 10000),
                 RD_KAFKA_RESP_ERR_NO_ERROR);
        logEnd[{topic, p}] = high;
    }
    QVERIFY2(test::waitFor(
                 [&] {
                     checker.check(session.takeAll(10000));
                     for (const auto& [partition, end] : logEnd)
                         if (checker.expected(partition) < end)
                             return false;
                     return true;
                 },
                 std::chrono::seconds(30)),
             qPrintable(test::describe(session)));

    qInfo("%d repositions succeeded, %d failed (not assigned during a rebalance, or %d of them "
          "sought but not committed while the group rebalanced), %lld messages delivered, %llu "
          "rebalances",
          succeeded, failed, commitsHeld, (long long)checker.delivered(),
          (unsigned long long)session.statistics().rebalances);
    qInfo("lost assignments %llu, out-of-range recoveries %llu, last error: %s",
          (unsigned long long)session.statistics().lostAssignments,
          (unsigned long long)session.statistics().outOfRangeRecoveries,
          qPrintable(session.statistics().lastError.toString()));
    QVERIFY2(checker.violationCount() == 0, qPrintable(checker.violations()));
    QVERIFY(succeeded >= repositionCount); // at least one partition per reposition
    QVERIFY(session.statistics().rebalances >= 3);
    QCOMPARE(session.statistics().staleMessagesDiscarded, 0u);
    QCOMPARE(session.statistics().partitionsLocked, 0);
    QCOMPARE(session.statistics().lostAssignments, 0u);
}

QTEST_GUILESS_MAIN(TestRepositionStress)
#include "TestRepositionStress.moc"
