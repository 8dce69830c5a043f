// The rebalance timeline of a consumer-protocol (KIP-848) group on the real broker, read
// through the offsets-topic stream. The members are Kafka's own Java console consumer with
// group.protocol=consumer (an independent client); Kafka's kafka-consumer-groups
// --describe --members --verbose is the oracle for each member's epoch and assignments.
#include "GroupMembers.h"
#include "TestBroker.h"

#include "monitor/MonitorSession.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <memory>

using namespace groupscope;
using monitor::GroupMonitorSnapshot;
using monitor::MonitorSession;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");
constexpr int topicPartitions = 4;
constexpr std::chrono::seconds stepTimeout{90};

// One member row of Kafka's --members --verbose output for a consumer group.
struct KafkaMemberRow {
    QString memberId;
    QString clientId;
    int currentEpoch = -1;
    QString currentAssignment; // "topic:0,1" as the tool prints it, "-" for none
    int targetEpoch = -1;
    QString targetAssignment;
};

QList<KafkaMemberRow> membersByKafka(const QString& group) {
    const test::ProcessResult result =
        test::kafkaConsumerGroups({QStringLiteral("--describe"), QStringLiteral("--group"), group,
                                   QStringLiteral("--members"), QStringLiteral("--verbose")});
    QList<KafkaMemberRow> rows;
    QStringList header;
    for (const QByteArray& raw : result.out.split('\n')) {
        const QStringList cells = QString::fromUtf8(raw).split(u' ', Qt::SkipEmptyParts);
        if (cells.value(0) == QLatin1String("GROUP")) {
            header = cells;
            continue;
        }
        if (header.isEmpty() || cells.size() != header.size())
            continue; // a note, or an assignment over several topics (not made here)
        const auto cell = [&](const char* name) {
            return cells.value(header.indexOf(QLatin1String(name)));
        };
        rows.append({cell("CONSUMER-ID"), cell("CLIENT-ID"), cell("CURRENT-EPOCH").toInt(),
                     cell("CURRENT-ASSIGNMENT"), cell("TARGET-EPOCH").toInt(),
                     cell("TARGET-ASSIGNMENT")});
    }
    return rows;
}

// Our partitions as Kafka's tool prints one topic's assignment: "topic:0,1,2".
QString kafkaAssignmentText(const QList<kafka::TopicPartition>& partitions) {
    if (partitions.isEmpty())
        return QStringLiteral("-");
    QStringList numbers;
    for (const kafka::TopicPartition& partition : partitions)
        numbers.append(QString::number(partition.partition));
    return partitions.first().topic + u':' + numbers.join(u',');
}

// The newest reconciliation step of each member.
QHash<QString, timeline::ReconciliationStep> lastSteps(const timeline::GroupTimeline& timeline) {
    QHash<QString, timeline::ReconciliationStep> steps;
    for (const timeline::ReconciliationStep& step : timeline.reconciliation)
        steps.insert(step.memberId, step);
    return steps;
}

} // namespace

class TestConsumerProtocolTimeline : public QObject {
    Q_OBJECT

    QString m_topic;
    QString m_group;
    std::unique_ptr<MonitorSession> m_monitor;

    GroupMonitorSnapshot refreshed() {
        if (!m_monitor->refresh())
            return {};
        return m_monitor->monitor().snapshot(m_group);
    }

