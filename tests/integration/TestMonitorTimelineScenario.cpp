// The live monitor against a scripted rebalance scenario on the real broker. Members are
// independent clients: python3-kafka (eager, range) and kcat (librdkafka: a static member
// with group.instance.id, and a cooperative-sticky group). Two monitors watch at once: one
// reads __consumer_offsets (exact timeline), one is pointed at a topic that does not exist
// (unreadable: the polling approximation). The scenario waits on what the polling monitor
// sees, never on sleeps, so every step is seen by at least one poll.
#include "TestBroker.h"

#include "monitor/MonitorSession.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTest>

#include <memory>

using namespace groupscope;
using monitor::GroupMonitorSnapshot;
using monitor::MonitorSession;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");
constexpr int topicPartitions = 6;
constexpr std::chrono::seconds stepTimeout{60};

// A python3-kafka member: commits a distinct offset on every partition of each new
// assignment and prints each commit that succeeded; leaves (close) when stdin closes.
const char* const pythonMemberScript = R"(
import select, sys, time
from kafka import KafkaConsumer
from kafka.structs import OffsetAndMetadata
topic, group, client, base = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
c = KafkaConsumer(bootstrap_servers=BOOTSTRAP, group_id=group, client_id=client,
                  enable_auto_commit=False, auto_offset_reset='earliest',
                  session_timeout_ms=6000, heartbeat_interval_ms=1000)
# Know the topic's partitions before joining: a leader that joins without them assigns
# nothing, and rejoins once its metadata arrives (one more generation than the script made).
deadline = time.time() + 30
while not c.partitions_for_topic(topic):
    if time.time() > deadline:
        sys.exit('no metadata for ' + topic)
    c.topics()  # a metadata request: returns once the broker has answered
c.subscribe([topic])
seen = None
sequence = 0
while True:
    c.poll(timeout_ms=200, max_records=1)
    assignment = sorted(c.assignment())
    if assignment and assignment != seen:
        sequence += 1
        offsets = {tp: OffsetAndMetadata(base + sequence * 10 + tp.partition, None) for tp in assignment}
        try:
            c.commit(offsets)
            seen = assignment
            for tp, om in sorted(offsets.items()):
                print('commit %s %d %d' % (tp.topic, tp.partition, om.offset), flush=True)
        except Exception as e:
            print('commit-failed %s' % e, file=sys.stderr, flush=True)
    readable, _, _ = select.select([sys.stdin], [], [], 0)
    if readable and not sys.stdin.readline():
        break
c.close()
)";

// librdkafka 2.0.2 crashes in ListConsumerGroupOffsets when a coordinator answers
// NOT_COORDINATOR (confluentinc/librdkafka#5040), which happens on a fresh broker while
// __consumer_offsets is being created and loaded. One commit by python3-kafka (which
// retries until the coordinator is ready) makes sure the topic is loaded before any poll.
bool offsetsTopicReady(const QString& topic) {
    const auto result =
        test::runPython(QStringLiteral(R"(
from kafka import KafkaConsumer, TopicPartition
from kafka.structs import OffsetAndMetadata
c = KafkaConsumer(bootstrap_servers=BOOTSTRAP, group_id='%1', enable_auto_commit=False)
c.commit({TopicPartition('%2', 0): OffsetAndMetadata(0, None)})
c.close()
)")
                            .arg(test::uniqueName(QStringLiteral("warm-up")), topic));
    if (!result.ok())
        qWarning("warm-up commit failed: %s", result.err.constData());
    return result.ok();
}

struct Commit {
    QString topic;
    int partition = -1;
    qint64 offset = -1;
    friend bool operator<(const Commit& a, const Commit& b) {
        return std::tie(a.topic, a.partition, a.offset) < std::tie(b.topic, b.partition, b.offset);
    }
    friend bool operator==(const Commit&, const Commit&) = default;
};

QStringList sortedClientIds(const QList<kafka::MemberDescription>& members) {
    QStringList ids;
    for (const kafka::MemberDescription& member : members)
        ids.append(member.clientId);
    ids.sort();
    return ids;
}

