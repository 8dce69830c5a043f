// Groupscope's own group-coordinator client against a broker that misbehaves (issue 16,
// "Bad input and faults"): the real test broker behind test::FaultyProxy, which cuts
// answers off mid-response, holds them back past the client's timeout, or answers with an
// error for one group. A fault costs only the groups whose answer it hit: the call returns
// within its deadline, the others are fully described, the failure names the broker and
// what was being done, and the next call on the same client works again.
#include "FaultyProxy.h"
#include "GroupMembers.h"
#include "TestBroker.h"

#include "kafka/GroupProtocolClient.h"

#include <librdkafka/rdkafka.h>

#include <QElapsedTimer>
#include <QTest>

#include <atomic>
#include <memory>

using namespace groupscope;
using namespace groupscope::kafka;
using protocol::ApiKey;
using Fault = test::FaultyProxy::Fault;
using Mode = test::FaultyProxy::Mode;
using std::chrono::milliseconds;

namespace {

template <typename T> QString failureOf(const Result<T>& result) {
    return result.ok() ? QString() : result.error().message;
}

const GroupDescription* find(const QList<GroupDescription>& groups, const QString& groupId) {
    for (const GroupDescription& group : groups) {
        if (group.groupId == groupId)
            return &group;
    }
    return nullptr;
}

// A group described in full: no error, the state python3-kafka's commits left it in.
QString describedInFull(const QList<GroupDescription>& groups, const QString& groupId,
                        GroupType type = GroupType::Classic) {
    const GroupDescription* group = find(groups, groupId);
    if (!group)
        return groupId + QStringLiteral(" is missing");
    if (group->error)
        return groupId + QStringLiteral(" failed: ") + group->error->message;
    if (group->type != type || group->state != GroupState::Empty)
        return groupId + QStringLiteral(" is %1 %2")
                             .arg(groupTypeName(group->type), groupStateName(group->state));
    return {};
}

} // namespace

class TestGroupProtocolFaults : public QObject {
    Q_OBJECT

    std::unique_ptr<test::FaultyProxy> m_proxy;
    QString m_topic;
    QStringList m_groups;    // classic groups, each with commits on the four partitions
    QString m_consumerGroup; // a consumer-protocol group (KIP-848) whose member left

    std::unique_ptr<GroupProtocolClient> makeClient(milliseconds timeout) {
        ConnectionProfile profile = test::brokerProfile();
        profile.bootstrapServers = m_proxy->address();
        auto client = GroupProtocolClient::create(profile, timeout);
        if (!client)
            qFatal("cannot create the group protocol client: %s", qPrintable(failureOf(client)));
        return std::move(client).value();
    }

    // A client that has listed the groups (so it knows their types and coordinators'
    // addresses) and described them once through the proxy.
    std::unique_ptr<GroupProtocolClient> primedClient(milliseconds timeout) {
        auto client = makeClient(timeout);
        const Result<QList<GroupDescription>> described = client->describeGroups(m_groups);
        if (!described)
            qFatal("describing through the proxy failed: %s", qPrintable(failureOf(described)));
        return client;
    }