    // Refreshes until the timeline agrees with Kafka's tool on every live member's current
    // epoch and assignment and on its target, with `memberCount` members, all Stable.
    bool agreesWithKafka(int memberCount, QString* mismatch) {
        return test::waitFor(
            [&] {
                const GroupMonitorSnapshot snapshot = refreshed();
                const timeline::GroupTimeline& timeline = snapshot.timeline;
                const QList<KafkaMemberRow> rows = membersByKafka(m_group);
                if (rows.size() != memberCount || timeline.states.isEmpty() ||
                    timeline.states.last().state != kafka::GroupState::Stable) {
                    *mismatch = QStringLiteral("%1 members by Kafka, state %2")
                                    .arg(rows.size())
                                    .arg(timeline.states.isEmpty()
                                             ? QStringLiteral("none")
                                             : kafka::groupStateName(timeline.states.last().state));
                    return false;
                }
                const auto steps = lastSteps(timeline);
                for (const KafkaMemberRow& row : rows) {
                    const timeline::ReconciliationStep step = steps.value(row.memberId);
                    const QString ours = QStringLiteral("%1 %2 %3 %4")
                                             .arg(step.memberEpoch)
                                             .arg(kafkaAssignmentText(step.assigned))
                                             .arg(step.targetEpoch)
                                             .arg(kafkaAssignmentText(step.target));
                    const QString theirs = QStringLiteral("%1 %2 %3 %4")
                                               .arg(row.currentEpoch)
                                               .arg(row.currentAssignment)
                                               .arg(row.targetEpoch)
                                               .arg(row.targetAssignment);
                    if (ours != theirs) {
                        *mismatch = QStringLiteral("%1: ours %2, Kafka's %3")
                                        .arg(row.clientId, ours, theirs);
                        return false;
                    }
                }
                return true;
            },
            stepTimeout);
    }

    QJsonObject timelineFromCli() {
        const auto result =
            test::run(cliPath, {QStringLiteral("--bootstrap-server"), test::bootstrapServers(),
                                QStringLiteral("timeline"), QStringLiteral("--group"), m_group,
                                QStringLiteral("--json")});
        if (!result.ok())
            qWarning("timeline failed (%d): %s", result.exitCode, result.err.constData());
        return QJsonDocument::fromJson(result.out).object();
    }

private slots:
    void initTestCase() {
        QString why;
        if (test::bootstrapServers(&why).isEmpty())
            QFAIL(qPrintable(why));
        m_topic = test::uniqueName(QStringLiteral("kip848"));
        m_group = test::uniqueName(QStringLiteral("kip848-group"));
        QVERIFY(test::createTopic(m_topic, topicPartitions));
        MonitorSession::Options options;
        options.profile = test::brokerProfile();
        options.groups = {m_group};
        auto session = MonitorSession::create(options);
        QVERIFY2(session, session ? "" : qPrintable(session.error().toString()));
        m_monitor = std::move(session).value();
    }

    void cleanupTestCase() { m_monitor.reset(); }

