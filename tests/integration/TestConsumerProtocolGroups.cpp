// A group of the new consumer protocol (KIP-848) on Kafka 4.4, its member Kafka's own Java
// consumer with group.protocol=consumer (an independent client): groupscope-cli's list,
// describe, members and state against Kafka 4.4's kafka-consumer-groups, and a reset that
// is refused while the member lives, then applied, read back and undone once it has left.
#include "GroupMembers.h"
#include "TestBroker.h"
#include "ToolTables.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>

using namespace groupscope;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");

} // namespace

class TestConsumerProtocolGroups : public QObject {
    Q_OBJECT

    QTemporaryDir m_dataDir; // the audit log of this test
    QString m_topic;
    QString m_group;
    std::unique_ptr<test::ConsumerProtocolMember> m_member;

    test::ProcessResult groupscope(const QStringList& arguments) {
        qputenv("GROUPSCOPE_DATA_DIR", m_dataDir.path().toUtf8());
        return test::run(
            cliPath, QStringList{QStringLiteral("--bootstrap-server"), test::bootstrapServers()} +
                         test::afterSetupCommits(arguments));
    }
    test::ProcessResult kafkaTool(const QStringList& arguments) {
        return test::kafkaConsumerGroups(arguments);
    }

private slots:
    void initTestCase() {
        SKIP_WITHOUT_TEST_BROKER();
        QVERIFY(m_dataDir.isValid());
        m_topic = test::uniqueName(QStringLiteral("kip848-orders"));
        m_group = test::uniqueName(QStringLiteral("kip848-group"));
        QVERIFY(test::createTopic(m_topic, 3));
        for (int partition = 0; partition < 3; ++partition)
            QVERIFY(test::produce(m_topic, 20, partition));
        // Commits first (an empty classic group, which Kafka converts when the member
        // joins): the member never commits, so the offsets stay what the test set.
        QVERIFY(test::commitOffsets(m_group, m_topic, {5, 6, 7}));
        m_member = std::make_unique<test::ConsumerProtocolMember>(m_topic, m_group,
                                                                  QStringLiteral("kip848-c1"));
        QVERIFY2(m_member->waitUntilAssigned(3), "the Java member never owned the 3 partitions");
    }

    void cleanupTestCase() { m_member.reset(); }

    void listShowsTheTypeAsKafkasTool() {
        const auto oracle = kafkaTool({QStringLiteral("--list"), QStringLiteral("--type")});
        QVERIFY2(oracle.ok(), oracle.err.constData());
        const auto ours = groupscope({QStringLiteral("list"), QStringLiteral("--type")});
        QVERIFY2(ours.ok(), ours.err.constData());
        QCOMPARE(test::tableHeaderOf(ours.out), test::tableHeaderOf(oracle.out));
        QCOMPARE(test::tableRowsOf(ours.out, m_group), test::tableRowsOf(oracle.out, m_group));
        QCOMPARE(test::tableRowsOf(ours.out, m_group).value(0).value(1),
                 QStringLiteral("Consumer"));

        // The type filter and JSON.
        const auto consumers = groupscope(
            {QStringLiteral("list"), QStringLiteral("--type"), QStringLiteral("consumer")});
        QVERIFY(test::tableRowsOf(consumers.out, m_group).size() == 1);
        const auto classics = groupscope(
            {QStringLiteral("list"), QStringLiteral("--type"), QStringLiteral("classic")});
        QVERIFY2(classics.ok(), classics.err.constData());
        QVERIFY(test::tableRowsOf(classics.out, m_group).isEmpty());
        const auto json = groupscope({QStringLiteral("list"), QStringLiteral("--json")});
        bool found = false;
        for (const QJsonValue& value : QJsonDocument::fromJson(json.out).array())
            if (value[QStringLiteral("group")].toString() == m_group) {
                found = true;
                QCOMPARE(value[QStringLiteral("type")].toString(), QStringLiteral("Consumer"));
            }
        QVERIFY(found);
    }

    void describeShowsTheMemberOwningEveryPartition() {
        const QStringList arguments{QStringLiteral("--describe"), QStringLiteral("--group"),
                                    m_group};
        const auto oracle = kafkaTool(arguments);
        QVERIFY2(oracle.ok(), oracle.err.constData());
        const auto ours =
            groupscope({QStringLiteral("describe"), QStringLiteral("--group"), m_group});
        QVERIFY2(ours.ok(), ours.err.constData());
        QCOMPARE(test::tableHeaderOf(ours.out), test::tableHeaderOf(oracle.out));
        QList<QStringList> expected = test::tableRowsOf(oracle.out, m_group);
        QList<QStringList> actual = test::tableRowsOf(ours.out, m_group);
        std::sort(expected.begin(), expected.end());
        std::sort(actual.begin(), actual.end());
        QCOMPARE(expected.size(), 3);
        QCOMPARE(actual, expected);
        for (const QStringList& row : expected)
            QCOMPARE(row.last(), QStringLiteral("kip848-c1")); // CLIENT-ID: owned, not "-"
        QVERIFY2(!ours.err.contains("no active members"), ours.err.constData());
    }