// The client ids of a generation's members, sorted.
QStringList generationClients(const QJsonObject& generation) {
    QStringList ids;
    for (const QJsonValue& member : generation[QStringLiteral("members")].toArray())
        ids.append(member[QStringLiteral("clientId")].toString());
    ids.sort();
    return ids;
}
QStringList generationClients(const timeline::Generation& generation) {
    QStringList ids;
    for (const timeline::GenerationMember& member : generation.members)
        ids.append(member.clientId);
    ids.sort();
    return ids;
}

} // namespace

class TestMonitorTimelineScenario : public QObject {
    Q_OBJECT

    QString m_topic;
    std::unique_ptr<MonitorSession> m_exact;
    std::unique_ptr<MonitorSession> m_polling;
    QHash<QString, std::shared_ptr<QProcess>> m_members; // by client id
    QList<Commit> m_madeCommits;

    std::unique_ptr<MonitorSession> openMonitor(const QStringList& groups, bool readable) {
        MonitorSession::Options options;
        options.profile = test::brokerProfile();
        options.groups = groups;
        if (!readable)
            options.offsetsTopic = test::uniqueName(QStringLiteral("no-such-offsets-topic"));
        auto session = MonitorSession::create(options);
        if (!session) {
            qWarning("cannot open monitor: %s", qPrintable(session.error().toString()));
            return nullptr;
        }
        return std::move(session).value();
    }

    void startPython(const QString& group, const QString& clientId, int base) {
        auto process = std::make_shared<QProcess>();
        const QString prelude = QStringLiteral("BOOTSTRAP = '%1'\n").arg(test::bootstrapServers());
        process->start(QStringLiteral("/usr/bin/python3"),
                       {QStringLiteral("-c"), prelude + QString::fromUtf8(pythonMemberScript),
                        m_topic, group, clientId, QString::number(base)});
        QVERIFY(process->waitForStarted(10000));
        m_members.insert(clientId, process);
    }

    // A librdkafka member (kcat's balanced consumer); extra -X properties select static
    // membership or the cooperative protocol.
    void startKcat(const QString& group, const QString& clientId, const QStringList& properties) {
        auto process = std::make_shared<QProcess>();
        QStringList arguments{QStringLiteral("-b"),
                              test::bootstrapServers(),
                              QStringLiteral("-G"),
                              group,
                              QStringLiteral("-q"),
                              QStringLiteral("-X"),
                              QStringLiteral("client.id=") + clientId,
                              QStringLiteral("-X"),
                              QStringLiteral("enable.auto.commit=false")};
        for (const QString& property : properties)
            arguments << QStringLiteral("-X") << property;
        arguments << m_topic;
        process->start(QStringLiteral("kcat"), arguments);
        QVERIFY(process->waitForStarted(10000));
        m_members.insert(clientId, process);
    }

    // Reads the commits a python member printed so far.
    void collectCommits(QProcess& process) {
        for (const QByteArray& line : process.readAllStandardOutput().split('\n')) {
            const QList<QByteArray> words = line.split(' ');
            if (words.size() == 4 && words[0] == "commit")
                m_madeCommits.append(
                    {QString::fromUtf8(words[1]), words[2].toInt(), words[3].toLongLong()});
        }
    }

    void leave(const QString& clientId) {
        auto process = m_members.take(clientId);
        QVERIFY(process);
        process->closeWriteChannel(); // python: close() sends LeaveGroup
        QVERIFY(process->waitForFinished(30000));
        collectCommits(*process);
    }

    void terminate(const QString& clientId) {
        auto process = m_members.take(clientId);
        QVERIFY(process);
        process->terminate(); // kcat closes its consumer on SIGTERM: a dynamic member leaves
        QVERIFY(process->waitForFinished(30000));
    }

    void killWithoutLeaving(const QString& clientId) {
        auto process = m_members.take(clientId);
        QVERIFY(process);
        process->kill();
        QVERIFY(process->waitForFinished(10000));
        collectCommits(*process);
    }