    void joinsAndLeavesAreEpochsAndMembersReconcile() {
        QString mismatch;
        auto first = std::make_unique<test::ConsumerProtocolMember>(m_topic, m_group,
                                                                    QStringLiteral("cp-first"));
        QVERIFY(first->waitUntilAssigned(topicPartitions));
        QVERIFY2(agreesWithKafka(1, &mismatch), qPrintable(mismatch));

        test::ConsumerProtocolMember second(m_topic, m_group, QStringLiteral("cp-second"));
        QVERIFY(second.waitUntilAssigned(topicPartitions / 2));
        QVERIFY2(agreesWithKafka(2, &mismatch), qPrintable(mismatch));

        QVERIFY(first->leave());
        first.reset();
        QVERIFY(second.waitUntilAssigned(topicPartitions));
        QVERIFY2(agreesWithKafka(1, &mismatch), qPrintable(mismatch));

        const timeline::GroupTimeline timeline = refreshed().timeline;
        QCOMPARE(timeline.protocol, timeline::GroupProtocol::Consumer);
        QVERIFY2(timeline.unresolvedTopicIds.isEmpty(),
                 qPrintable(timeline.unresolvedTopicIds.join(u',')));
        // An epoch per join and leave: the first joins, the second joins, the first leaves.
        int joins = 0;
        int leaves = 0;
        for (const timeline::Generation& epoch : timeline.generations) {
            QCOMPARE(epoch.protocolType, QStringLiteral("consumer"));
            joins += int(epoch.joinedMemberIds.size());
            leaves += int(epoch.leftMemberIds.size());
            QVERIFY(epoch.joinedMemberIds.size() + epoch.leftMemberIds.size() <= 1);
        }
        QCOMPARE(joins, 2);
        QCOMPARE(leaves, 1);
        for (qsizetype i = 1; i < timeline.generations.size(); ++i)
            QVERIFY(timeline.generations[i].generationId >
                    timeline.generations[i - 1].generationId);

        // Two partitions went from the first member to the second when it joined, one at a
        // time: released by the old owner before the new one got them, and the first kept
        // its other partitions meanwhile.
        int handOvers = 0;
        for (qsizetype i = 1; i < timeline.ownership.size(); ++i) {
            const timeline::OwnershipSpan& before = timeline.ownership[i - 1];
            const timeline::OwnershipSpan& after = timeline.ownership[i];
            if (before.partition != after.partition || before.ownerId == after.ownerId)
                continue;
            QVERIFY(before.endMs.has_value());
            QVERIFY(*before.endMs <= after.startMs);
            ++handOvers;
        }
        QVERIFY2(handOvers >= topicPartitions / 2, qPrintable(QString::number(handOvers)));
        bool revocationSeen = false;
        for (const timeline::OwnershipSpan& span : timeline.ownership)
            revocationSeen = revocationSeen || span.revocationStartMs.has_value();
        QVERIFY(revocationSeen);

        QVERIFY(second.leave());
        QVERIFY(test::waitFor(
            [&] {
                const timeline::GroupTimeline now = refreshed().timeline;
                return !now.states.isEmpty() &&
                       now.states.last().state == kafka::GroupState::Empty &&
                       !now.generations.isEmpty() && now.generations.last().members.isEmpty();
            },
            stepTimeout));
    }

    // The CLI's timeline of the same group, from a fresh replay of the offsets topic.
    void cliShowsTheEpochsAndReconciliation() {
        const QJsonObject json = timelineFromCli();
        QCOMPARE(json[QStringLiteral("protocol")].toString(), QStringLiteral("consumer"));
        QCOMPARE(json[QStringLiteral("source")].toString(), QStringLiteral("offsetsTopic"));
        const QJsonArray generations = json[QStringLiteral("generations")].toArray();
        int joins = 0;
        int leaves = 0;
        for (const QJsonValue& value : generations) {
            const QJsonObject epoch = value.toObject();
            QVERIFY(epoch[QStringLiteral("groupEpoch")].toBool());
            joins += int(epoch[QStringLiteral("joined")].toArray().size());
            leaves += int(epoch[QStringLiteral("left")].toArray().size());
        }
        QCOMPARE(joins, 2);
        QCOMPARE(leaves, 2);
        QVERIFY(!json[QStringLiteral("reconciliation")].toArray().isEmpty());
        QVERIFY(!json[QStringLiteral("targetAssignments")].toArray().isEmpty());
        QVERIFY(!json[QStringLiteral("ownership")].toArray().isEmpty());
        QVERIFY(json[QStringLiteral("stream")][QStringLiteral("consumerGroupRecords")].toInt() > 0);
        QCOMPARE(json[QStringLiteral("state")].toString(), QStringLiteral("Empty"));

        const auto text =
            test::run(cliPath, {QStringLiteral("--bootstrap-server"), test::bootstrapServers(),
                                QStringLiteral("timeline"), QStringLiteral("--group"), m_group});
        QVERIFY2(text.ok(), text.err.constData());
        QVERIFY(text.out.contains("consumer protocol (KIP-848)"));
        QVERIFY(text.out.contains("EPOCH"));
        QVERIFY(text.out.contains("Partition moves"));
    }
};

QTEST_GUILESS_MAIN(TestConsumerProtocolTimeline)
#include "TestConsumerProtocolTimeline.moc"
