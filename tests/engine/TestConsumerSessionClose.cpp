// Closing a session leaves its group cleanly, also when other threads call in during the
// close and when members come and go in the middle of a rebalance. A close that librdkafka
// cut short used to leave the consumer half closed, and destroying it then waited for ever
// (a sandbox member stopping while its group rebalanced hung a test run that way).

#include "EngineTestSupport.h"
#include "TestBroker.h"

#include "consumer/ConsumerSession.h"

#include <QScopeGuard>
#include <QTest>

#include <future>
#include <optional>
#include <thread>

using namespace groupscope;
using namespace groupscope::consumer;
using namespace std::chrono_literals;
using groupscope::test::HoldingObserver;
using groupscope::test::TestProducer;
using kafka::TopicPartition;

class TestConsumerSessionClose : public QObject {
    Q_OBJECT

private slots:
    void callsDuringTheCloseNeitherWaitNorCutItShort();
    void membersLeavingMidRebalanceCloseCleanly();

private:
    static ConsumerSessionOptions options(const QString& bootstrap, const QString& group) {
        ConsumerSessionOptions options;
        options.profile.bootstrapServers = bootstrap;
        options.groupId = group;
        options.bufferCapacity = 60;
        options.operationTimeout = 5s;
        options.properties = {{QStringLiteral("fetch.wait.max.ms"), QStringLiteral("50")},
                              {QStringLiteral("session.timeout.ms"), QStringLiteral("6000")},
                              {QStringLiteral("heartbeat.interval.ms"), QStringLiteral("300")}};
        return options;
    }
};

void TestConsumerSessionClose::callsDuringTheCloseNeitherWaitNorCutItShort() {
    auto cluster = TestProducer::createMock(1);
    QVERIFY(cluster);
    const QString topic = test::uniqueName(QStringLiteral("close"));
    const QString group = test::uniqueName(QStringLiteral("group"));
    QVERIFY(cluster->createMockTopic(topic, 2));
    for (int partition = 0; partition < 2; ++partition)
        QVERIFY(cluster->produce(topic, partition, 20));

    auto created = ConsumerSession::create(options(cluster->bootstrapServers(), group));
    QVERIFY(created);
    ConsumerSession& session = *created.value();
    QVERIFY(session.subscribe({topic}).ok());
    const TopicPartition p0{topic, 0};
    QVERIFY(test::waitFor([&] { return session.assignment().size() == 2; }));
    QVERIFY(test::waitFor([&] { return !session.take(p0, 5).empty(); }));

    // The close revokes the assignment through the engine; hold it there, inside
    // librdkafka's close, and call in from another thread.
    HoldingObserver observer; // outlives the session's use of it
    session.setRepositionObserver(&observer);
    observer.holdAt(RepositionStep::Lock, p0);
    std::optional<kafka::Status> closed;
    std::thread closer([&] { closed = session.close(); });
    auto releaseOnExit = qScopeGuard([&] {
        observer.release();
        closer.join();
    });
    QVERIFY(observer.waitUntilHeld());
    auto commitDuringClose = std::async(std::launch::async, [&] { return session.commit(); });
    const bool answeredAtOnce = commitDuringClose.wait_for(10s) == std::future_status::ready;
    observer.release();
    closer.join();
    releaseOnExit.dismiss();

    QVERIFY2(answeredAtOnce, "a call made during the close waited for the close to end");
    const auto commit = commitDuringClose.get();
    QVERIFY(!commit);
    QVERIFY2(commit.error().message.contains(u"closing"), qPrintable(commit.error().message));
    QVERIFY(closed);
    QVERIFY2(closed->ok(), *closed ? "" : qPrintable(closed->error().toString()));
    QVERIFY2(observer.steps().contains(RepositionStep::Commit),
             "the close's revoke did not commit the processed positions");
}

void TestConsumerSessionClose::membersLeavingMidRebalanceCloseCleanly() {
    auto cluster = TestProducer::createMock(1);
    QVERIFY(cluster);
    const QString topic = test::uniqueName(QStringLiteral("churn"));
    const QString group = test::uniqueName(QStringLiteral("group"));
    QVERIFY(cluster->createMockTopic(topic, 6));
    for (int partition = 0; partition < 6; ++partition)
        QVERIFY(cluster->produce(topic, partition, 50));

    auto join = [&]() -> std::unique_ptr<ConsumerSession> {
        auto created = ConsumerSession::create(options(cluster->bootstrapServers(), group));
        if (!created || !created.value()->subscribe({topic}))
            return nullptr;
        return std::move(created.value());
    };
    std::vector<std::unique_ptr<ConsumerSession>> members;
    for (int i = 0; i < 3; ++i) {
        members.push_back(join());
        QVERIFY(members.back());
    }
    // Each round a member joins and the longest-serving one leaves at once: every close
    // lands while the group rebalances. A close must end, cleanly, within the session
    // timeout; one that never ends fails here instead of hanging the run.
    constexpr int rounds = 12;
    for (int round = 0; round < rounds; ++round) {
        members.push_back(join());
        QVERIFY(members.back());
        std::unique_ptr<ConsumerSession> leaving = std::move(members.front());
        members.erase(members.begin());
        auto closing = std::async(std::launch::async, [&leaving] { return leaving->close(); });
        QVERIFY2(closing.wait_for(20s) == std::future_status::ready,
                 qPrintable(QStringLiteral("round %1: the close did not end").arg(round)));
        const kafka::Status closed = closing.get();
        QVERIFY2(
            closed.ok(),
            closed ? ""
                   : qPrintable(
                         QStringLiteral("round %1: %2").arg(round).arg(closed.error().toString())));
        auto destroying = std::async(std::launch::async, [&leaving] { leaving.reset(); });
        QVERIFY2(
            destroying.wait_for(20s) == std::future_status::ready,
            qPrintable(
                QStringLiteral("round %1: destroying the closed session did not end").arg(round)));
    }
    // The members that stayed still share every partition between them.
    QVERIFY(test::waitFor([&] {
        int assigned = 0;
        for (const auto& member : members)
            assigned += int(member->assignment().size());
        return assigned == 6;
    }));
}

QTEST_GUILESS_MAIN(TestConsumerSessionClose)
#include "TestConsumerSessionClose.moc"
