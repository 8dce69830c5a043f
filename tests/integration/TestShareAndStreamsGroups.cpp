// Share groups (KIP-932) and streams groups (KIP-1071) on Kafka 4.4, their members
// independent clients (Kafka's console share consumer, a Kafka Streams application):
// groupscope-cli's list, describe, members and state equal Kafka 4.4's kafka-groups,
// kafka-share-groups and kafka-streams-groups; a share group's start offsets are reset
// (refused while its member lives), read back through kafka-share-groups, undone and
// deleted.
#include "GroupMembers.h"
#include "TestBroker.h"
#include "ToolTables.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>

using namespace groupscope;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");

// The rows whose first cell is `group`, sorted (Kafka's tools print partitions in the
// broker's order).
QList<QStringList> rowsOf(const QByteArray& output, const QString& group) {
    QList<QStringList> rows = test::tableRowsOf(output, group);
    std::sort(rows.begin(), rows.end());
    return rows;
}

} // namespace

class TestShareAndStreamsGroups : public QObject {
    Q_OBJECT

    QTemporaryDir m_dataDir; // the audit log of this test
    QString m_topic;
    QString m_shareGroup;
    QString m_streamsGroup;
    std::unique_ptr<test::ShareGroupMember> m_shareMember;
    std::unique_ptr<test::StreamsAppMember> m_streamsMember;

    test::ProcessResult groupscope(const QStringList& arguments) {
        qputenv("GROUPSCOPE_DATA_DIR", m_dataDir.path().toUtf8());
        return test::run(
            cliPath, QStringList{QStringLiteral("--bootstrap-server"), test::bootstrapServers()} +
                         test::afterSetupCommits(arguments));
    }

    // Runs `describe` through both tools with the same view options and compares header
    // and rows cell by cell.
    void compareDescribe(const QString& tool, const QString& group, const QStringList& options) {
        const auto oracle = test::kafkaTool(
            tool,
            QStringList{QStringLiteral("--describe"), QStringLiteral("--group"), group} + options);
        QVERIFY2(oracle.ok(), oracle.err.constData());
        const auto ours = groupscope(
            QStringList{QStringLiteral("describe"), QStringLiteral("--group"), group} + options);
        QVERIFY2(ours.ok(), ours.err.constData());
        const QString what = tool + u' ' + options.join(u' ');
        QVERIFY2(!test::tableHeaderOf(oracle.out).isEmpty(),
                 qPrintable(what + QStringLiteral(": ") + QString::fromUtf8(oracle.out)));
        QCOMPARE(test::tableHeaderOf(ours.out), test::tableHeaderOf(oracle.out));
        const QList<QStringList> expected = rowsOf(oracle.out, group);
        QVERIFY2(!expected.isEmpty(), qPrintable(what));
        QCOMPARE(rowsOf(ours.out, group), expected);
    }

    bool waitUntilShareGroupIsEmpty() {
        return test::waitFor(
            [&] {
                const auto state =
                    test::kafkaTool(QStringLiteral("kafka-share-groups"),
                                    {QStringLiteral("--describe"), QStringLiteral("--group"),
                                     m_shareGroup, QStringLiteral("--state")});
                return rowsOf(state.out, m_shareGroup).value(0).contains(QStringLiteral("Empty"));
            },
            std::chrono::seconds(60));
    }

    // START-OFFSET per partition, as kafka-share-groups --describe prints it.
    QMap<int, QString> shareStartOffsetsByKafka() {
        const auto described = test::kafkaTool(
            QStringLiteral("kafka-share-groups"),
            {QStringLiteral("--describe"), QStringLiteral("--group"), m_shareGroup});
        QMap<int, QString> offsets;
        for (const QStringList& row : rowsOf(described.out, m_shareGroup))
            offsets.insert(row.value(2).toInt(), row.value(3));
        return offsets;
    }

private slots:
    void initTestCase() {
        SKIP_WITHOUT_TEST_BROKER();
        QVERIFY(m_dataDir.isValid());
        m_topic = test::uniqueName(QStringLiteral("queues-orders"));
        m_shareGroup = test::uniqueName(QStringLiteral("queues-share"));
        m_streamsGroup = test::uniqueName(QStringLiteral("queues-streams"));
        const QString output = m_streamsGroup + QStringLiteral("-out");
        QVERIFY(test::createTopic(m_topic, 2));
        QVERIFY(test::createTopic(output, 2));
        for (int partition = 0; partition < 2; ++partition)
            QVERIFY(test::produce(m_topic, 10, partition));
        m_shareMember = std::make_unique<test::ShareGroupMember>(m_topic, m_shareGroup);
        m_streamsMember = std::make_unique<test::StreamsAppMember>(m_streamsGroup, m_topic, output,
                                                                   QStringLiteral("queues-app"));
        QVERIFY2(m_shareMember->waitUntilAssigned(2), "the share consumer never got 2 partitions");
        QVERIFY2(m_streamsMember->waitUntilRunning(), "the Streams application never ran");
        // Records after both joined: the share group delivers them (its start offset was
        // the log end when it joined), the streams app commits past them.
        for (int partition = 0; partition < 2; ++partition)
            QVERIFY(test::produce(m_topic, 5, partition));
        QVERIFY2(test::waitFor(
                     [&] {
                         const auto offsets =
                             test::kafkaTool(QStringLiteral("kafka-streams-groups"),
                                             {QStringLiteral("--describe"),
                                              QStringLiteral("--group"), m_streamsGroup});
                         return rowsOf(offsets.out, m_streamsGroup).size() >= 2;
                     },
                     std::chrono::seconds(90)),
                 "the streams group never committed");
    }

    void cleanupTestCase() {
        m_shareMember.reset();
        m_streamsMember.reset();
    }