    // Refreshes both monitors until the polling one sees the group Stable with exactly
    // these clients, each python member having committed its assignment.
    bool waitForStableMembers(const QString& group, QStringList clientIds,
                              const std::function<bool(const GroupMonitorSnapshot&)>& extra = {}) {
        clientIds.sort();
        return test::waitFor(
            [&] {
                if (!m_exact->refresh() || !m_polling->refresh())
                    return false;
                const GroupMonitorSnapshot seen = m_polling->monitor().snapshot(group);
                if (seen.state != kafka::GroupState::Stable ||
                    sortedClientIds(seen.members) != clientIds)
                    return false;
                int assigned = 0;
                for (const auto& member : seen.members)
                    assigned += int(member.assignment.size());
                return assigned == topicPartitions && (!extra || extra(seen));
            },
            stepTimeout);
    }

    QJsonObject timelineFromCli(const QString& group, QStringList extra = {}) {
        const auto result = test::run(
            cliPath, QStringList{QStringLiteral("--bootstrap-server"), test::bootstrapServers(),
                                 QStringLiteral("timeline"), QStringLiteral("--group"), group,
                                 QStringLiteral("--json")} +
                         extra);
        if (!result.ok())
            qWarning("timeline failed (%d): %s", result.exitCode, result.err.constData());
        return QJsonDocument::fromJson(result.out).object();
    }

private slots:
    void initTestCase() {
        QString why;
        if (test::bootstrapServers(&why).isEmpty())
            QFAIL(qPrintable(why));
        m_topic = test::uniqueName(QStringLiteral("monitored"));
        QVERIFY(test::createTopic(m_topic, topicPartitions));
        QVERIFY(offsetsTopicReady(m_topic));
    }

    void cleanupTestCase() {
        for (auto& process : m_members) {
            process->kill();
            process->waitForFinished(5000);
        }
        m_members.clear();
        m_exact.reset();
        m_polling.reset();
    }

