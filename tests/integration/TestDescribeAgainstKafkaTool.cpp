// groupscope-cli's list and describe against Kafka's own kafka-consumer-groups on the real
// broker. The groups are made by an independent client (python3-kafka): one with commits
// and no members, one with two live members. Every partition, member and state must agree.
#include "KafkaToolServer.h"
#include "TestBroker.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <memory>
#include <optional>

using namespace groupscope;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");

test::ProcessResult runGroupscope(const QStringList& arguments) {
    return test::run(cliPath,
                     QStringList{QStringLiteral("--bootstrap-server"), test::bootstrapServers()} +
                         arguments);
}

// One row of Kafka's describe output, keyed by "topic:partition".
struct OracleRow {
    QString currentOffset, logEndOffset, lag, consumerId, host, clientId;
};

// Parses kafka-consumer-groups --describe: whitespace-separated columns GROUP TOPIC
// PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID.
QMap<QString, OracleRow> parseOracleDescribe(const QByteArray& output, const QString& group) {
    QMap<QString, OracleRow> rows;
    for (const QByteArray& line : output.split('\n')) {
        const QStringList cells = QString::fromUtf8(line).split(u' ', Qt::SkipEmptyParts);
        if (cells.size() != 9 || cells[0] != group)
            continue;
        rows.insert(cells[1] + u':' + cells[2],
                    {cells[3], cells[4], cells[5], cells[6], cells[7], cells[8]});
    }
    return rows;
}

QString jsonCell(const QJsonValue& value) {
    if (value.isNull() || value.isUndefined())
        return QStringLiteral("-");
    if (value.isDouble())
        return QString::number(value.toInteger());
    return value.toString();
}

QMap<QString, OracleRow> rowsFromJson(const QJsonObject& group) {
    QMap<QString, OracleRow> rows;
    for (const QJsonValue& value : group[QStringLiteral("partitions")].toArray()) {
        const QJsonObject p = value.toObject();
        rows.insert(p[QStringLiteral("topic")].toString() + u':' +
                        QString::number(p[QStringLiteral("partition")].toInt()),
                    {jsonCell(p[QStringLiteral("currentOffset")]),
                     jsonCell(p[QStringLiteral("logEndOffset")]),
                     jsonCell(p[QStringLiteral("lag")]), jsonCell(p[QStringLiteral("consumerId")]),
                     jsonCell(p[QStringLiteral("host")]), jsonCell(p[QStringLiteral("clientId")])});
    }
    return rows;
}

} // namespace

class TestDescribeAgainstKafkaTool : public QObject {
    Q_OBJECT

    QString m_orders, m_payments;
    QString m_emptyGroup, m_activeGroup;
    std::vector<std::unique_ptr<test::PythonGroupMember>> m_members;

    void startMember(const QString& clientId) {
        m_members.push_back(
            std::make_unique<test::PythonGroupMember>(m_orders, m_activeGroup, clientId, true));
    }

    QJsonObject describeJson(const QString& group) {
        const auto result = runGroupscope({QStringLiteral("describe"), QStringLiteral("--group"),
                                           group, QStringLiteral("--json")});
        if (!result.ok())
            qWarning("groupscope-cli failed (%d): %s", result.exitCode, result.err.constData());
        const QJsonArray groups = QJsonDocument::fromJson(result.out).array();
        return groups.isEmpty() ? QJsonObject() : groups.first().toObject();
    }

private slots:
    void initTestCase() {
        QString why;
        if (test::bootstrapServers(&why).isEmpty())
            QFAIL(qPrintable(why));
        QVERIFY2(QFileInfo::exists(cliPath), qPrintable(cliPath));
        m_orders = test::uniqueName(QStringLiteral("orders"));
        m_payments = test::uniqueName(QStringLiteral("payments"));
        m_emptyGroup = test::uniqueName(QStringLiteral("empty-group"));
        m_activeGroup = test::uniqueName(QStringLiteral("active-group"));
        QVERIFY(test::createTopic(m_orders, 4));
        QVERIFY(test::createTopic(m_payments, 2));
        for (int partition = 0; partition < 4; ++partition)
            QVERIFY(test::produce(m_orders, 10 * (partition + 1), partition));
        QVERIFY(test::produce(m_payments, 5, 0));
        QVERIFY(test::produce(m_payments, 7, 1));

        // Commits without members, with metadata on one partition; orders:3 never committed.
        const auto commit = test::runPython(QStringLiteral(R"(
from kafka import KafkaConsumer, TopicPartition
from kafka.structs import OffsetAndMetadata
c = KafkaConsumer(bootstrap_servers=BOOTSTRAP, group_id='%1', enable_auto_commit=False)
c.commit({TopicPartition('%2', 0): OffsetAndMetadata(3, None),
          TopicPartition('%2', 1): OffsetAndMetadata(20, None),
          TopicPartition('%2', 2): OffsetAndMetadata(5, 'checkpoint-7'),
          TopicPartition('%3', 1): OffsetAndMetadata(2, None)})
c.close()
)")
                                                .arg(m_emptyGroup, m_orders, m_payments));
        QVERIFY2(commit.ok(), commit.err.constData());

        startMember(QStringLiteral("oracle-member-a"));
        startMember(QStringLiteral("oracle-member-b"));
        // Stable with both members, each having committed its partitions.
        QVERIFY2(
            test::waitFor(
                [&] {
                    const QJsonObject group = describeJson(m_activeGroup);
                    if (group[QStringLiteral("state")].toString() != u"Stable" ||
                        group[QStringLiteral("members")].toArray().size() != 2)
                        return false;
                    const QJsonArray partitions = group[QStringLiteral("partitions")].toArray();
                    return partitions.size() == 4 &&
                           std::all_of(
                               partitions.begin(), partitions.end(), [](const QJsonValue& p) {
                                   return !p.toObject()[QStringLiteral("currentOffset")].isNull() &&
                                          !p.toObject()[QStringLiteral("consumerId")].isNull();
                               });
                },
                std::chrono::seconds(90)),
            "the two-member group did not become Stable with commits");
    }