    QString describesAllInFull(GroupProtocolClient& client) {
        const Result<QList<GroupDescription>> described = client.describeGroups(m_groups);
        if (!described)
            return failureOf(described);
        for (const QString& group : std::as_const(m_groups)) {
            if (QString why = describedInFull(described.value(), group); !why.isEmpty())
                return why;
        }
        return {};
    }

private slots:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral("protocol::Struct"))); }

    void initTestCase() {
        QString why;
        const QString bootstrap = test::bootstrapServers(&why);
        if (bootstrap.isEmpty())
            QSKIP(qPrintable(why));
        m_proxy = std::make_unique<test::FaultyProxy>(bootstrap.split(u',').front());
        QVERIFY(m_proxy->start());
        m_topic = test::uniqueName(QStringLiteral("protocol-faults"));
        QVERIFY(test::createTopic(m_topic, 4));
        for (int i = 0; i < 3; ++i) {
            const QString group = test::uniqueName(QStringLiteral("protocol-faults-g%1").arg(i));
            QVERIFY(test::commitOffsets(group, m_topic, {10 + i, 20 + i, 30 + i, 40 + i}));
            m_groups.append(group);
        }
        // Kafka's own Java consumer makes a consumer-protocol group; it stays, Empty, after
        // the member left.
        const QString consumerGroup = test::uniqueName(QStringLiteral("protocol-faults-kip848"));
        {
            test::ConsumerProtocolMember member(m_topic, consumerGroup,
                                                QStringLiteral("protocol-faults-c1"));
            QVERIFY2(member.waitUntilAssigned(4), "the Java member never owned the 4 partitions");
            QVERIFY(member.leave());
        }
        m_consumerGroup = consumerGroup;
    }

    void cleanup() {
        m_proxy->setFaultObserver({});
        m_proxy->passThrough();
    }

    void theProxyRewritesTheBrokersAddress() {
        auto client = makeClient(std::chrono::seconds(30));
        const Result<QList<GroupDescription>> described = client->describeGroups(m_groups);
        QVERIFY2(described.ok(), qPrintable(failureOf(described)));
        for (const GroupDescription& group : described.value()) {
            QVERIFY2(!group.error, qPrintable(group.error->message));
            // The coordinator is the proxy: every request went through it.
            QCOMPARE(
                QStringLiteral("%1:%2").arg(group.coordinator.host).arg(group.coordinator.port),
                m_proxy->address());
        }
    }

    void aConnectionClosedMidDescribe_data() {
        QTest::addColumn<int>("bytesSent");
        QTest::newRow("nothing of the answer") << 0;
        QTest::newRow("half the size prefix") << 2;
        QTest::newRow("the size prefix") << 4;
        QTest::newRow("into the body") << 12;
    }

    void aConnectionClosedMidDescribe() {
        QFETCH(int, bytesSent);
        const milliseconds timeout(20000);
        auto client = primedClient(timeout);
        const int connections = m_proxy->connectionsAccepted();
        m_proxy->setFault(Fault{.mode = Mode::CloseMidResponse,
                                .api = ApiKey::DescribeGroups,
                                .closeAfterBytes = bytesSent,
                                .times = 1});
        QElapsedTimer clock;
        clock.start();
        const Result<QList<GroupDescription>> described = client->describeGroups(m_groups);
        QVERIFY2(clock.elapsed() < timeout.count() / 2,
                 qPrintable(QStringLiteral("took %1 ms").arg(clock.elapsed())));
        QCOMPARE(m_proxy->faultsApplied(), 1);
        // The groups were in that one answer: each failed, naming the broker and the request.
        QVERIFY2(described.ok(), qPrintable(failureOf(described)));
        for (const QString& group : std::as_const(m_groups)) {
            const GroupDescription* failed = find(described.value(), group);
            QVERIFY(failed);
            QVERIFY2(failed->error, qPrintable(group + QStringLiteral(" did not fail")));
            QCOMPARE(failed->error->code, RD_KAFKA_RESP_ERR__TRANSPORT);
            QVERIFY2(failed->error->message.contains(m_proxy->address()),
                     qPrintable(failed->error->message));
            QVERIFY2(failed->error->message.contains(QStringLiteral("DescribeGroups")),
                     qPrintable(failed->error->message));
        }
        // The same client connects again and describes them all.
        const QString again = describesAllInFull(*client);
        QVERIFY2(again.isEmpty(), qPrintable(again));
        QVERIFY(m_proxy->connectionsAccepted() > connections);
    }

    void aConnectionClosedMidOffsetFetch() {
        const milliseconds timeout(20000);
        auto client = primedClient(timeout);
        QVERIFY(client->committedOffsets(m_groups).ok());
        m_proxy->setFault(Fault{.mode = Mode::CloseMidResponse,
                                .api = ApiKey::OffsetFetch,
                                .closeAfterBytes = 20,
                                .times = 1});
        QElapsedTimer clock;
        clock.start();
        const auto offsets = client->committedOffsets(m_groups);
        QVERIFY(clock.elapsed() < timeout.count() / 2);
        QCOMPARE(m_proxy->faultsApplied(), 1);
        // One OffsetFetch carried every group: every group failed, so the call did.
        QVERIFY(!offsets.ok());
        QVERIFY2(offsets.error().message.contains(m_proxy->address()),
                 qPrintable(failureOf(offsets)));
        QVERIFY2(offsets.error().message.contains(QStringLiteral("OffsetFetch")),
                 qPrintable(failureOf(offsets)));
        QVERIFY2(offsets.error().message.contains(QStringLiteral("committed offsets of group")),
                 qPrintable(failureOf(offsets)));

        const auto again = client->committedOffsets(m_groups);
        QVERIFY2(again.ok(), qPrintable(failureOf(again)));
        for (int i = 0; i < m_groups.size(); ++i) {
            const QList<CommittedOffset> committed = again.value().value(m_groups[i]);
            QCOMPARE(committed.size(), 4);
            QCOMPARE(committed.front().offset, 10 + i);
        }
    }

    void aSlowBrokerFailsWithinTheTimeout() {
        const milliseconds timeout(1500);
        auto client = primedClient(timeout);
        m_proxy->setFault(Fault{.mode = Mode::DelayResponse,
                                .api = ApiKey::DescribeGroups,
                                .delay = milliseconds(6000),
                                .times = 1});
        QElapsedTimer clock;
        clock.start();
        const Result<QList<GroupDescription>> described = client->describeGroups(m_groups);
        const qint64 elapsed = clock.elapsed();
        QVERIFY2(elapsed >= timeout.count() - 100 && elapsed < timeout.count() + 1000,
                 qPrintable(QStringLiteral("took %1 ms").arg(elapsed)));
        QCOMPARE(m_proxy->faultsApplied(), 1);
        QVERIFY2(described.ok(), qPrintable(failureOf(described)));
        for (const GroupDescription& group : described.value()) {
            QCOMPARE(group.error->code, RD_KAFKA_RESP_ERR__TIMED_OUT);
            QVERIFY2(group.error->message.contains(m_proxy->address()),
                     qPrintable(group.error->message));
        }
        // The late answer belongs to the abandoned connection; the next call gets its own.
        const QString again = describesAllInFull(*client);
        QVERIFY2(again.isEmpty(), qPrintable(again));
    }

    void theCancelFlagIsHonouredWithinAboutAHundredMs() {
        auto client = primedClient(std::chrono::seconds(30));
        std::atomic<bool> cancelled{false};
        std::atomic<int64_t> cancelledAt{0};
        client->setCancelFlag(&cancelled);
        // Cancel while the client waits for the held-back answer.
        m_proxy->setFaultObserver([&](ApiKey) {
            cancelledAt = std::chrono::steady_clock::now().time_since_epoch().count();
            cancelled = true;
        });
        m_proxy->setFault(Fault{.mode = Mode::DelayResponse,
                                .api = ApiKey::DescribeGroups,
                                .delay = milliseconds(10000),
                                .times = 1});
        const Result<QList<GroupDescription>> described = client->describeGroups(m_groups);
        const auto returnedAt = std::chrono::steady_clock::now().time_since_epoch();
        QVERIFY(cancelled);
        const auto afterCancel = std::chrono::duration_cast<milliseconds>(
            returnedAt - std::chrono::steady_clock::duration(cancelledAt.load()));
        qInfo("returned %lld ms after the cancel flag was set",
              static_cast<long long>(afterCancel.count()));
        // The flag is looked at every 100 ms; the rest is margin for two busy cores.
        QVERIFY2(afterCancel < milliseconds(400),
                 qPrintable(QStringLiteral("%1 ms").arg(afterCancel.count())));
        QVERIFY2(described.ok(), qPrintable(failureOf(described)));
        for (const GroupDescription& group : described.value())
            QCOMPARE(group.error->code, RD_KAFKA_RESP_ERR__INTR);

        // Not cancelled any more: the same client works, on a connection in step.
        cancelled = false;
        m_proxy->setFaultObserver({});
        m_proxy->passThrough();
        const QString again = describesAllInFull(*client);
        QVERIFY2(again.isEmpty(), qPrintable(again));
    }

    void anInvalidGroupIdCostsOnlyThatGroup() {
        // The broker answers for an empty group id on its own (Kafka 4.4 as a group that does
        // not exist); the groups asked with it are described as ever.
        auto client = primedClient(std::chrono::seconds(30));
        QStringList groups = m_groups;
        groups.insert(1, QString());
        const Result<QList<GroupDescription>> described = client->describeGroups(groups);
        QVERIFY2(described.ok(), qPrintable(failureOf(described)));
        QCOMPARE(described.value().size(), groups.size());
        for (const QString& group : std::as_const(m_groups)) {
            const QString why = describedInFull(described.value(), group);
            QVERIFY2(why.isEmpty(), qPrintable(why));
        }
        const GroupDescription* invalid = find(described.value(), QString());
        QVERIFY(invalid);
        QVERIFY2(invalid->error || invalid->state == GroupState::Dead,
                 qPrintable(groupStateName(invalid->state)));
    }

    // A consumer-protocol group is described with ConsumerGroupDescribe, the classic ones
    // with DescribeGroups, both on the one coordinator: the answer cut off costs the groups
    // it was for, and the other request still goes out (on a new connection).
    void aCutAnswerCostsOnlyTheGroupsOfThatRequest_data() {
        QTest::addColumn<int>("api");
        QTest::newRow("DescribeGroups") << int(ApiKey::DescribeGroups);
        QTest::newRow("ConsumerGroupDescribe") << int(ApiKey::ConsumerGroupDescribe);
    }

    void aCutAnswerCostsOnlyTheGroupsOfThatRequest() {
        QFETCH(int, api);
        if (m_consumerGroup.isEmpty())
            QSKIP("no consumer-protocol group (see initTestCase)");
        auto client = primedClient(std::chrono::seconds(20));
        const QStringList groups = m_groups + QStringList{m_consumerGroup};
        QVERIFY(client->describeGroups(groups).ok());
        m_proxy->setFault(Fault{
            .mode = Mode::CloseMidResponse, .api = ApiKey(api), .closeAfterBytes = 12, .times = 1});
        const Result<QList<GroupDescription>> described = client->describeGroups(groups);
        QVERIFY2(described.ok(), qPrintable(failureOf(described)));
        QCOMPARE(m_proxy->faultsApplied(), 1);
        const bool classicCut = ApiKey(api) == ApiKey::DescribeGroups;
        for (const QString& group : groups) {
            const bool classic = group != m_consumerGroup;
            const GroupDescription* answer = find(described.value(), group);
            QVERIFY(answer);
            if (classic == classicCut) {
                QCOMPARE(answer->error->code, RD_KAFKA_RESP_ERR__TRANSPORT);
                QVERIFY2(answer->error->message.contains(QLatin1String(
                             classicCut ? "DescribeGroups" : "ConsumerGroupDescribe")),
                         qPrintable(answer->error->message));
            } else {
                const QString why = describedInFull(
                    described.value(), group, classic ? GroupType::Classic : GroupType::Consumer);
                QVERIFY2(why.isEmpty(), qPrintable(why));
            }
        }
    }

    void aGroupErrorInTheAnswerCostsOnlyThatGroup_data() {
        QTest::addColumn<int>("api");
        QTest::newRow("DescribeGroups") << int(ApiKey::DescribeGroups);
        QTest::newRow("FindCoordinator") << int(ApiKey::FindCoordinator);
    }

    void aGroupErrorInTheAnswerCostsOnlyThatGroup() {
        QFETCH(int, api);
        auto client = makeClient(std::chrono::seconds(30));
        const QString refused = m_groups[1];
        m_proxy->setFault(Fault{.mode = Mode::GroupError,
                                .api = ApiKey(api),
                                .groupId = refused,
                                .errorCode = RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED,
                                .errorMessage = QStringLiteral("not for you")});
        const Result<QList<GroupDescription>> described = client->describeGroups(m_groups);
        QVERIFY2(described.ok(), qPrintable(failureOf(described)));
        QCOMPARE(m_proxy->faultsApplied(), 1);
        for (const QString& group : std::as_const(m_groups)) {
            if (group == refused)
                continue;
            const QString why = describedInFull(described.value(), group);
            QVERIFY2(why.isEmpty(), qPrintable(why));
        }
        const GroupDescription* failed = find(described.value(), refused);
        QVERIFY(failed);
        QCOMPARE(failed->error->code, RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED);
        QVERIFY2(failed->error->message.contains(refused), qPrintable(failed->error->message));
        QVERIFY2(failed->error->message.contains(QStringLiteral("not for you")),
                 qPrintable(failed->error->message));
    }

    void aGroupErrorInOffsetFetchCostsOnlyThatGroup() {
        auto client = makeClient(std::chrono::seconds(30));
        const QString refused = m_groups[0];
        m_proxy->setFault(Fault{.mode = Mode::GroupError,
                                .api = ApiKey::OffsetFetch,
                                .groupId = refused,
                                .errorCode = RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED});
        const auto offsets = client->committedOffsets(m_groups);
        QVERIFY2(offsets.ok(), qPrintable(failureOf(offsets)));
        QCOMPARE(m_proxy->faultsApplied(), 1);
        QVERIFY(!offsets.value().contains(refused));
        for (int i = 1; i < m_groups.size(); ++i)
            QCOMPARE(offsets.value().value(m_groups[i]).size(), 4);
    }

    void aCoordinatorThatMovesOnceIsAskedAgain() {
        auto client = makeClient(std::chrono::seconds(30));
        m_proxy->setFault(Fault{.mode = Mode::GroupError,
                                .api = ApiKey::DescribeGroups,
                                .groupId = m_groups[2],
                                .errorCode = RD_KAFKA_RESP_ERR_NOT_COORDINATOR,
                                .times = 1});
        const QString all = describesAllInFull(*client);
        QVERIFY2(all.isEmpty(), qPrintable(all));
        QCOMPARE(m_proxy->faultsApplied(), 1);
    }
};

QTEST_GUILESS_MAIN(TestGroupProtocolFaults)
#include "TestGroupProtocolFaults.moc"