    void listShowsEveryTypeAsKafkaGroups() {
        const auto oracle =
            test::kafkaTool(QStringLiteral("kafka-groups"), {QStringLiteral("--list")});
        QVERIFY2(oracle.ok(), oracle.err.constData());
        const auto ours = groupscope(
            {QStringLiteral("list"), QStringLiteral("--type"), QStringLiteral("--protocol")});
        QVERIFY2(ours.ok(), ours.err.constData());
        QCOMPARE(test::tableHeaderOf(ours.out),
                 test::tableHeaderOf(oracle.out)); // GROUP TYPE PROTOCOL
        for (const QString& group : {m_shareGroup, m_streamsGroup})
            QCOMPARE(rowsOf(ours.out, group), rowsOf(oracle.out, group));
        QCOMPARE(rowsOf(ours.out, m_shareGroup).value(0).value(1), QStringLiteral("Share"));
        QCOMPARE(rowsOf(ours.out, m_streamsGroup).value(0).value(1), QStringLiteral("Streams"));
        // The type filter keeps only share groups.
        const auto shares =
            groupscope({QStringLiteral("list"), QStringLiteral("--type"), QStringLiteral("share")});
        QCOMPARE(rowsOf(shares.out, m_shareGroup).size(), 1);
        QVERIFY(rowsOf(shares.out, m_streamsGroup).isEmpty());
    }

    void shareGroupDescribesAsKafkaShareGroups() {
        const QString tool = QStringLiteral("kafka-share-groups");
        compareDescribe(tool, m_shareGroup, {});
        compareDescribe(tool, m_shareGroup, {QStringLiteral("--members")});
        compareDescribe(tool, m_shareGroup,
                        {QStringLiteral("--members"), QStringLiteral("--verbose")});
        compareDescribe(tool, m_shareGroup, {QStringLiteral("--state")});
        compareDescribe(tool, m_shareGroup,
                        {QStringLiteral("--state"), QStringLiteral("--verbose")});
    }

    void streamsGroupDescribesAsKafkaStreamsGroups() {
        const QString tool = QStringLiteral("kafka-streams-groups");
        compareDescribe(tool, m_streamsGroup, {});
        compareDescribe(tool, m_streamsGroup, {QStringLiteral("--members")});
        compareDescribe(tool, m_streamsGroup,
                        {QStringLiteral("--members"), QStringLiteral("--verbose")});
        compareDescribe(tool, m_streamsGroup, {QStringLiteral("--state")});
        compareDescribe(tool, m_streamsGroup,
                        {QStringLiteral("--state"), QStringLiteral("--verbose")});
    }

    void aShareResetIsRefusedWhileTheMemberLives() {
        const QMap<int, QString> before = shareStartOffsetsByKafka();
        QCOMPARE(before.size(), 2);
        const auto refused =
            groupscope({QStringLiteral("reset"), QStringLiteral("--group"), m_shareGroup,
                        QStringLiteral("--topic"), m_topic, QStringLiteral("--to-earliest"),
                        QStringLiteral("--execute")});
        QVERIFY2(refused.exitCode != 0, refused.out.constData());
        QVERIFY2(refused.err.contains("active member"), refused.err.constData());
        QCOMPARE(shareStartOffsetsByKafka(), before);
    }

    void onceEmptyAShareResetIsAppliedReadBackUndoneAndDeleted() {
        const QMap<int, QString> before = shareStartOffsetsByKafka();
        QVERIFY(m_shareMember->leave());
        QVERIFY2(waitUntilShareGroupIsEmpty(), "the share group never became Empty");
        const auto applied =
            groupscope({QStringLiteral("reset"), QStringLiteral("--group"), m_shareGroup,
                        QStringLiteral("--topic"), m_topic, QStringLiteral("--to-earliest"),
                        QStringLiteral("--execute")});
        QVERIFY2(applied.ok(), applied.err.constData());
        QCOMPARE(shareStartOffsetsByKafka(),
                 (QMap<int, QString>{{0, QStringLiteral("0")}, {1, QStringLiteral("0")}}));

        const auto history = groupscope({QStringLiteral("history"), QStringLiteral("--group"),
                                         m_shareGroup, QStringLiteral("--json")});
        const QJsonArray entries = QJsonDocument::fromJson(history.out).array();
        QCOMPARE(entries.size(), 1);
        const auto undone = groupscope({QStringLiteral("undo"), QStringLiteral("--entry"),
                                        entries.first()[QStringLiteral("id")].toString(),
                                        QStringLiteral("--execute")});
        QVERIFY2(undone.ok(), undone.err.constData());
        QCOMPARE(shareStartOffsetsByKafka(), before);

        // Deleting part of a topic would delete all of it: refused, nothing changes.
        const auto partial =
            groupscope({QStringLiteral("delete-offsets"), QStringLiteral("--group"), m_shareGroup,
                        QStringLiteral("--topic"), m_topic + QStringLiteral(":0"),
                        QStringLiteral("--execute")});
        QVERIFY(partial.exitCode != 0);
        // Reported on the partition's row, as every refused write is.
        QVERIFY2((partial.out + partial.err).contains("whole topics"), partial.out.constData());
        QCOMPARE(shareStartOffsetsByKafka(), before);
        const auto deleted =
            groupscope({QStringLiteral("delete-offsets"), QStringLiteral("--group"), m_shareGroup,
                        QStringLiteral("--topic"), m_topic, QStringLiteral("--execute")});
        QVERIFY2(deleted.ok(), deleted.err.constData());
        QVERIFY(shareStartOffsetsByKafka().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestShareAndStreamsGroups)
#include "TestShareAndStreamsGroups.moc"
