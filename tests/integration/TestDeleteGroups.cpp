// groupscope-cli delete on the real broker, against Kafka's own kafka-consumer-groups
// --delete: dry run changes nothing, execute deletes exactly what Kafka's tool deletes and
// says so in Kafka's words, a group with a live member (Kafka's own KIP-848 console
// consumer) is refused up front with the member named, each group of a multi-group delete
// gets its own outcome, and undo commits the deleted group's offsets again, read back by
// python3-kafka (a client nobody here wrote).
#include "GroupMembers.h"
#include "TestBroker.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace groupscope;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");
constexpr int topicPartitions = 3;
const QList<int> groupOffsets{3, 5, 7};

QMap<int, qlonglong> expectedOffsets() {
    QMap<int, qlonglong> offsets;
    for (int partition = 0; partition < groupOffsets.size(); ++partition)
        offsets.insert(partition, groupOffsets.at(partition));
    return offsets;
}

} // namespace

class TestDeleteGroups : public QObject {
    Q_OBJECT

    QTemporaryDir m_dataDir; // the audit log of this test
    QString m_topic;

    test::ProcessResult groupscope(const QStringList& arguments) {
        qputenv("GROUPSCOPE_DATA_DIR", m_dataDir.path().toUtf8());
        return test::run(
            cliPath, QStringList{QStringLiteral("--bootstrap-server"), test::bootstrapServers()} +
                         test::afterSetupCommits(arguments));
    }

    static bool listedByKafka(const QString& group) {
        const auto listed = test::kafkaConsumerGroups({QStringLiteral("--list")});
        return listed.ok() && QString::fromUtf8(listed.out).split(u'\n').contains(group);
    }

    // A group of committed offsets and nobody in it, made by python3-kafka.
    QString emptyGroupWithCommits(const QString& prefix) {
        const QString group = test::uniqueName(prefix);
        if (!test::commitOffsets(group, m_topic, groupOffsets))
            return {};
        return group;
    }

private slots:
    void initTestCase() {
        QString why;
        if (test::bootstrapServers(&why).isEmpty())
            QFAIL(qPrintable(why));
        QVERIFY(m_dataDir.isValid());
        m_topic = test::uniqueName(QStringLiteral("deleted-groups"));
        QVERIFY(test::createTopic(m_topic, topicPartitions));
        QVERIFY(test::produce(m_topic, 30));
    }

    void dryRunChangesNothing() {
        const QString group = emptyGroupWithCommits(QStringLiteral("dry"));
        QVERIFY(!group.isEmpty());
        const auto dry = groupscope({QStringLiteral("delete"), QStringLiteral("--group"), group});
        QVERIFY2(dry.ok(), dry.err.constData());
        QVERIFY2(QString::fromUtf8(dry.out).contains(
                     QRegularExpression(QStringLiteral("%1\\s+Empty\\s+0\\s+3").arg(group))),
                 dry.out.constData());
        QVERIFY2(dry.err.contains("Dry run: nothing was deleted"), dry.err.constData());
        QVERIFY(listedByKafka(group));
        QCOMPARE(test::committedOffsetsByKafka(group, m_topic), expectedOffsets());
    }

    // Kafka's tool deletes one twin, groupscope-cli the other: both are gone for Kafka's
    // tool afterwards, and both tools say so in the same words.
    void executeDeletesAsKafkasToolDoes() {
        const QString ours = emptyGroupWithCommits(QStringLiteral("ours"));
        const QString theirs = emptyGroupWithCommits(QStringLiteral("theirs"));
        QVERIFY(!ours.isEmpty() && !theirs.isEmpty());
        const auto byKafka = test::kafkaConsumerGroups(
            {QStringLiteral("--delete"), QStringLiteral("--group"), theirs});
        QVERIFY2(byKafka.ok(), byKafka.err.constData());
        // Kafka's --delete spelling works too.
        const auto byUs = groupscope({QStringLiteral("--delete"), QStringLiteral("--group"), ours,
                                      QStringLiteral("--execute")});
        QVERIFY2(byUs.ok(), byUs.err.constData());
        QCOMPARE(QString::fromUtf8(byUs.out).trimmed(),
                 QString::fromUtf8(byKafka.out).trimmed().replace(theirs, ours));
        QVERIFY(!listedByKafka(ours));
        QVERIFY(!listedByKafka(theirs));
        const auto described = test::kafkaConsumerGroups(
            {QStringLiteral("--describe"), QStringLiteral("--group"), ours});
        // Kafka 4.4 says "Group G not found." (3.9: "Consumer group 'G' does not exist.").
        const QByteArray said = described.out + described.err;
        QVERIFY2(said.contains("not found") || said.contains("does not exist"), said.constData());
    }

