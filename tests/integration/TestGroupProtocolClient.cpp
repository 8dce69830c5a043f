// Groupscope's own group-coordinator client on the real broker: what it lists and
// describes equals what Kafka's own tool and python3-kafka (independent clients) wrote and
// show, consumer-protocol groups come with their epochs, and describing many groups costs
// a fixed number of requests, not a number per group (the request bound of issue 16).
#include "GroupMembers.h"
#include "TestBroker.h"

#include "kafka/GroupProtocolClient.h"
#include "kafka/protocol/BrokerConnection.h"

#include <QMutex>
#include <QTest>

#include <memory>

using namespace groupscope;
using namespace groupscope::kafka;

namespace {

// QVERIFY2 evaluates its message even when the check passes: the error only if there is one.
template <typename T> QString failureOf(const groupscope::kafka::Result<T>& result) {
    return result.ok() ? QString() : result.error().message;
}

// Counts the requests every BrokerConnection sends, by API key, while it lives.
class RequestCounter {
public:
    RequestCounter() {
        protocol::BrokerConnection::setRequestObserver(
            [this](protocol::ApiKey api, const QString&) {
                QMutexLocker lock(&m_mutex);
                ++m_counts[int(api)];
            });
    }
    ~RequestCounter() { protocol::BrokerConnection::setRequestObserver({}); }
    int count(protocol::ApiKey api) {
        QMutexLocker lock(&m_mutex);
        return m_counts.value(int(api));
    }
    int total() {
        QMutexLocker lock(&m_mutex);
        int sum = 0;
        for (int value : std::as_const(m_counts))
            sum += value;
        return sum;
    }

private:
    QMutex m_mutex;
    QHash<int, int> m_counts;
};

std::unique_ptr<GroupProtocolClient> makeClient() {
    auto client = GroupProtocolClient::create(test::brokerProfile(), std::chrono::seconds(30));
    if (!client)
        qFatal("cannot create the group protocol client: %s", qPrintable(failureOf(client)));
    return std::move(client).value();
}

} // namespace

class TestGroupProtocolClient : public QObject {
    Q_OBJECT

