// The timelines of a share group (Kafka's console share consumer) and a streams group (the
// test bed's Kafka Streams application) on the real broker, from the groups' own records in
// __consumer_offsets: groupscope-cli's `timeline --json` shows members joining and leaving
// with group epochs, and ends with each live member's epoch and assignment as
// kafka-share-groups / kafka-streams-groups --describe --members --verbose print them.

#include "GroupMembers.h"
#include "TestBroker.h"
#include "ToolTables.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include <memory>

using namespace groupscope;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");
constexpr auto stepTimeout = std::chrono::seconds(120);

QJsonObject timelineFromCli(const QString& group) {
    const auto result =
        test::run(cliPath, {QStringLiteral("--bootstrap-server"), test::bootstrapServers(),
                            QStringLiteral("timeline"), QStringLiteral("--group"), group,
                            QStringLiteral("--json")});
    if (!result.ok())
        qWarning("timeline failed (%d): %s", result.exitCode, result.err.constData());
    return QJsonDocument::fromJson(result.out).object();
}

// Every member id the timeline's epochs say joined, or left.
QSet<QString> membersIn(const QJsonObject& timeline, const QString& key) {
    QSet<QString> ids;
    for (const QJsonValue& generation : timeline.value(QStringLiteral("generations")).toArray())
        for (const QJsonValue& id : generation.toObject().value(key).toArray())
            ids.insert(id.toString());
    return ids;
}

// The last reconciliation step of each member: its epoch and assignment at the end.
QHash<QString, QJsonObject> lastSteps(const QJsonObject& timeline) {
    QHash<QString, QJsonObject> steps;
    for (const QJsonValue& step : timeline.value(QStringLiteral("reconciliation")).toArray())
        steps.insert(step.toObject().value(QStringLiteral("memberId")).toString(), step.toObject());
    return steps;
}

struct ToolMember {
    QString memberId;
    int epoch = -1;
    QStringList assigned; // as the timeline writes them: "topic:partition", a task "0:1"
};

// kafka-share-groups --members --verbose: GROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS
// MEMBER-EPOCH ASSIGNMENT ("orders:0,1").
QList<ToolMember> shareMembersByKafka(const QString& group) {
    const auto described =
        test::kafkaTool(QStringLiteral("kafka-share-groups"),
                        {QStringLiteral("--describe"), QStringLiteral("--group"), group,
                         QStringLiteral("--members"), QStringLiteral("--verbose")});
    QList<ToolMember> members;
    for (const QStringList& row : test::tableRowsOf(described.out, group)) {
        ToolMember member{row.value(1), row.value(5).toInt(), {}};
        for (const QString& topic : row.value(6).split(u';', Qt::SkipEmptyParts)) {
            const QString name = topic.section(u':', 0, 0);
            for (const QString& partition : topic.section(u':', 1).split(u',', Qt::SkipEmptyParts))
                member.assigned.append(name + u':' + partition);
        }
        member.assigned.sort();
        members.append(member);
    }
    return members;
}

// kafka-streams-groups --members --verbose: GROUP TARGET-ASSIGNMENT-EPOCH TOPOLOGY-EPOCH
// MEMBER MEMBER-PROTOCOL MEMBER-EPOCH PROCESS CLIENT-ID ASSIGNMENTS, the last of which has
// spaces: "ACTIVE: 0:[0,1]; TARGET-ACTIVE: 0:[0,1]; ". The active tasks are the member's
// assignment, written as the timeline writes a task: "subtopology:partition".
QList<ToolMember> streamsMembersByKafka(const QString& group) {
    const auto described =
        test::kafkaTool(QStringLiteral("kafka-streams-groups"),
                        {QStringLiteral("--describe"), QStringLiteral("--group"), group,
                         QStringLiteral("--members"), QStringLiteral("--verbose")});
    QList<ToolMember> members;
    for (const QStringList& row : test::tableRowsOf(described.out, group)) {
        ToolMember member{row.value(3), row.value(5).toInt(), {}};
        bool active = false;
        for (const QString& token : row.mid(8)) {
            if (token.endsWith(u':')) { // a kind of tasks: ACTIVE, TARGET-ACTIVE, STANDBY, ...
                active = token == QStringLiteral("ACTIVE:");
                continue;
            }
            if (!active)
                continue;
            // "0:[0,1];" -> 0:0, 0:1
            const QString subtopology = token.section(u':', 0, 0);
            QString partitions = token.section(u':', 1);
            partitions.remove(u'[').remove(u']').remove(u';');
            for (const QString& partition : partitions.split(u',', Qt::SkipEmptyParts))
                member.assigned.append(subtopology + u':' + partition);
        }
        member.assigned.sort();
        members.append(member);
    }
    return members;
}

// Whether the timeline ends where Kafka's tool says each member is.
bool agrees(const QJsonObject& timeline, const QList<ToolMember>& members, QString* mismatch) {
    const auto steps = lastSteps(timeline);
    for (const ToolMember& member : members) {
        const QJsonObject step = steps.value(member.memberId);
        QStringList assigned;
        for (const QJsonValue& partition : step.value(QStringLiteral("assigned")).toArray())
            assigned.append(partition.toString());
        assigned.sort();
        if (step.value(QStringLiteral("memberEpoch")).toInt(-2) != member.epoch ||
            assigned != member.assigned) {
            *mismatch = QStringLiteral("member %1: Kafka epoch %2 %3, timeline %4 %5")
                            .arg(member.memberId)
                            .arg(member.epoch)
                            .arg(member.assigned.join(u','))
                            .arg(step.value(QStringLiteral("memberEpoch")).toInt(-2))
                            .arg(assigned.join(u','));
            return false;
        }
    }
    return !members.isEmpty();
}

} // namespace