    void cleanupTestCase() { m_members.clear(); } // each member leaves its group

    void describeMatchesKafkaTool_data() {
        QTest::addColumn<QString>("group");
        QTest::addColumn<int>("expectedRows");
        QTest::newRow("no members") << m_emptyGroup << 4;
        QTest::newRow("two live members") << m_activeGroup << 4;
    }
    void describeMatchesKafkaTool() {
        QFETCH(QString, group);
        QFETCH(int, expectedRows);
        const auto oracle = test::kafkaConsumerGroups(
            {QStringLiteral("--describe"), QStringLiteral("--group"), group});
        QVERIFY2(oracle.ok(), oracle.err.constData());
        const auto expected = parseOracleDescribe(oracle.out, group);
        const auto actual = rowsFromJson(describeJson(group));
        QCOMPARE(expected.size(), expectedRows);
        QCOMPARE(actual.keys(), expected.keys());
        for (auto it = expected.cbegin(); it != expected.cend(); ++it) {
            const OracleRow& want = it.value();
            const OracleRow& got = actual.value(it.key());
            const QByteArray where = it.key().toUtf8();
            QVERIFY2(got.currentOffset == want.currentOffset, where);
            QVERIFY2(got.logEndOffset == want.logEndOffset, where);
            QVERIFY2(got.lag == want.lag, where);
            QVERIFY2(got.consumerId == want.consumerId, where);
            QVERIFY2(got.host == want.host, where);
            QVERIFY2(got.clientId == want.clientId, where);
        }
    }

    void emptyGroupDetails() {
        const QJsonObject group = describeJson(m_emptyGroup);
        QCOMPARE(group[QStringLiteral("state")].toString(), QStringLiteral("Empty"));
        QCOMPARE(group[QStringLiteral("totalLag")].toInteger(),
                 qint64((10 - 3) + (20 - 20) + (30 - 5) + (7 - 2)));
        bool sawMetadata = false;
        for (const QJsonValue& p : group[QStringLiteral("partitions")].toArray())
            if (p.toObject()[QStringLiteral("metadata")].toString() == u"checkpoint-7")
                sawMetadata = true;
        QVERIFY(sawMetadata);
    }

    void membersMatchKafkaTool() {
        const auto oracle =
            test::kafkaConsumerGroups({QStringLiteral("--describe"), QStringLiteral("--group"),
                                       m_activeGroup, QStringLiteral("--members")});
        QVERIFY2(oracle.ok(), oracle.err.constData());
        QStringList expected; // consumer-id host client-id #partitions
        for (const QByteArray& line : oracle.out.split('\n')) {
            const QStringList cells = QString::fromUtf8(line).split(u' ', Qt::SkipEmptyParts);
            if (cells.size() == 5 && cells[0] == m_activeGroup)
                expected.append(cells.mid(1).join(u' '));
        }
        QStringList actual;
        for (const QJsonValue& value :
             describeJson(m_activeGroup)[QStringLiteral("members")].toArray()) {
            const QJsonObject m = value.toObject();
            actual.append(QStringList{
                m[QStringLiteral("consumerId")].toString(), m[QStringLiteral("host")].toString(),
                m[QStringLiteral("clientId")].toString(),
                QString::number(m[QStringLiteral("assignment")].toArray().size())}
                              .join(u' '));
        }
        expected.sort();
        actual.sort();
        QCOMPARE(expected.size(), 2);
        QCOMPARE(actual, expected);
    }