    void eagerGroupWithStaticMember() {
        const QString group = test::uniqueName(QStringLiteral("eager"));
        m_exact = openMonitor({group}, true);
        m_polling = openMonitor({group}, false);
        QVERIFY(m_exact && m_polling);

        startPython(group, QStringLiteral("a1"), 1000);
        QVERIFY2(waitForStableMembers(group, {QStringLiteral("a1")}), "a1 joined");
        startPython(group, QStringLiteral("a2"), 2000);
        QVERIFY2(waitForStableMembers(group, {QStringLiteral("a1"), QStringLiteral("a2")}),
                 "a2 joined");
        startPython(group, QStringLiteral("a3"), 3000);
        QVERIFY2(waitForStableMembers(
                     group, {QStringLiteral("a1"), QStringLiteral("a2"), QStringLiteral("a3")}),
                 "a3 joined");
        leave(QStringLiteral("a2"));
        QVERIFY2(waitForStableMembers(group, {QStringLiteral("a1"), QStringLiteral("a3")}),
                 "a2 left");
        killWithoutLeaving(QStringLiteral("a3")); // its 6 s session timeout must expire
        QVERIFY2(waitForStableMembers(group, {QStringLiteral("a1")}), "a3 expired");

        const QStringList staticMember{QStringLiteral("group.instance.id=static-s1"),
                                       QStringLiteral("session.timeout.ms=45000")};
        startKcat(group, QStringLiteral("s1"), staticMember);
        QVERIFY2(waitForStableMembers(group, {QStringLiteral("a1"), QStringLiteral("s1")}),
                 "static s1 joined");
        QString firstStaticId;
        for (const auto& member : m_polling->monitor().snapshot(group).members)
            if (member.clientId == u"s1") {
                firstStaticId = member.memberId;
                QCOMPARE(member.groupInstanceId, QStringLiteral("static-s1"));
            }
        QVERIFY(!firstStaticId.isEmpty());
        // Restarted well within its session timeout: replaced in place, no rebalance.
        killWithoutLeaving(QStringLiteral("s1"));
        startKcat(group, QStringLiteral("s1"), staticMember);
        QVERIFY2(waitForStableMembers(group, {QStringLiteral("a1"), QStringLiteral("s1")},
                                      [&](const GroupMonitorSnapshot& seen) {
                                          for (const auto& member : seen.members)
                                              if (member.clientId == u"s1")
                                                  return member.memberId != firstStaticId;
                                          return false;
                                      }),
                 "static s1 restarted");

        const QList<QStringList> joinsAndLeaves{
            {QStringLiteral("a1")},
            {QStringLiteral("a1"), QStringLiteral("a2")},
            {QStringLiteral("a1"), QStringLiteral("a2"), QStringLiteral("a3")},
            {QStringLiteral("a1"), QStringLiteral("a3")},
            {QStringLiteral("a1")},
            {QStringLiteral("a1"), QStringLiteral("s1")}};

        // Exact: generations as the coordinator stored them, read back by the CLI.
        const QJsonObject exact = timelineFromCli(group);
        QCOMPARE(exact[QStringLiteral("approximate")].toBool(), false);
        const QJsonArray generations = exact[QStringLiteral("generations")].toArray();
        QList<QStringList> exactMembers;
        int previousId = 0;
        for (const QJsonValue& value : generations) {
            const QJsonObject generation = value.toObject();
            exactMembers.append(generationClients(generation));
            const int id = generation[QStringLiteral("generation")].toInt();
            QCOMPARE(id, previousId + 1); // no generation missing, none twice
            previousId = id;
            QCOMPARE(generation[QStringLiteral("protocol")].toString(), QStringLiteral("range"));
            QCOMPARE(generation[QStringLiteral("approximate")].toBool(), false);
            int assigned = 0;
            for (const QJsonValue& member : generation[QStringLiteral("members")].toArray())
                assigned += int(member[QStringLiteral("assignment")].toArray().size());
            // eager: every generation assigns everything
            QVERIFY2(assigned == topicPartitions,
                     QJsonDocument(generations).toJson(QJsonDocument::Compact).constData());
        }
        QCOMPARE(exactMembers, joinsAndLeaves);
        // The static member's replacement updated the last generation in place.
        const QJsonArray lastMembers = generations.last()[QStringLiteral("members")].toArray();
        bool replaced = false;
        for (const QJsonValue& member : lastMembers)
            if (member[QStringLiteral("clientId")].toString() == u"s1") {
                QCOMPARE(member[QStringLiteral("groupInstanceId")].toString(),
                         QStringLiteral("static-s1"));
                replaced = member[QStringLiteral("memberId")].toString() != firstStaticId;
            }
        QVERIFY(replaced);

        // The in-process exact monitor agrees with the CLI.
        m_exact->drainStream();
        const GroupMonitorSnapshot live = m_exact->monitor().snapshot(group);
        QVERIFY(!live.timelineApproximate());
        QList<QStringList> liveMembers;
        for (const timeline::Generation& generation : live.timeline.generations)
            liveMembers.append(generationClients(generation));
        QCOMPARE(liveMembers, joinsAndLeaves);

        // Unreadable topic: generations inferred from polls, marked approximate; the static
        // member's new member id looks like one more generation to polling.
        const GroupMonitorSnapshot approximate = m_polling->monitor().snapshot(group);
        QVERIFY(approximate.timelineApproximate());
        QVERIFY2(approximate.timelineNote.contains(QStringLiteral("does not exist")),
                 qPrintable(approximate.timelineNote));
        QList<QStringList> approximateMembers;
        for (const timeline::Generation& generation : approximate.timeline.generations) {
            QVERIFY(generation.approximate);
            QCOMPARE(generation.generationId, -1);
            approximateMembers.append(generationClients(generation));
        }
        QCOMPARE(approximateMembers, joinsAndLeaves + QList<QStringList>{joinsAndLeaves.last()});

        // The CLI says so too when the topic cannot be read.
        const QJsonObject polled = timelineFromCli(
            group, {QStringLiteral("--offsets-topic"), QStringLiteral("no-such-topic")});
        QCOMPARE(polled[QStringLiteral("approximate")].toBool(), true);
        QCOMPARE(polled[QStringLiteral("source")].toString(), QStringLiteral("polling"));

        // Commit history read from the offsets topic equals the commits the members made.
        leave(QStringLiteral("a1"));
        std::sort(m_madeCommits.begin(), m_madeCommits.end());
        QVERIFY(m_madeCommits.size() >= 3 * topicPartitions);
        QList<Commit> streamed;
        QVERIFY2(test::waitFor(
                     [&] {
                         m_exact->drainStream();
                         streamed.clear();
                         for (const auto& commit : m_exact->monitor().snapshot(group).commits)
                             streamed.append({commit.topicPartition.topic,
                                              commit.topicPartition.partition, commit.offset});
                         std::sort(streamed.begin(), streamed.end());
                         return streamed == m_madeCommits;
                     },
                     std::chrono::seconds(20)),
                 qPrintable(QStringLiteral("%1 commits streamed, %2 made")
                                .arg(streamed.size())
                                .arg(m_madeCommits.size())));
        QList<Commit> fromCli;
        for (const QJsonValue& value : timelineFromCli(group)[QStringLiteral("commits")].toArray())
            fromCli.append({value[QStringLiteral("topic")].toString(),
                            value[QStringLiteral("partition")].toInt(),
                            value[QStringLiteral("offset")].toInteger()});
        std::sort(fromCli.begin(), fromCli.end());
        QCOMPARE(fromCli, m_madeCommits);
        terminate(QStringLiteral("s1"));
    }