    // Undo commits the offsets the group had when it was deleted: the group is back.
    void undoRecreatesTheCommits() {
        const QString group = emptyGroupWithCommits(QStringLiteral("undone"));
        QVERIFY(!group.isEmpty());
        const auto deleted = groupscope({QStringLiteral("delete"), QStringLiteral("--group"), group,
                                         QStringLiteral("--execute")});
        QVERIFY2(deleted.ok(), deleted.err.constData());
        QVERIFY(test::committedOffsetsByKafka(group, m_topic).isEmpty());
        const QRegularExpressionMatch entry =
            QRegularExpression(QStringLiteral("journal entry (\\S+) "))
                .match(QString::fromUtf8(deleted.err));
        QVERIFY2(entry.hasMatch(), deleted.err.constData());
        const auto history =
            groupscope({QStringLiteral("history"), QStringLiteral("--group"), group});
        QVERIFY2(history.out.contains("delete group"), history.out.constData());
        const auto undone = groupscope({QStringLiteral("undo"), QStringLiteral("--entry"),
                                        entry.captured(1), QStringLiteral("--execute")});
        QVERIFY2(undone.ok(), undone.err.constData());
        QCOMPARE(test::committedOffsetsByKafka(group, m_topic), expectedOffsets());
        QVERIFY(listedByKafka(group));
    }

    // A live member: refused before anything is sent, the member named; the other group
    // of the same command is deleted, and each outcome is reported.
    void groupWithAMemberIsRefusedAndNamed() {
        const QString live = test::uniqueName(QStringLiteral("live"));
        test::ConsumerProtocolMember member(m_topic, live, QStringLiteral("delete-me-not"));
        QVERIFY(member.waitUntilAssigned(topicPartitions));
        const QString empty = emptyGroupWithCommits(QStringLiteral("beside"));
        QVERIFY(!empty.isEmpty());

        const auto dry = groupscope({QStringLiteral("delete"), QStringLiteral("--group"), live});
        QCOMPARE(dry.exitCode, 1);
        QVERIFY2(dry.err.contains("delete-me-not") && dry.err.contains("NON_EMPTY_GROUP"),
                 dry.err.constData());

        const auto both =
            groupscope({QStringLiteral("delete"), QStringLiteral("--group"), live,
                        QStringLiteral("--group"), empty, QStringLiteral("--execute")});
        QCOMPARE(both.exitCode, 1);
        QVERIFY2(both.err.contains(QStringLiteral("group '%1' was not deleted").arg(live).toUtf8()),
                 both.err.constData());
        QVERIFY2(both.err.contains("delete-me-not"), both.err.constData());
        QVERIFY2(both.out.contains(QStringLiteral("'%1'").arg(empty).toUtf8()),
                 both.out.constData());
        QVERIFY(listedByKafka(live));
        QVERIFY(!listedByKafka(empty));
    }

    void unknownGroupSaysSo() {
        const QString nobody = test::uniqueName(QStringLiteral("nobody"));
        const auto result = groupscope({QStringLiteral("delete"), QStringLiteral("--group"), nobody,
                                        QStringLiteral("--execute")});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("does not exist"), result.err.constData());
    }

    void usageErrorsNeedNoCluster() {
        const auto result =
            test::run(cliPath, {QStringLiteral("--bootstrap-server"), QStringLiteral("127.0.0.1:1"),
                                QStringLiteral("delete")});
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains("delete needs --group"), result.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestDeleteGroups)
#include "TestDeleteGroups.moc"
