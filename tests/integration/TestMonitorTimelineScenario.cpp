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

#include <algorithm>
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

// Member id -> client id, over every generation of a CLI timeline.
QHash<QString, QString> clientsByMemberId(const QJsonArray& generations) {
    QHash<QString, QString> clients;
    for (const QJsonValue& generation : generations)
        for (const QJsonValue& member : generation[QStringLiteral("members")].toArray())
            clients.insert(member[QStringLiteral("memberId")].toString(),
                           member[QStringLiteral("clientId")].toString());
    return clients;
}

// The client ids of a list of member ids (joined, left), sorted.
QStringList clientsOf(const QJsonValue& memberIds, const QHash<QString, QString>& clients) {
    QStringList ids;
    for (const QJsonValue& memberId : memberIds.toArray())
        ids.append(clients.value(memberId.toString(), memberId.toString()));
    ids.sort();
    return ids;
}

// Each member's partitions in one generation, by client id.
QMap<QString, QSet<int>> assignmentByClient(const QJsonObject& generation) {
    QMap<QString, QSet<int>> assignment;
    for (const QJsonValue& member : generation[QStringLiteral("members")].toArray()) {
        QSet<int>& partitions = assignment[member[QStringLiteral("clientId")].toString()];
        for (const QJsonValue& name : member[QStringLiteral("assignment")].toArray())
            partitions.insert(name.toString().section(u':', -1).toInt());
    }
    return assignment;
}
QMap<QString, int> assignmentSizes(const QMap<QString, QSet<int>>& assignment) {
    QMap<QString, int> sizes;
    for (auto it = assignment.cbegin(); it != assignment.cend(); ++it)
        sizes.insert(it.key(), int(it.value().size()));
    return sizes;
}

} // namespace

class TestMonitorTimelineScenario : public QObject {
    Q_OBJECT