    void cooperativeGroup() {
        const QString group = test::uniqueName(QStringLiteral("cooperative"));
        m_exact = openMonitor({group}, true);
        m_polling = openMonitor({group}, false);
        QVERIFY(m_exact && m_polling);
        const QStringList cooperative{
            QStringLiteral("partition.assignment.strategy=cooperative-sticky")};
        startKcat(group, QStringLiteral("k1"), cooperative);
        QVERIFY(waitForStableMembers(group, {QStringLiteral("k1")}));
        startKcat(group, QStringLiteral("k2"), cooperative);
        QVERIFY(waitForStableMembers(group, {QStringLiteral("k1"), QStringLiteral("k2")}));
        startKcat(group, QStringLiteral("k3"), cooperative);
        QVERIFY(waitForStableMembers(
            group, {QStringLiteral("k1"), QStringLiteral("k2"), QStringLiteral("k3")}));
        terminate(QStringLiteral("k2"));
        QVERIFY(waitForStableMembers(group, {QStringLiteral("k1"), QStringLiteral("k3")}));

        const QJsonObject exact = timelineFromCli(group);
        QCOMPARE(exact[QStringLiteral("approximate")].toBool(), false);
        const QJsonArray generations = exact[QStringLiteral("generations")].toArray();
        QList<QStringList> memberSets;
        int previousId = 0;
        for (const QJsonValue& value : generations) {
            const QJsonObject generation = value.toObject();
            QCOMPARE(generation[QStringLiteral("protocol")].toString(),
                     QStringLiteral("cooperative-sticky"));
            const int id = generation[QStringLiteral("generation")].toInt();
            QCOMPARE(id, previousId + 1);
            previousId = id;
            // The incremental protocol never hands a partition straight from one member to
            // another that are both in the group: it is revoked in one generation and
            // assigned in a later one. Only a member that left gives its partitions away at
            // once.
            const QJsonArray left = generation[QStringLiteral("left")].toArray();
            for (const QJsonValue& change :
                 generation[QStringLiteral("ownershipChanges")].toArray())
                QVERIFY2(change[QStringLiteral("from")].toString().isEmpty() ||
                             change[QStringLiteral("to")].toString().isEmpty() ||
                             left.contains(change[QStringLiteral("from")]),
                         qPrintable(change[QStringLiteral("partition")].toString()));
            const QStringList clients = generationClients(generation);
            if (memberSets.isEmpty() || memberSets.last() != clients)
                memberSets.append(clients);
        }
        QCOMPARE(memberSets, (QList<QStringList>{
                                 {QStringLiteral("k1")},
                                 {QStringLiteral("k1"), QStringLiteral("k2")},
                                 {QStringLiteral("k1"), QStringLiteral("k2"), QStringLiteral("k3")},
                                 {QStringLiteral("k1"), QStringLiteral("k3")}}));
        // A join moves partitions in two generations: the revocation, then the assignment.
        QVERIFY(generations.size() > memberSets.size());
        int assignedAtEnd = 0;
        for (const QJsonValue& member : generations.last()[QStringLiteral("members")].toArray())
            assignedAtEnd += int(member[QStringLiteral("assignment")].toArray().size());
        QCOMPARE(assignedAtEnd, topicPartitions);
        terminate(QStringLiteral("k1"));
        terminate(QStringLiteral("k3"));
    }