    void membersMatchKafkasToolWithTheTargetAssignment() {
        for (const bool verbose : {false, true}) {
            QStringList arguments{QStringLiteral("--describe"), QStringLiteral("--group"), m_group,
                                  QStringLiteral("--members")};
            if (verbose)
                arguments.append(QStringLiteral("--verbose"));
            const auto oracle = kafkaTool(arguments);
            QVERIFY2(oracle.ok(), oracle.err.constData());
            arguments[0] = QStringLiteral("describe");
            const auto ours = groupscope(arguments);
            QVERIFY2(ours.ok(), ours.err.constData());
            const QStringList header = test::tableHeaderOf(oracle.out);
            QCOMPARE(test::tableHeaderOf(ours.out), header);
            const QList<QStringList> expected = test::tableRowsOf(oracle.out, m_group);
            const QList<QStringList> actual = test::tableRowsOf(ours.out, m_group);
            QCOMPARE(expected.size(), 1);
            QCOMPARE(actual.size(), 1);
            for (int column = 0; column < header.size(); ++column) {
                QVERIFY2(actual[0].value(column) == expected[0].value(column),
                         qPrintable(QStringLiteral("%1: ours %2, Kafka's %3")
                                        .arg(header[column], actual[0].value(column),
                                             expected[0].value(column))));
            }
        }
        // JSON has the target and says the member has converged on it.
        const auto json = groupscope({QStringLiteral("describe"), QStringLiteral("--group"),
                                      m_group, QStringLiteral("--json")});
        const QJsonObject group = QJsonDocument::fromJson(json.out).array().first().toObject();
        QCOMPARE(group[QStringLiteral("type")].toString(), QStringLiteral("Consumer"));
        const QJsonObject member = group[QStringLiteral("members")].toArray().first().toObject();
        QCOMPARE(member[QStringLiteral("targetAssignment")].toArray().size(), 3);
        QCOMPARE(member[QStringLiteral("reconciling")].toBool(true), false);
    }

    void stateMatchesKafkasTool() {
        // Every cell, the coordinator and (verbose) the group and target assignment epochs
        // included.
        for (const bool verbose : {false, true}) {
            QStringList arguments{QStringLiteral("--describe"), QStringLiteral("--group"), m_group,
                                  QStringLiteral("--state")};
            if (verbose)
                arguments.append(QStringLiteral("--verbose"));
            const auto oracle = kafkaTool(arguments);
            QVERIFY2(oracle.ok(), oracle.err.constData());
            arguments[0] = QStringLiteral("describe");
            const auto ours = groupscope(arguments);
            QVERIFY2(ours.ok(), ours.err.constData());
            QCOMPARE(test::tableHeaderOf(ours.out), test::tableHeaderOf(oracle.out));
            const QStringList expected = test::tableRowsOf(oracle.out, m_group).value(0);
            QVERIFY(expected.size() >= 5);
            QCOMPARE(test::tableRowsOf(ours.out, m_group).value(0), expected);
        }
    }

    void aResetIsRefusedBeforeAnythingIsSentWhileTheMemberLives() {
        const auto refused =
            groupscope({QStringLiteral("reset"), QStringLiteral("--group"), m_group,
                        QStringLiteral("--topic"), m_topic, QStringLiteral("--to-offset"),
                        QStringLiteral("2"), QStringLiteral("--execute")});
        QVERIFY2(refused.exitCode != 0, refused.out.constData());
        QVERIFY2(refused.err.contains("kip848-c1"), refused.err.constData()); // names the member
        QCOMPARE(test::committedOffsetsByKafka(m_group, m_topic),
                 (QMap<int, qlonglong>{{0, 5}, {1, 6}, {2, 7}}));
        const auto history = groupscope({QStringLiteral("history"), QStringLiteral("--group"),
                                         m_group, QStringLiteral("--json")});
        QVERIFY(QJsonDocument::fromJson(history.out).array().isEmpty()); // nothing applied
    }

    void onceEmptyItIsResetReadBackAndUndone() {
        QVERIFY(m_member->leave());
        QVERIFY2(test::waitFor(
                     [&] {
                         const auto state =
                             kafkaTool({QStringLiteral("--describe"), QStringLiteral("--group"),
                                        m_group, QStringLiteral("--state")});
                         return test::tableRowsOf(state.out, m_group)
                             .value(0)
                             .contains(QStringLiteral("Empty"));
                     },
                     std::chrono::seconds(60)),
                 "the group never became Empty after its member left");
        const auto applied =
            groupscope({QStringLiteral("reset"), QStringLiteral("--group"), m_group,
                        QStringLiteral("--topic"), m_topic, QStringLiteral("--to-offset"),
                        QStringLiteral("2"), QStringLiteral("--execute")});
        QVERIFY2(applied.ok(), applied.err.constData());
        QCOMPARE(test::committedOffsetsByKafka(m_group, m_topic),
                 (QMap<int, qlonglong>{{0, 2}, {1, 2}, {2, 2}}));
        // Kafka's tool reads the same back.
        const auto described =
            kafkaTool({QStringLiteral("--describe"), QStringLiteral("--group"), m_group});
        for (const QStringList& row : test::tableRowsOf(described.out, m_group))
            QCOMPARE(row.value(3), QStringLiteral("2")); // CURRENT-OFFSET

        const auto history = groupscope({QStringLiteral("history"), QStringLiteral("--group"),
                                         m_group, QStringLiteral("--json")});
        const QJsonArray entries = QJsonDocument::fromJson(history.out).array();
        QCOMPARE(entries.size(), 1);
        const auto undone = groupscope({QStringLiteral("undo"), QStringLiteral("--entry"),
                                        entries.first()[QStringLiteral("id")].toString(),
                                        QStringLiteral("--execute")});
        QVERIFY2(undone.ok(), undone.err.constData());
        QCOMPARE(test::committedOffsetsByKafka(m_group, m_topic),
                 (QMap<int, qlonglong>{{0, 5}, {1, 6}, {2, 7}}));
    }
};

QTEST_GUILESS_MAIN(TestConsumerProtocolGroups)
#include "TestConsumerProtocolGroups.moc"