    QString m_topic;
    std::unique_ptr<MonitorSession> m_exact;
    std::unique_ptr<MonitorSession> m_polling;
    QHash<QString, std::shared_ptr<QProcess>> m_members; // by client id
    QList<Commit> m_madeCommits;
    // What each python member printed: its base offset, the unread tail of its output, and
    // the assignments it committed, in order (one per new assignment it was handed).
    QHash<QString, int> m_pythonBase;
    QHash<QString, QByteArray> m_pythonOutput;
    QHash<QString, QList<QSet<int>>> m_pythonAssignments;

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
        std::unique_ptr<MonitorSession> opened = std::move(session).value();
        // Polls feed the timeline once the monitor knows the topic cannot be read; the
        // scenario's first step must not happen before that (it did, now and then, and the
        // polled timeline then began at the second step).
        if (!readable && !test::waitFor(
                             [&] {
                                 opened->refresh();
                                 return opened->monitor()
                                     .snapshot(groups.first())
                                     .timelineNote.contains(QStringLiteral("does not exist"));
                             },
                             std::chrono::seconds(30))) {
            qWarning("the polling monitor never found its offsets topic missing");
            return nullptr;
        }
        return opened;
    }

    void startPython(const QString& group, const QString& clientId, int base) {
        auto process = std::make_shared<QProcess>();
        const QString prelude = QStringLiteral("BOOTSTRAP = '%1'\n").arg(test::bootstrapServers());
        process->start(QStringLiteral("/usr/bin/python3"),
                       {QStringLiteral("-c"), prelude + QString::fromUtf8(pythonMemberScript),
                        m_topic, group, clientId, QString::number(base)});
        QVERIFY(process->waitForStarted(10000));
        m_members.insert(clientId, process);
        m_pythonBase.insert(clientId, base);
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

    // Reads the commits a python member printed so far. Its commit offsets are
    // base + 10 * (number of the assignment) + partition, so each line also tells which of
    // its assignments the partition belonged to.
    void collectCommits(const QString& clientId, QProcess& process) {
        QByteArray& output = m_pythonOutput[clientId];
        output += process.readAllStandardOutput();
        const qsizetype complete = output.lastIndexOf('\n') + 1;
        const QList<QByteArray> lines = output.left(complete).split('\n');
        output.remove(0, complete);
        for (const QByteArray& line : lines) {
            const QList<QByteArray> words = line.split(' ');
            if (words.size() != 4 || words[0] != "commit")
                continue;
            const Commit commit{QString::fromUtf8(words[1]), words[2].toInt(),
                                words[3].toLongLong()};
            m_madeCommits.append(commit);
            const qsizetype sequence =
                (commit.offset - m_pythonBase.value(clientId) - commit.partition) / 10;
            QList<QSet<int>>& assignments = m_pythonAssignments[clientId];
            while (assignments.size() < sequence)
                assignments.append(QSet<int>());
            assignments[sequence - 1].insert(commit.partition);
        }
    }

    // Whether the python member has committed (and printed) exactly this assignment last.
    bool committedAssignment(const QString& clientId,
                             const QList<kafka::TopicPartition>& assigned) {
        const auto process = m_members.value(clientId);
        if (process)
            collectCommits(clientId, *process);
        QSet<int> partitions;
        for (const kafka::TopicPartition& partition : assigned)
            partitions.insert(partition.partition);
        const QList<QSet<int>> printed = m_pythonAssignments.value(clientId);
        return !printed.isEmpty() && printed.last() == partitions;
    }

    void leave(const QString& clientId) {
        auto process = m_members.take(clientId);
        QVERIFY(process);
        process->closeWriteChannel(); // python: close() sends LeaveGroup
        QVERIFY(process->waitForFinished(30000));
        collectCommits(clientId, *process);
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
        if (m_pythonBase.contains(clientId))
            collectCommits(clientId, *process);
    }

    // Refreshes both monitors until the polling one sees the group Stable with exactly
    // these clients, each python member having committed its assignment (so every
    // generation's assignment is on record before the next step changes it).
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
                for (const auto& member : seen.members) {
                    assigned += int(member.assignment.size());
                    if (m_pythonBase.contains(member.clientId) &&
                        !committedAssignment(member.clientId, member.assignment))
                        return false;
                }
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
        // Who joined and left in each generation, and the leader: a1 joined first and never
        // left, so it leads every generation.
        QHash<QString, QString> clients = clientsByMemberId(generations);
        clients.insert(firstStaticId, QStringLiteral("s1"));
        QList<QStringList> joined;
        QList<QStringList> left;
        for (const QJsonValue& generation : generations) {
            joined.append(clientsOf(generation[QStringLiteral("joined")], clients));
            left.append(clientsOf(generation[QStringLiteral("left")], clients));
            QCOMPARE(clients.value(generation[QStringLiteral("leader")].toString()),
                     QStringLiteral("a1"));
        }
        const QStringList none;
        QCOMPARE(joined, (QList<QStringList>{{QStringLiteral("a1")},
                                             {QStringLiteral("a2")},
                                             {QStringLiteral("a3")},
                                             none,
                                             none,
                                             {QStringLiteral("s1")}}));
        QCOMPARE(left,
                 (QList<QStringList>{
                     none, none, none, {QStringLiteral("a2")}, {QStringLiteral("a3")}, none}));
        // Each python member's partitions, generation by generation, are the assignments it
        // printed (it prints each new assignment once, so repeats collapse).
        for (const QString& client :
             {QStringLiteral("a1"), QStringLiteral("a2"), QStringLiteral("a3")}) {
            QList<QSet<int>> fromTimeline;
            for (const QJsonValue& generation : generations) {
                const auto assignment = assignmentByClient(generation.toObject());
                if (assignment.contains(client) &&
                    (fromTimeline.isEmpty() || fromTimeline.last() != assignment.value(client)))
                    fromTimeline.append(assignment.value(client));
            }
            QList<QSet<int>> printed = m_pythonAssignments.value(client);
            printed.removeAll(QSet<int>()); // a commit refused by a rebalance that followed
            QCOMPARE(fromTimeline, printed);
        }
        // The static member restarted within its session timeout: replaced, not left and
        // joined again, and it kept its partitions.
        const QJsonArray replacements = generations.last()[QStringLiteral("replaced")].toArray();
        QCOMPARE(replacements.size(), 1);
        QCOMPARE(replacements[0][QStringLiteral("groupInstanceId")].toString(),
                 QStringLiteral("static-s1"));
        QCOMPARE(replacements[0][QStringLiteral("oldMemberId")].toString(), firstStaticId);
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
        // Polling sees the static member's new member id as one more generation, but still
        // as the same member restarted: nobody joined or left, no partition changed owner.
        const timeline::Generation& restarted = approximate.timeline.generations.last();
        const timeline::Generation& beforeRestart =
            approximate.timeline.generations[approximate.timeline.generations.size() - 2];
        QVERIFY(restarted.joinedMemberIds.isEmpty());
        QVERIFY(restarted.leftMemberIds.isEmpty());
        QCOMPARE(restarted.replacedMembers.size(), 1);
        QCOMPARE(restarted.replacedMembers.first().groupInstanceId, QStringLiteral("static-s1"));
        QCOMPARE(restarted.replacedMembers.first().oldMemberId, firstStaticId);
        for (int partition = 0; partition < topicPartitions; ++partition)
            QVERIFY(!timeline::ownerChanged(beforeRestart, restarted, {m_topic, partition}));

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
            memberSets.append(generationClients(generation));
        }
        // Exactly these generations up to k3's arrival: a join moves partitions in two (the
        // revocation, then the assignment), and k1, there from the start, leads them all.
        // Then k2 closes, which librdkafka's cooperative members may do in two steps
        // depending on timing: revoke its partitions and rejoin (one more generation of all
        // three), then leave (one generation of k1 and k3); and after the leave k1 and k3 may
        // reshuffle in further generations (librdkafka#3306, #3891), which the test does not
        // wait for. Those generations have those members and nobody else joins.
        const QStringList k1{QStringLiteral("k1")};
        const QStringList k12{QStringLiteral("k1"), QStringLiteral("k2")};
        const QStringList k123{QStringLiteral("k1"), QStringLiteral("k2"), QStringLiteral("k3")};
        const QStringList k13{QStringLiteral("k1"), QStringLiteral("k3")};
        QStringList setsText;
        for (const QStringList& members : std::as_const(memberSets))
            setsText.append(members.join(QLatin1Char('+')));
        constexpr int upToK3 = 5;
        const auto leave = std::find(memberSets.cbegin(), memberSets.cend(), k13);
        const qsizetype leaveIndex = leave - memberSets.cbegin();
        QVERIFY2(memberSets.size() > upToK3 &&
                     memberSets.first(upToK3) == (QList<QStringList>{k1, k12, k12, k123, k123}) &&
                     leave != memberSets.cend() &&
                     std::all_of(memberSets.cbegin() + upToK3, leave,
                                 [&](const QStringList& members) { return members == k123; }) &&
                     std::all_of(leave, memberSets.cend(),
                                 [&](const QStringList& members) { return members == k13; }),
                 qPrintable(QStringLiteral("generations: ") + setsText.join(QStringLiteral(", "))));
        const auto sizes = [](std::initializer_list<std::pair<const QString, int>> entries) {
            return QMap<QString, int>(entries);
        };
        QList<QMap<QString, int>> assignmentSizesPerGeneration;
        QList<QStringList> joined;
        QList<QStringList> left;
        const QHash<QString, QString> clients = clientsByMemberId(generations);
        for (const QJsonValue& generation : generations) {
            assignmentSizesPerGeneration.append(
                assignmentSizes(assignmentByClient(generation.toObject())));
            joined.append(clientsOf(generation[QStringLiteral("joined")], clients));
            left.append(clientsOf(generation[QStringLiteral("left")], clients));
            QCOMPARE(clients.value(generation[QStringLiteral("leader")].toString()), k1.first());
        }
        const QString k1Id = QStringLiteral("k1");
        const QString k2Id = QStringLiteral("k2");
        const QString k3Id = QStringLiteral("k3");
        QCOMPARE(assignmentSizesPerGeneration.first(upToK3),
                 (QList<QMap<QString, int>>{sizes({{k1Id, 6}}), sizes({{k1Id, 3}, {k2Id, 0}}),
                                            sizes({{k1Id, 3}, {k2Id, 3}}),
                                            sizes({{k1Id, 2}, {k2Id, 2}, {k3Id, 0}}),
                                            sizes({{k1Id, 2}, {k2Id, 2}, {k3Id, 2}})}));
        QCOMPARE(assignmentSizesPerGeneration.last(), sizes({{k1Id, 3}, {k3Id, 3}}));
        const QStringList none;
        QList<QStringList> expectedJoined(memberSets.size(), none);
        expectedJoined[0] = k1;
        expectedJoined[1] = {k2Id};
        expectedJoined[3] = {k3Id};
        QCOMPARE(joined, expectedJoined);
        QList<QStringList> expectedLeft(memberSets.size(), none);
        expectedLeft[leaveIndex] = {k2Id};
        QCOMPARE(left, expectedLeft);

        // The polling approximation of the same group: inferred, approximate generations.
        // Polls may miss the short revocation generations, but they see every step's
        // membership, in order, and the final assignment.
        m_polling->refresh();
        const GroupMonitorSnapshot approximate = m_polling->monitor().snapshot(group);
        QVERIFY(approximate.timelineApproximate());
        QList<QStringList> polledSets;
        for (const timeline::Generation& generation : approximate.timeline.generations) {
            QVERIFY(generation.approximate);
            QCOMPARE(generation.generationId, -1);
            // A poll that caught the group mid-rebalance does not learn the assignor.
            QVERIFY2(generation.protocol.isEmpty() ||
                         generation.protocol == QStringLiteral("cooperative-sticky"),
                     qPrintable(generation.protocol));
            const QStringList members = generationClients(generation);
            if (polledSets.isEmpty() || polledSets.last() != members)
                polledSets.append(members);
        }
        // Named in full on failure: a size mismatch alone does not say which step was missed.
        QStringList polledText;
        for (const QStringList& members : std::as_const(polledSets))
            polledText.append(members.join(QLatin1Char('+')));
        QVERIFY2(
            polledSets == (QList<QStringList>{k1, k12, k123, k13}),
            qPrintable(QStringLiteral("polls inferred: ") + polledText.join(QStringLiteral(", "))));
        QMap<QString, int> polledSizes;
        const timeline::Generation& polledLast = approximate.timeline.generations.last();
        for (const timeline::GenerationMember& member : polledLast.members)
            polledSizes.insert(member.clientId, 0);
        for (auto it = polledLast.ownerByPartition.cbegin();
             it != polledLast.ownerByPartition.cend(); ++it)
            for (const timeline::GenerationMember& member : polledLast.members)
                if (member.memberId == it.value())
                    ++polledSizes[member.clientId];
        QCOMPARE(polledSizes, sizes({{k1Id, 3}, {k3Id, 3}}));
        QCOMPARE(polledLast.protocol, QStringLiteral("cooperative-sticky"));
        const QJsonObject polled = timelineFromCli(
            group, {QStringLiteral("--offsets-topic"), QStringLiteral("no-such-topic")});
        QCOMPARE(polled[QStringLiteral("approximate")].toBool(), true);
        QCOMPARE(polled[QStringLiteral("generations")].toArray().size(), 1);

        // A window that opens after the last rebalance still shows the generation in force,
        // marked as begun before the window (it used to say "No generations in the window").
        QJsonObject recent;
        QVERIFY2(test::waitFor(
                     [&] {
                         recent = timelineFromCli(
                             group, {QStringLiteral("--since"), QStringLiteral("PT2S")});
                         const QJsonArray seen = recent[QStringLiteral("generations")].toArray();
                         return seen.size() == 1 &&
                                seen[0][QStringLiteral("startedBeforeWindow")].toBool();
                     },
                     stepTimeout),
                 QJsonDocument(recent).toJson(QJsonDocument::Compact).constData());
        const QJsonObject inForce = recent[QStringLiteral("generations")].toArray()[0].toObject();
        QCOMPARE(generationClients(inForce), k13);
        QCOMPARE(assignmentSizes(assignmentByClient(inForce)), sizes({{k1Id, 3}, {k3Id, 3}}));
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