    void stateMatchesKafkaTool() {
        const auto oracle =
            test::kafkaConsumerGroups({QStringLiteral("--describe"), QStringLiteral("--group"),
                                       m_activeGroup, QStringLiteral("--state")});
        QVERIFY2(oracle.ok(), oracle.err.constData());
        QStringList cells;
        for (const QByteArray& line : oracle.out.split('\n'))
            if (line.startsWith(m_activeGroup.toUtf8() + ' '))
                cells = QString::fromUtf8(line).split(u' ', Qt::SkipEmptyParts);
        QVERIFY(cells.size() >= 4);
        const QJsonObject group = describeJson(m_activeGroup);
        QCOMPARE(QString::number(group[QStringLiteral("members")].toArray().size()), cells.last());
        QCOMPARE(group[QStringLiteral("state")].toString(), cells[cells.size() - 2]);
        QCOMPARE(group[QStringLiteral("assignor")].toString(), cells[cells.size() - 3]);
        QCOMPARE(group[QStringLiteral("protocolType")].toString(), QStringLiteral("consumer"));
    }

    void listMatchesKafkaTool() {
        const auto oracle =
            test::kafkaConsumerGroups({QStringLiteral("--list"), QStringLiteral("--state")});
        QVERIFY2(oracle.ok(), oracle.err.constData());
        QMap<QString, QString> expected;
        for (const QByteArray& line : oracle.out.split('\n')) {
            const QStringList cells = QString::fromUtf8(line).split(u' ', Qt::SkipEmptyParts);
            if (cells.size() == 2 && cells[0] != u"GROUP")
                expected.insert(cells[0], cells[1]);
        }
        const auto ours = runGroupscope({QStringLiteral("list"), QStringLiteral("--json")});
        QVERIFY2(ours.ok(), ours.err.constData());
        QMap<QString, QString> actual;
        for (const QJsonValue& value : QJsonDocument::fromJson(ours.out).array())
            actual.insert(value[QStringLiteral("group")].toString(),
                          value[QStringLiteral("state")].toString());
        QVERIFY(expected.contains(m_emptyGroup));
        QVERIFY(expected.contains(m_activeGroup));
        // Other tests share the broker and may create or finish groups between the two
        // calls, so compare the groups this test owns exactly and the rest by name.
        QCOMPARE(actual.value(m_emptyGroup), expected.value(m_emptyGroup));
        QCOMPARE(actual.value(m_activeGroup), expected.value(m_activeGroup));

        const auto plain = runGroupscope({QStringLiteral("list")});
        QVERIFY(plain.ok());
        const QStringList names = QString::fromUtf8(plain.out).split(u'\n', Qt::SkipEmptyParts);
        QVERIFY(names.contains(m_emptyGroup));
        QVERIFY(names.contains(m_activeGroup));
    }

    void textOutputHasKafkaColumns() {
        const auto ours =
            runGroupscope({QStringLiteral("describe"), QStringLiteral("--group"), m_emptyGroup});
        QVERIFY2(ours.ok(), ours.err.constData());
        const auto rows =
            parseOracleDescribe(ours.out, m_emptyGroup); // our text parses like Kafka's
        QCOMPARE(rows.size(), 4);
        QCOMPARE(rows.value(m_orders + QStringLiteral(":0")).lag, QStringLiteral("7"));
        QCOMPARE(rows.value(m_orders + QStringLiteral(":0")).consumerId, QStringLiteral("-"));
        QVERIFY(ours.out.contains("GROUP") && ours.out.contains("LOG-END-OFFSET"));
        QVERIFY(ours.err.contains("has no active members"));
    }

    void allGroupsIncludesBoth() {
        const auto ours = runGroupscope(
            {QStringLiteral("describe"), QStringLiteral("--all-groups"), QStringLiteral("--json")});
        QVERIFY2(ours.ok(), ours.err.constData());
        QStringList ids;
        for (const QJsonValue& value : QJsonDocument::fromJson(ours.out).array())
            ids.append(value[QStringLiteral("group")].toString());
        QVERIFY(ids.contains(m_emptyGroup));
        QVERIFY(ids.contains(m_activeGroup));
    }

    void unknownGroupIsAClearError() {
        const QString ghost = test::uniqueName(QStringLiteral("no-such-group"));
        const auto ours =
            runGroupscope({QStringLiteral("describe"), QStringLiteral("--group"), ghost});
        QCOMPARE(ours.exitCode, 1);
        QVERIFY2(ours.err.contains(
                     QStringLiteral("Consumer group '%1' does not exist").arg(ghost).toUtf8()),
                 ours.err.constData());
    }