class TestShareAndStreamsTimelineOnBroker : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { SKIP_WITHOUT_TEST_BROKER(); }

    void shareGroupMembersJoinAndLeave() {
        const QString topic = test::uniqueName(QStringLiteral("share-timeline"));
        const QString group = test::uniqueName(QStringLiteral("share-timeline-group"));
        QVERIFY(test::createTopic(topic, 2));
        auto first = std::make_unique<test::ShareGroupMember>(topic, group);
        QVERIFY(first->waitUntilAssigned(2));
        const QString firstId = shareMembersByKafka(group).value(0).memberId;
        test::ShareGroupMember second(topic, group);
        QVERIFY(test::waitFor([&] { return shareMembersByKafka(group).size() == 2; }, stepTimeout));
        QVERIFY(first->leave());
        first.reset();
        QVERIFY(test::waitFor([&] { return shareMembersByKafka(group).size() == 1; }, stepTimeout));

        QString mismatch;
        QJsonObject timeline;
        const bool agreed = test::waitFor(
            [&] {
                timeline = timelineFromCli(group);
                return agrees(timeline, shareMembersByKafka(group), &mismatch) &&
                       membersIn(timeline, QStringLiteral("left")).contains(firstId);
            },
            stepTimeout);
        QVERIFY2(agreed,
                 qPrintable(mismatch + QString::fromUtf8(QJsonDocument(timeline).toJson())));
        QCOMPARE(timeline.value(QStringLiteral("protocol")).toString(), QStringLiteral("share"));
        const QString secondId = shareMembersByKafka(group).value(0).memberId;
        QVERIFY(membersIn(timeline, QStringLiteral("joined")).contains(firstId));
        QVERIFY(membersIn(timeline, QStringLiteral("joined")).contains(secondId));
        // Every epoch came from the records, none inferred from a poll.
        for (const QJsonValue& generation : timeline.value(QStringLiteral("generations")).toArray())
            QVERIFY(generation.toObject().value(QStringLiteral("groupEpoch")).toBool());
        // The text names the group type, and a partition the new member took while the
        // first still had it is an overlap, never a negative time without an owner.
        const auto text =
            test::run(cliPath, {QStringLiteral("--bootstrap-server"), test::bootstrapServers(),
                                QStringLiteral("timeline"), QStringLiteral("--group"), group});
        QVERIFY2(text.ok(), text.err.constData());
        QVERIFY(text.out.contains("share group (KIP-932)"));
        QVERIFY2(!QString::fromUtf8(text.out).contains(
                     QRegularExpression(QStringLiteral("\\(-\\d+ ms without an owner"))),
                 text.out.constData());
    }

    void streamsGroupMembersJoinAndLeave() {
        const QString input = test::uniqueName(QStringLiteral("streams-timeline-in"));
        const QString application = test::uniqueName(QStringLiteral("streams-timeline-app"));
        const QString output = application + QStringLiteral("-out");
        QVERIFY(test::createTopic(input, 2));
        QVERIFY(test::createTopic(output, 2));
        auto first = std::make_unique<test::StreamsAppMember>(application, input, output,
                                                              QStringLiteral("timeline-first"));
        QVERIFY2(first->waitUntilRunning(), "the first Streams instance never ran");
        QVERIFY(test::waitFor([&] { return streamsMembersByKafka(application).size() == 1; },
                              stepTimeout));
        const QString firstId = streamsMembersByKafka(application).value(0).memberId;
        test::StreamsAppMember second(application, input, output,
                                      QStringLiteral("timeline-second"));
        QVERIFY2(second.waitUntilRunning(), "the second Streams instance never ran");
        QVERIFY(test::waitFor([&] { return streamsMembersByKafka(application).size() == 2; },
                              stepTimeout));
        QVERIFY(first->leave());
        first.reset();
        QVERIFY(test::waitFor([&] { return streamsMembersByKafka(application).size() == 1; },
                              stepTimeout));

        QString mismatch;
        QJsonObject timeline;
        const bool agreed = test::waitFor(
            [&] {
                timeline = timelineFromCli(application);
                return agrees(timeline, streamsMembersByKafka(application), &mismatch) &&
                       membersIn(timeline, QStringLiteral("left")).contains(firstId);
            },
            stepTimeout);
        QVERIFY2(agreed,
                 qPrintable(mismatch + QString::fromUtf8(QJsonDocument(timeline).toJson())));
        QCOMPARE(timeline.value(QStringLiteral("protocol")).toString(), QStringLiteral("streams"));
        const QString secondId = streamsMembersByKafka(application).value(0).memberId;
        QVERIFY(membersIn(timeline, QStringLiteral("joined")).contains(firstId));
        QVERIFY(membersIn(timeline, QStringLiteral("joined")).contains(secondId));
        for (const QJsonValue& generation : timeline.value(QStringLiteral("generations")).toArray())
            QVERIFY(generation.toObject().value(QStringLiteral("groupEpoch")).toBool());
    }
};

QTEST_GUILESS_MAIN(TestShareAndStreamsTimelineOnBroker)
#include "TestShareAndStreamsTimelineOnBroker.moc"