    void usageErrorsNeedNoCluster_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("timeline without group")
            << QStringList{QStringLiteral("timeline")} << QStringLiteral("exactly one --group");
        QTest::newRow("watch with two groups")
            << QStringList{QStringLiteral("watch"), QStringLiteral("--group"), QStringLiteral("a"),
                           QStringLiteral("--group"), QStringLiteral("b")}
            << QStringLiteral("exactly one --group");
        QTest::newRow("since not a duration")
            << QStringList{QStringLiteral("timeline"), QStringLiteral("--group"),
                           QStringLiteral("g"), QStringLiteral("--since"), QStringLiteral("1h")}
            << QStringLiteral("--since takes a positive ISO-8601 duration");
        QTest::newRow("interval too small")
            << QStringList{QStringLiteral("watch"), QStringLiteral("--group"), QStringLiteral("g"),
                           QStringLiteral("--interval"), QStringLiteral("5")}
            << QStringLiteral("--interval takes milliseconds");
        QTest::newRow("count not positive")
            << QStringList{QStringLiteral("watch"), QStringLiteral("--group"), QStringLiteral("g"),
                           QStringLiteral("--count"), QStringLiteral("0")}
            << QStringLiteral("--count takes a positive number");
    }
    void usageErrorsNeedNoCluster() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const auto result = test::run(cliPath, QStringList{QStringLiteral("--bootstrap-server"),
                                                           QStringLiteral("127.0.0.1:1")} +
                                                   arguments);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(message.toUtf8()), result.err.constData());
    }

    void watchPrintsOneJsonLinePerUpdate() {
        const QString group = test::uniqueName(QStringLiteral("watched"));
        startPython(group, QStringLiteral("w1"), 100);
        m_polling = openMonitor({group}, false);
        QVERIFY(m_polling);
        m_exact = openMonitor({group}, true);
        QVERIFY(waitForStableMembers(group, {QStringLiteral("w1")}));
        const auto result = test::run(
            cliPath, {QStringLiteral("--bootstrap-server"), test::bootstrapServers(),
                      QStringLiteral("watch"), QStringLiteral("--group"), group,
                      QStringLiteral("--json"), QStringLiteral("--interval"), QStringLiteral("200"),
                      QStringLiteral("--count"), QStringLiteral("3")});
        QVERIFY2(result.ok(), result.err.constData());
        const QList<QByteArray> lines = result.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        for (const QByteArray& line : lines) {
            const QJsonObject update = QJsonDocument::fromJson(line).object();
            QCOMPARE(update[QStringLiteral("group")].toString(), group);
            QCOMPARE(update[QStringLiteral("members")].toInt(), 1);
            QVERIFY(update.contains(QStringLiteral("timeLagSeconds")));
            QVERIFY(!update[QStringLiteral("verdict")].toString().isEmpty());
            QCOMPARE(update[QStringLiteral("partitions")].toArray().size(), topicPartitions);
        }
        const auto polled =
            test::run(cliPath, {QStringLiteral("--bootstrap-server"), test::bootstrapServers(),
                                QStringLiteral("watch"), QStringLiteral("--group"), group,
                                QStringLiteral("--no-offsets-topic"), QStringLiteral("--count"),
                                QStringLiteral("1")});
        QVERIFY2(polled.ok(), polled.err.constData());
        QVERIFY2(polled.err.contains("approximate (polling only)"), polled.err.constData());
        QVERIFY2(polled.out.contains("verdict="), polled.out.constData());
        leave(QStringLiteral("w1"));
    }
};

QTEST_GUILESS_MAIN(TestMonitorTimelineScenario)
#include "TestMonitorTimelineScenario.moc"