    // The oracle the integration tests ask (one JVM serving Kafka's tools) answers as the
    // tool's own script does: the same stdout, stderr and exit code for an answer, for a
    // usage error (the tool ends the JVM through Kafka's Exit) and for an exception out of
    // its main.
    void servedToolAnswersAsItsScript_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("describe") << QStringList{QStringLiteral("--describe"),
                                                 QStringLiteral("--group"), m_emptyGroup}
                                  << 0;
        QTest::newRow("usage error")
            << QStringList{QStringLiteral("--delete"), QStringLiteral("--group"), m_emptyGroup,
                           QStringLiteral("--topic"), QStringLiteral("any")}
            << 1;
        QTest::newRow("unknown option") << QStringList{QStringLiteral("--no-such-option")} << 1;
    }
    void servedToolAnswersAsItsScript() {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        arguments =
            QStringList{QStringLiteral("--bootstrap-server"), test::bootstrapServers()} + arguments;
        const auto script =
            test::run(QStringLiteral(GROUPSCOPE_TESTBED_DIR "/kafka-consumer-groups"), arguments);
        const auto served = test::runKafkaTool(QStringLiteral("kafka-consumer-groups"), arguments);
        QCOMPARE(script.exitCode, exitCode);
        QCOMPARE(served.exitCode, script.exitCode);
        QCOMPARE(served.out, script.out);
        QCOMPARE(served.err, script.err);
    }

    void unreachableBootstrapFailsWithinTimeout_data() {
        QTest::addColumn<QString>("listener");
        QTest::addColumn<QStringList>("command");
        // Enough groups to be spread over several connections: each must give up in time.
        QStringList manyGroups{QStringLiteral("describe")};
        for (int i = 0; i < 200; ++i)
            manyGroups << QStringLiteral("--group") << QStringLiteral("g%1").arg(i);
        const QStringList commands[] = {
            {QStringLiteral("list")},
            {QStringLiteral("describe"), QStringLiteral("--group"), QStringLiteral("g")},
            {QStringLiteral("describe"), QStringLiteral("--group"), QStringLiteral("g"),
             QStringLiteral("--members")},
            {QStringLiteral("describe"), QStringLiteral("--group"), QStringLiteral("g"),
             QStringLiteral("--json")},
            {QStringLiteral("describe"), QStringLiteral("--all-groups")},
            manyGroups,
        };
        // Port 1 on loopback refuses connections; a silent listener accepts them and never
        // answers (a broker that hangs, or a port that is not Kafka's).
        for (const QString& listener : {QStringLiteral("refused"), QStringLiteral("silent")})
            for (const QStringList& command : commands)
                QTest::addRow("%s: %s", qPrintable(listener),
                              qPrintable(command.size() > 10 ? QStringLiteral("describe 200 groups")
                                                             : command.join(u' ')))
                    << listener << command;
    }

    // "An error within the timeout naming the address, never a hang", for every command
    // that talks to the cluster: not one timeout per step of the command.
    void unreachableBootstrapFailsWithinTimeout() {
        QFETCH(QString, listener);
        QFETCH(QStringList, command);
        QString address = QStringLiteral("127.0.0.1:1");
        std::optional<test::SilentListener> silentListener;
        if (listener == u"silent") {
            silentListener.emplace();
            address = silentListener->address();
            QVERIFY(!address.isEmpty());
        }
        constexpr int timeoutMs = 1000;
        // Starting the process and librdkafka's handle takes a few tens of milliseconds.
        constexpr int slackMs = 500;
        QElapsedTimer elapsed;
        elapsed.start();
        const auto result =
            test::run(cliPath,
                      QStringList{QStringLiteral("--bootstrap-server"), address,
                                  QStringLiteral("--timeout"), QString::number(timeoutMs)} +
                          command,
                      {}, std::chrono::seconds(30));
        const qint64 tookMs = elapsed.elapsed();
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains(address.toUtf8()), result.err.constData());
        // A refused connection fails at once and says so; a silent one waits out the
        // deadline and says that.
        QVERIFY2(result.err.contains(listener == u"silent" ? "timed out" : "refused"),
                 result.err.constData());
        QVERIFY2(tookMs < timeoutMs + slackMs,
                 qPrintable(QStringLiteral("took %1 ms with --timeout %2: %3")
                                .arg(tookMs)
                                .arg(timeoutMs)
                                .arg(QString::fromUtf8(result.err))));
    }
};

QTEST_GUILESS_MAIN(TestDescribeAgainstKafkaTool)
#include "TestDescribeAgainstKafkaTool.moc"