    QString m_topic;
    QStringList m_classicGroups;

private slots:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral("protocol::Struct"))); }

    void initTestCase() {
        SKIP_WITHOUT_TEST_BROKER();
        m_topic = test::uniqueName(QStringLiteral("protocol-client"));
        QVERIFY(test::createTopic(m_topic, 4));
        QVERIFY(test::produce(m_topic, 40));
        // Thirty groups committing on the topic, with python3-kafka.
        for (int i = 0; i < 30; ++i) {
            const QString group = test::uniqueName(QStringLiteral("protocol-client-g%1").arg(i));
            QVERIFY(test::commitOffsets(group, m_topic, {i % 10, 1, 2, 3}));
            m_classicGroups.append(group);
        }
    }

    void listsWhatKafkasToolLists() {
        auto client = makeClient();
        const Result<QList<GroupListing>> listed = client->listGroups();
        QVERIFY2(listed.ok(), qPrintable(failureOf(listed)));
        const test::ProcessResult oracle = test::kafkaConsumerGroups({QStringLiteral("--list")});
        QVERIFY2(oracle.ok(), oracle.err.constData());
        QStringList expected;
        for (const QByteArray& line : oracle.out.split('\n'))
            if (line.startsWith("protocol-client-g"))
                expected.append(QString::fromUtf8(line.trimmed()));
        QStringList ours;
        for (const GroupListing& group : listed.value()) {
            if (!group.groupId.startsWith(u"protocol-client-g"))
                continue;
            ours.append(group.groupId);
            QCOMPARE(group.type, GroupType::Classic);
            QCOMPARE(group.state, GroupState::Empty);
            QVERIFY(group.isSimpleConsumerGroup); // commits only: no protocol type
        }
        expected.sort();
        ours.sort();
        QCOMPARE(ours, expected);
        for (const QString& group : std::as_const(m_classicGroups))
            QVERIFY2(ours.contains(group), qPrintable(group));
    }

    void describesManyGroupsWithAFixedNumberOfRequests() {
        auto client = makeClient();
        QVERIFY(client->listGroups().ok()); // types known, as after the monitor's listing
        RequestCounter counter;
        const Result<QList<GroupDescription>> described = client->describeGroups(m_classicGroups);
        QVERIFY2(described.ok(), qPrintable(failureOf(described)));
        QCOMPARE(described.value().size(), m_classicGroups.size());
        for (const GroupDescription& group : described.value()) {
            QVERIFY2(!group.error, qPrintable(group.error->message));
            QCOMPARE(group.state, GroupState::Empty);
            QVERIFY(group.coordinator.id >= 0);
        }
        const Result<QHash<QString, QList<CommittedOffset>>> offsets =
            client->committedOffsets(m_classicGroups);
        QVERIFY2(offsets.ok(), qPrintable(failureOf(offsets)));
        for (int i = 0; i < m_classicGroups.size(); ++i) {
            const QList<CommittedOffset> committed = offsets.value().value(m_classicGroups[i]);
            QCOMPARE(committed.size(), 4);
            QCOMPARE(committed[0].topicPartition, TopicPartition(m_topic, 0));
            QCOMPARE(committed[0].offset, int64_t(i % 10));
            QCOMPARE(committed[3].offset, int64_t(3));
        }
        // One broker in the test bed: one coordinator. The bound: one FindCoordinator for
        // all groups, one DescribeGroups and one OffsetFetch per coordinator (30 groups, not
        // 30 requests each).
        QCOMPARE(counter.count(protocol::ApiKey::FindCoordinator), 1);
        QCOMPARE(counter.count(protocol::ApiKey::DescribeGroups), 1);
        QCOMPARE(counter.count(protocol::ApiKey::OffsetFetch), 1);
        const int afterFirst = counter.total();
        // A second refresh finds the coordinators cached.
        QVERIFY(client->describeGroups(m_classicGroups).ok());
        QVERIFY(client->committedOffsets(m_classicGroups).ok());
        QCOMPARE(counter.total() - afterFirst, 2);
    }

    void consumerProtocolGroupsHaveTheirEpochs() {
        const QString group = test::uniqueName(QStringLiteral("protocol-client-kip848"));
        test::ConsumerProtocolMember member(m_topic, group, QStringLiteral("protocol-client-c1"));
        QVERIFY2(member.waitUntilAssigned(4), "the Java member never owned the 4 partitions");
        auto client = makeClient();
        const Result<QList<GroupDescription>> described = client->describeGroups({group});
        QVERIFY2(described.ok(), qPrintable(failureOf(described)));
        const GroupDescription& description = described.value().front();
        QCOMPARE(description.type, GroupType::Consumer);
        QCOMPARE(description.state, GroupState::Stable);
        QVERIFY(description.groupEpoch.value_or(-1) >= 1);
        QCOMPARE(description.assignmentEpoch, description.groupEpoch);
        QCOMPARE(description.members.size(), 1);
        const MemberDescription& owner = description.members.front();
        QCOMPARE(owner.clientId, QStringLiteral("protocol-client-c1"));
        QCOMPARE(owner.assignment.size(), 4);
        QCOMPARE(owner.targetAssignment.value_or(QList<TopicPartition>()), owner.assignment);
        QCOMPARE(owner.memberEpoch, description.assignmentEpoch);
        QVERIFY(!owner.isReconciling());
    }

    // A group named twice (the CLI's delete takes its --group options as given) is described
    // twice, in place: not once and then as a blank group.
    void aGroupAskedForTwiceIsDescribedTwice() {
        auto client = makeClient();
        const QStringList asked{m_classicGroups[0], m_classicGroups[1], m_classicGroups[0]};
        const Result<QList<GroupDescription>> described = client->describeGroups(asked);
        QVERIFY2(described.ok(), qPrintable(failureOf(described)));
        QCOMPARE(described.value().size(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(described.value()[i].groupId, asked[i]);
            QVERIFY2(!described.value()[i].error, qPrintable(described.value()[i].error->message));
            QCOMPARE(described.value()[i].state, GroupState::Empty);
        }
    }

    void aGroupThatDoesNotExistIsDead() {
        auto client = makeClient();
        const QString missing = test::uniqueName(QStringLiteral("protocol-client-missing"));
        const Result<QList<GroupDescription>> described = client->describeGroups({missing});
        QVERIFY2(described.ok(), qPrintable(failureOf(described)));
        QCOMPARE(described.value().front().state, GroupState::Dead);
        QVERIFY(described.value().front().members.isEmpty());
    }

    void aBrokerThatNeverAnswersFailsWithinTheDeadline() {
        test::SilentListener silent;
        ConnectionProfile profile;
        profile.bootstrapServers = silent.address();
        auto client = GroupProtocolClient::create(profile, std::chrono::milliseconds(1500));
        QVERIFY(client.ok());
        QElapsedTimer clock;
        clock.start();
        const Result<QList<GroupListing>> listed = client.value()->listGroups();
        QVERIFY(!listed.ok());
        QVERIFY2(listed.error().message.contains(silent.address()), qPrintable(failureOf(listed)));
        QVERIFY(clock.elapsed() < 5000);
    }
};

QTEST_GUILESS_MAIN(TestGroupProtocolClient)
#include "TestGroupProtocolClient.moc"
