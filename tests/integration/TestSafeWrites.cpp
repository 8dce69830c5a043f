// How Groupscope keeps writes safe, on the real broker with independent consumers
// (python3-kafka) and Kafka's own tool as the reader of what was written:
//   - an armed shift lands relative to where the group stood when it emptied, not where it
//     stood at the preview, and the output names the row that moved;
//   - a group without members that an assign() consumer still commits to is refused by
//     default; forced, the write is read again and reported overwritten;
//   - undo names the partitions that moved since the entry (a reset, a group delete) and
//     restores only what it is told to;
//   - a write whose answer is lost (timeout after sending) is read back, never recorded as
//     unchanged; a process killed at any point of a write (before its request reached the
//     broker, while it is on the wire, before the outcome was recorded) leaves an entry in
//     doubt, which the next process that connects resolves from the broker;
//   - Ctrl-C before the write is sent writes nothing (exit 130); after, the outcome is
//     still recorded;
//   - a member that joins between the check and the write: the broker's refusal is
//     reported for each partition; an armed reset records it and waits again.
#include "FaultyProxy.h"
#include "TestBroker.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>

using namespace groupscope;
using namespace std::chrono_literals;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");

// A python3-kafka client of the test that runs until its standard input closes, printing
// what it did, and reading a line on its standard input where the script waits for one.
class PythonClient {
public:
    explicit PythonClient(const QString& script) {
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(
            QStringLiteral("/usr/bin/python3"),
            {QStringLiteral("-c"),
             QStringLiteral("BOOTSTRAP = '%1'\n").arg(test::bootstrapServers()) + script});
    }
    ~PythonClient() {
        m_process.closeWriteChannel();
        if (!m_process.waitForFinished(20000))
            m_process.kill();
    }
    // True once it printed `text`.
    bool waitForOutput(const QByteArray& text, std::chrono::milliseconds timeout = 60s) {
        return test::waitFor(
            [&] {
                m_output += m_process.readAllStandardOutput();
                return m_output.contains(text);
            },
            timeout);
    }
    void send(const QByteArray& line) { m_process.write(line + '\n'); }
    bool stop() {
        m_process.closeWriteChannel();
        return m_process.state() == QProcess::NotRunning || m_process.waitForFinished(30000);
    }

private:
    QProcess m_process;
    QByteArray m_output;
};

std::optional<qint64> currentOffsetByKafka(const QString& group, const QString& topic,
                                           int partition) {
    const auto rows = test::describedByKafka(group);
    if (!rows)
        return std::nullopt;
    for (const auto& row : *rows)
        if (row.topic == topic && row.partition == partition)
            return row.currentOffset;
    return std::nullopt;
}

// The broker gets the next offset write and applies it; its answer reaches the client
// `delay` later.
void holdBackNextOffsetCommitAnswer(test::FaultyProxy& proxy, std::chrono::milliseconds delay) {
    test::FaultyProxy::Fault fault;
    fault.mode = test::FaultyProxy::Mode::DelayResponse;
    fault.api = kafka::protocol::ApiKey::OffsetCommit;
    fault.delay = delay;
    fault.times = 1;
    proxy.setFault(fault);
}

// The next offset write waits in the proxy, unseen by the broker, until released (or the
// writing process is gone, and with it the request).
void holdBackNextOffsetCommit(test::FaultyProxy& proxy) {
    test::FaultyProxy::Fault fault;
    fault.mode = test::FaultyProxy::Mode::HoldRequest;
    fault.api = kafka::protocol::ApiKey::OffsetCommit;
    fault.delay = 600s;
    fault.times = 1;
    proxy.setFault(fault);
}

// The next offset write is answered at once; the read of the group that follows it (the
// outcome's read-back) gets its answer only after the test ended.
void holdBackTheReadAfterTheNextOffsetCommit(test::FaultyProxy& proxy) {
    test::FaultyProxy::Fault commit;
    commit.mode = test::FaultyProxy::Mode::DelayResponse;
    commit.api = kafka::protocol::ApiKey::OffsetCommit;
    commit.times = 1;
    proxy.setFaultObserver([&proxy](kafka::protocol::ApiKey api) {
        if (api != kafka::protocol::ApiKey::OffsetCommit)
            return;
        test::FaultyProxy::Fault readBack;
        readBack.mode = test::FaultyProxy::Mode::DelayResponse;
        readBack.api = kafka::protocol::ApiKey::OffsetFetch;
        readBack.delay = 600s;
        proxy.setFault(readBack);
    });
    proxy.setFault(commit);
}

} // namespace

class TestSafeWrites : public QObject {
    Q_OBJECT

    QTemporaryDir m_dataDir; // the write journal of this test
    QString m_topic;         // 2 partitions, 200 records each

    test::ProcessResult cli(const QStringList& arguments, const QString& bootstrap = {}) {
        return test::run(cliPath,
                         QStringList{QStringLiteral("--bootstrap-server"),
                                     bootstrap.isEmpty() ? test::bootstrapServers() : bootstrap} +
                             arguments);
    }

    QJsonObject journalEntry(const QString& group) {
        const auto history = cli({QStringLiteral("history"), QStringLiteral("--group"), group,
                                  QStringLiteral("--json")});
        const QJsonArray entries = QJsonDocument::fromJson(history.out).array();
        return entries.isEmpty() ? QJsonObject() : entries.last().toObject();
    }

    // Runs a write until it is no longer refused for a consumer that committed moments ago
    // (the test's own set-up commit): a refusal writes nothing, so asking again is safe, and
    // it is what a user would do once that consumer is known to be gone.
    test::ProcessResult writeOnceCommitsSettle(const QStringList& arguments) {
        test::ProcessResult result;
        test::waitFor(
            [&] {
                result = cli(arguments);
                return !result.err.contains("a consumer using assign()");
            },
            60s);
        return result;
    }

private slots:
    void initTestCase() {
        SKIP_WITHOUT_TEST_BROKER();
        QVERIFY(m_dataDir.isValid());
        qputenv("GROUPSCOPE_DATA_DIR", m_dataDir.path().toUtf8());
        m_topic = test::uniqueName(QStringLiteral("safe-writes"));
        QVERIFY(test::createTopic(m_topic, 2));
        QVERIFY(test::produce(m_topic, 200, 0));
        QVERIFY(test::produce(m_topic, 200, 1));
    }

    // The plan says 40 - 5 = 35; the member goes on to 120 before it leaves: 115 is written.
    void armedShiftLandsWhereTheGroupEmptied() {
        const QString group = test::uniqueName(QStringLiteral("safe-armed"));
        PythonClient member(QStringLiteral(R"(
import sys
from kafka import KafkaConsumer, TopicPartition
from kafka.structs import OffsetAndMetadata
c = KafkaConsumer(bootstrap_servers=BOOTSTRAP, group_id='%1', enable_auto_commit=False,
                  client_id='safe-writes-member')
c.subscribe(['%2'])
while not c.assignment():
    c.poll(timeout_ms=200)
tps = sorted(c.assignment())
c.commit({tp: OffsetAndMetadata(40, '') for tp in tps})
print('at 40', flush=True)
sys.stdin.readline()
for offset in range(41, 121):
    c.commit({tp: OffsetAndMetadata(offset, '') for tp in tps})
print('at 120', flush=True)
c.close()
)")
                                .arg(group, m_topic));
        QVERIFY(member.waitForOutput("at 40"));

        QProcess reset;
        reset.start(cliPath, {QStringLiteral("--bootstrap-server"), test::bootstrapServers(),
                              QStringLiteral("reset"), QStringLiteral("--group"), group,
                              QStringLiteral("--topic"), m_topic, QStringLiteral("--shift-by"),
                              QStringLiteral("-5"), QStringLiteral("--execute"),
                              QStringLiteral("--wait-until-empty"), QStringLiteral("90"),
                              QStringLiteral("--verify-for"), QStringLiteral("0")});
        QByteArray output;
        QVERIFY(test::waitFor(
            [&] {
                output += reset.readAllStandardOutput() + reset.readAllStandardError();
                return output.contains("Waiting up to");
            },
            60s));
        QVERIFY2(output.contains(" 35 "), output.constData()); // the preview: 40 - 5
        member.send("go");
        QVERIFY(member.waitForOutput("at 120"));
        QVERIFY(member.stop());
        QVERIFY(reset.waitForFinished(120000));
        output += reset.readAllStandardOutput() + reset.readAllStandardError();
        QVERIFY2(reset.exitCode() == 0, output.constData());
        QCOMPARE(currentOffsetByKafka(group, m_topic, 0), std::optional<qint64>(115));
        QCOMPARE(currentOffsetByKafka(group, m_topic, 1), std::optional<qint64>(115));
        QVERIFY2(output.contains("committed 40 then, 120 now") &&
                     output.contains("shift by -5 now gives 115, the preview said 35"),
                 output.constData());
    }

    // Such a group always looks Empty; the consumer's next commit would undo the reset.
    void assignCommitterIsRefusedThenForcedAndReportedOverwritten() {
        const QString group = test::uniqueName(QStringLiteral("safe-assign"));
        PythonClient committer(QStringLiteral(R"(
import select, sys
from kafka import KafkaConsumer, TopicPartition
from kafka.structs import OffsetAndMetadata
c = KafkaConsumer(bootstrap_servers=BOOTSTRAP, group_id='%1', enable_auto_commit=False)
tp = TopicPartition('%2', 0)
c.assign([tp])
while True:
    c.commit({tp: OffsetAndMetadata(170, '')})
    print('committing', flush=True)
    ready, _, _ = select.select([sys.stdin], [], [], 0.5)
    if ready and not sys.stdin.readline():
        break
c.close()
)")
                                   .arg(group, m_topic));
        QVERIFY(committer.waitForOutput("committing"));
        const QStringList reset{QStringLiteral("reset"),
                                QStringLiteral("--group"),
                                group,
                                QStringLiteral("--topic"),
                                m_topic + QStringLiteral(":0"),
                                QStringLiteral("--to-earliest"),
                                QStringLiteral("--execute")};
        const auto refused = cli(reset);
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(
            refused.err.contains("has no members") &&
                refused.err.contains(QStringLiteral("%1:0 was committed").arg(m_topic).toUtf8()) &&
                refused.err.contains("--force"),
            refused.err.constData());
        QCOMPARE(currentOffsetByKafka(group, m_topic, 0), std::optional<qint64>(170));

        const auto forced =
            cli(reset + QStringList{QStringLiteral("--force"), QStringLiteral("--verify-for"),
                                    QStringLiteral("3")});
        QCOMPARE(forced.exitCode, 1);
        QVERIFY2(forced.out.contains("OVERWRITTEN: now 170"), forced.out.constData());
        QVERIFY2(forced.err.contains("overwritten after the write"), forced.err.constData());
        const QJsonObject entry = journalEntry(group);
        const QJsonObject partition =
            entry[QStringLiteral("partitions")].toArray().first().toObject();
        QCOMPARE(partition[QStringLiteral("after")].toInteger(), qint64(0));
        QCOMPARE(partition[QStringLiteral("overwrittenWith")].toInteger(), qint64(170));
        QVERIFY(committer.stop());
    }

    // Reset 100 -> 50, then a consumer commits 70 on partition 0: undo names it and leaves it.
    void undoOfAResetNamesConflicts() {
        const QString group = test::uniqueName(QStringLiteral("safe-undo"));
        QVERIFY(test::commitOffsets(group, m_topic, {100, 100}));
        const auto reset = writeOnceCommitsSettle(
            {QStringLiteral("reset"), QStringLiteral("--group"), group, QStringLiteral("--topic"),
             m_topic, QStringLiteral("--to-offset"), QStringLiteral("50"),
             QStringLiteral("--execute"), QStringLiteral("--verify-for"), QStringLiteral("0")});
        QVERIFY2(reset.ok(), reset.err.constData());
        const QString entryId = journalEntry(group)[QStringLiteral("id")].toString();
        QVERIFY(test::commitOffsets(group, m_topic, {70}));

        const QStringList undo{
            QStringLiteral("undo"),      QStringLiteral("--entry"),      entryId,
            QStringLiteral("--execute"), QStringLiteral("--verify-for"), QStringLiteral("0")};
        const auto refused = cli(undo);
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("Conflicts: 1 partition(s)") &&
                     refused.err.contains("--skip-conflicts"),
                 refused.err.constData());
        QVERIFY2(QRegularExpression(QStringLiteral("%1 +0 +100 +50 +70").arg(m_topic))
                     .match(QString::fromUtf8(refused.err))
                     .hasMatch(),
                 refused.err.constData());
        QCOMPARE(test::committedOffsetsByKafka(group, m_topic),
                 (QMap<int, qlonglong>{{0, 70}, {1, 50}}));

        const auto skipped =
            writeOnceCommitsSettle(undo + QStringList{QStringLiteral("--skip-conflicts")});
        QVERIFY2(skipped.ok(), skipped.err.constData());
        QCOMPARE(test::committedOffsetsByKafka(group, m_topic),
                 (QMap<int, qlonglong>{{0, 70}, {1, 100}}));

        const auto forced = cli(undo + QStringList{QStringLiteral("--force")});
        QVERIFY2(forced.ok(), forced.err.constData());
        QCOMPARE(test::committedOffsetsByKafka(group, m_topic),
                 (QMap<int, qlonglong>{{0, 100}, {1, 100}}));
    }

    // The commit metadata a consumer wrote is journaled with the offsets and put back by undo.
    void undoPutsBackTheCommitMetadata() {
        const QString group = test::uniqueName(QStringLiteral("safe-metadata"));
        QVERIFY(test::commitOffsets(group, m_topic, {60, 60}, QStringLiteral("consumer-")));
        const QStringList write{QStringLiteral("--execute"), QStringLiteral("--force"),
                                QStringLiteral("--verify-for"), QStringLiteral("0")};
        const auto reset = cli(QStringList{QStringLiteral("reset"), QStringLiteral("--group"),
                                           group, QStringLiteral("--topic"), m_topic,
                                           QStringLiteral("--to-offset"), QStringLiteral("20")} +
                               write);
        QVERIFY2(reset.ok(), reset.err.constData());
        const QString entryId = journalEntry(group)[QStringLiteral("id")].toString();
        const auto undone =
            cli(QStringList{QStringLiteral("undo"), QStringLiteral("--entry"), entryId} + write);
        QVERIFY2(undone.ok(), undone.err.constData());
        const auto read = test::runPython(QStringLiteral(R"(
from kafka.admin import KafkaAdminClient
admin = KafkaAdminClient(bootstrap_servers=BOOTSTRAP)
for tp, om in sorted(admin.list_consumer_group_offsets('%1').items()):
    print('%d=%d/%s' % (tp.partition, om.offset, om.metadata))
admin.close()
)")
                                              .arg(group));
        QVERIFY2(read.ok(), read.err.constData());
        QCOMPARE(read.out.trimmed(), QByteArray("0=60/consumer-0\n1=60/consumer-1"));
    }

    // A deleted group that got a new commit since: undo restores only the other partition.
    void undoOfAGroupDeleteNamesNewCommits() {
        const QString group = test::uniqueName(QStringLiteral("safe-delete"));
        QVERIFY(test::commitOffsets(group, m_topic, {30, 40}));
        const auto deleted = cli({QStringLiteral("delete"), QStringLiteral("--group"), group,
                                  QStringLiteral("--execute")});
        QVERIFY2(deleted.ok(), deleted.err.constData());
        const QString entryId = journalEntry(group)[QStringLiteral("id")].toString();
        QVERIFY(test::commitOffsets(group, m_topic, {5}));
        const QStringList undo{
            QStringLiteral("undo"),      QStringLiteral("--entry"),      entryId,
            QStringLiteral("--execute"), QStringLiteral("--verify-for"), QStringLiteral("0")};
        const auto refused = cli(undo);
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(QRegularExpression(QStringLiteral("%1 +0 +30 +- +5").arg(m_topic))
                     .match(QString::fromUtf8(refused.err))
                     .hasMatch(),
                 refused.err.constData());
        const auto skipped =
            writeOnceCommitsSettle(undo + QStringList{QStringLiteral("--skip-conflicts")});
        QVERIFY2(skipped.ok(), skipped.err.constData());
        QCOMPARE(test::committedOffsetsByKafka(group, m_topic),
                 (QMap<int, qlonglong>{{0, 5}, {1, 40}}));
    }

    // The broker applies the write, its answer comes after the client gave up: read back.
    void aLostAnswerIsReadBackAsApplied() {
        const QString group = test::uniqueName(QStringLiteral("safe-timeout"));
        QVERIFY(test::commitOffsets(group, m_topic, {10, 10}));
        test::FaultyProxy proxy(test::bootstrapServers());
        QVERIFY(proxy.start());
        holdBackNextOffsetCommitAnswer(proxy, 8s);
        const auto reset = test::run(
            cliPath,
            {QStringLiteral("--bootstrap-server"), proxy.address(), QStringLiteral("--timeout"),
             QStringLiteral("3000"), QStringLiteral("reset"), QStringLiteral("--group"), group,
             QStringLiteral("--topic"), m_topic + QStringLiteral(":0"),
             QStringLiteral("--to-offset"), QStringLiteral("3"), QStringLiteral("--execute"),
             QStringLiteral("--force"), QStringLiteral("--verify-for"), QStringLiteral("0")});
        QCOMPARE(proxy.faultsApplied(), 1);
        QVERIFY2(reset.ok(), (reset.out + reset.err).constData());
        QCOMPARE(currentOffsetByKafka(group, m_topic, 0), std::optional<qint64>(3));
        const QJsonObject entry = journalEntry(group);
        QCOMPARE(entry[QStringLiteral("state")].toString(), QStringLiteral("done"));
        const QJsonObject partition =
            entry[QStringLiteral("partitions")].toArray().first().toObject();
        QCOMPARE(partition[QStringLiteral("after")].toInteger(), qint64(3));
        QVERIFY(partition[QStringLiteral("error")].toString().isEmpty());
    }

    // A reset of `group` on `topics` ("topic" or "topic:P") to `offset` through `proxy`, in a
    // process of its own.
    void startReset(QProcess& reset, const test::FaultyProxy& proxy, const QString& group,
                    const QString& topics, int offset, const QStringList& moreOptions = {}) {
        reset.setProcessChannelMode(QProcess::MergedChannels);
        reset.start(cliPath, QStringList{QStringLiteral("--bootstrap-server"), proxy.address(),
                                         QStringLiteral("--timeout"), QStringLiteral("60000"),
                                         QStringLiteral("reset"), QStringLiteral("--group"), group,
                                         QStringLiteral("--topic"), topics,
                                         QStringLiteral("--to-offset"), QString::number(offset),
                                         QStringLiteral("--execute"), QStringLiteral("--force"),
                                         QStringLiteral("--verify-for"), QStringLiteral("0")} +
                                 moreOptions);
    }

    // Sends Ctrl-C and waits until the command says it took it; `output` collects what
    // the command printed.
    static bool interruptAndWaitForTheAcknowledgement(QProcess& reset, QByteArray& output) {
        ::kill(pid_t(reset.processId()), SIGINT);
        return test::waitFor(
            [&] {
                output += reset.readAll();
                return output.contains("Interrupted: no further write will be sent.");
            },
            60s);
    }

    // The next process that connects resolves the entry in doubt (here a dry run of its
    // undo) from what the broker holds; returns the entry's partition as recovered.
    QJsonObject recoveredByTheNextProcess(const QString& group) {
        const QString entryId = journalEntry(group)[QStringLiteral("id")].toString();
        const auto dryRun = cli({QStringLiteral("undo"), QStringLiteral("--entry"), entryId});
        if (!dryRun.err.contains(
                QStringLiteral("Recovered journal entry %1").arg(entryId).toUtf8()))
            qWarning("undo dry run: %s%s", dryRun.out.constData(), dryRun.err.constData());
        const QJsonObject entry = journalEntry(group);
        if (entry[QStringLiteral("state")].toString() != QStringLiteral("recovered"))
            return {};
        return entry[QStringLiteral("partitions")].toArray().first().toObject();
    }

    // Ctrl-C twice after the intent was recorded, before the request reached the broker:
    // the first is acknowledged, the second ends the process at once. The entry is in
    // doubt; the next process reads the group back and records it unchanged.
    void aSecondCtrlCQuitsAtOnceAndTheNextProcessFindsNothingChanged() {
        const QString group = test::uniqueName(QStringLiteral("safe-crash-before-send"));
        QVERIFY(test::commitOffsets(group, m_topic, {10, 10}));
        test::FaultyProxy proxy(test::bootstrapServers());
        QVERIFY(proxy.start());
        holdBackNextOffsetCommit(proxy);
        QProcess reset;
        startReset(reset, proxy, group, m_topic + QStringLiteral(":0"), 4);
        QVERIFY(reset.waitForStarted());
        QVERIFY(test::waitFor([&] { return proxy.faultsApplied() == 1; }, 60s));
        QCOMPARE(journalEntry(group)[QStringLiteral("state")].toString(),
                 QStringLiteral("in doubt"));
        QByteArray output;
        QVERIFY(interruptAndWaitForTheAcknowledgement(reset, output));
        ::kill(pid_t(reset.processId()), SIGINT);
        QVERIFY(reset.waitForFinished(10000));
        QCOMPARE(reset.exitStatus(), QProcess::CrashExit); // ended by the signal itself

        const QJsonObject partition = recoveredByTheNextProcess(group);
        QCOMPARE(partition[QStringLiteral("before")].toInteger(), qint64(10));
        QCOMPARE(partition[QStringLiteral("after")].toInteger(), qint64(10));
        QVERIFY2(partition[QStringLiteral("error")].toString().contains(
                     QStringLiteral("read back: unchanged at 10")),
                 qPrintable(partition[QStringLiteral("error")].toString()));
        QCOMPARE(currentOffsetByKafka(group, m_topic, 0), std::optional<qint64>(10));
    }

    // kill -9 after the broker answered, before the outcome was recorded (the read-back
    // hangs): in doubt, then recovered as applied.
    void aProcessKilledBeforeItRecordedTheOutcomeIsRecoveredAsApplied() {
        const QString group = test::uniqueName(QStringLiteral("safe-crash-before-outcome"));
        QVERIFY(test::commitOffsets(group, m_topic, {10, 10}));
        test::FaultyProxy proxy(test::bootstrapServers());
        QVERIFY(proxy.start());
        holdBackTheReadAfterTheNextOffsetCommit(proxy);
        QProcess reset;
        startReset(reset, proxy, group, m_topic + QStringLiteral(":1"), 6);
        QVERIFY(reset.waitForStarted());
        // The OffsetCommit was answered (the fault moved on to the read-back) and the
        // read-back is held.
        QVERIFY(test::waitFor([&] { return proxy.faultsApplied() == 1; }, 60s));
        QCOMPARE(reset.state(), QProcess::Running);
        QCOMPARE(journalEntry(group)[QStringLiteral("state")].toString(),
                 QStringLiteral("in doubt"));
        reset.kill();
        QVERIFY(reset.waitForFinished(10000));
        proxy.setFaultObserver({});

        const QJsonObject partition = recoveredByTheNextProcess(group);
        QCOMPARE(partition[QStringLiteral("before")].toInteger(), qint64(10));
        QCOMPARE(partition[QStringLiteral("after")].toInteger(), qint64(6));
        QVERIFY(partition[QStringLiteral("error")].toString().isEmpty());
        QCOMPARE(currentOffsetByKafka(group, m_topic, 1), std::optional<qint64>(6));
    }

    // The group is empty when checked; a member joins before the write reaches the broker.
    // The broker refuses it: each partition is reported not applied, and nothing changed.
    // A reset of `group`, committed at 10 on both partitions, to 4 through `proxy`, whose
    // write the proxy holds until `member` (python3-kafka) joined the group; then the
    // write goes on to the broker.
    void resetWithAMemberJoiningBeforeTheWrite(test::FaultyProxy& proxy, QProcess& reset,
                                               std::unique_ptr<PythonClient>& member,
                                               const QString& group,
                                               const QStringList& moreOptions = {}) {
        QVERIFY(test::commitOffsets(group, m_topic, {10, 10}));
        QVERIFY(proxy.start());
        holdBackNextOffsetCommit(proxy);
        startReset(reset, proxy, group, m_topic, 4, moreOptions);
        QVERIFY(reset.waitForStarted());
        QVERIFY(test::waitFor([&] { return proxy.faultsApplied() == 1; }, 60s));
        member = std::make_unique<PythonClient>(QStringLiteral(R"(
import sys
from kafka import KafkaConsumer
c = KafkaConsumer(bootstrap_servers=BOOTSTRAP, group_id='%1', enable_auto_commit=False)
c.subscribe(['%2'])
while not c.assignment():
    c.poll(timeout_ms=200)
print('joined', flush=True)
sys.stdin.readline()
c.close(autocommit=False)
)")
                                                    .arg(group, m_topic));
        QVERIFY(member->waitForOutput("joined"));
        proxy.releaseHeldRequests();
    }

    void aMemberJoiningBetweenTheCheckAndTheWriteIsReportedPerPartition() {
        const QString group = test::uniqueName(QStringLiteral("safe-joined"));
        test::FaultyProxy proxy(test::bootstrapServers());
        QProcess reset;
        std::unique_ptr<PythonClient> member;
        resetWithAMemberJoiningBeforeTheWrite(proxy, reset, member, group);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(reset.waitForFinished(60000));
        const QByteArray output = reset.readAll();
        QVERIFY2(reset.exitCode() != 0, output.constData());
        QVERIFY2(output.count("FAILED: refused: the group has members again") == 2,
                 output.constData());
        QVERIFY(member->stop());
        QCOMPARE(test::committedOffsetsByKafka(group, m_topic),
                 (QMap<int, qlonglong>{{0, 10}, {1, 10}}));
        const QJsonObject entry = journalEntry(group);
        QCOMPARE(entry[QStringLiteral("state")].toString(), QStringLiteral("done"));
        for (const QJsonValue& value : entry[QStringLiteral("partitions")].toArray()) {
            const QJsonObject partition = value.toObject();
            QCOMPARE(partition[QStringLiteral("after")].toInteger(), qint64(10));
            QVERIFY(partition[QStringLiteral("error")].toString().contains(
                QStringLiteral("has members again")));
        }
    }

    // The same with the reset armed (--wait-until-empty): the refused write is recorded as
    // it happened, and the wait goes on until the member has left; then the reset lands.
    void anArmedResetWaitsAgainWhenAMemberJoinsBeforeTheWrite() {
        const QString group = test::uniqueName(QStringLiteral("safe-joined-armed"));
        test::FaultyProxy proxy(test::bootstrapServers());
        QProcess reset;
        std::unique_ptr<PythonClient> member;
        resetWithAMemberJoiningBeforeTheWrite(
            proxy, reset, member, group,
            {QStringLiteral("--wait-until-empty"), QStringLiteral("120")});
        if (QTest::currentTestFailed())
            return;
        // The refusal is recorded, and the reset goes on waiting while the member stays.
        QVERIFY(test::waitFor(
            [&] { return journalEntry(group)[QStringLiteral("state")].toString() == u"done"; },
            60s));
        const QJsonObject refused = journalEntry(group);
        for (const QJsonValue& value : refused[QStringLiteral("partitions")].toArray())
            QVERIFY2(value[QStringLiteral("error")].toString().contains(
                         QStringLiteral("has members again")),
                     QJsonDocument(refused).toJson().constData());
        QCOMPARE(reset.state(), QProcess::Running);
        QCOMPARE(test::committedOffsetsByKafka(group, m_topic),
                 (QMap<int, qlonglong>{{0, 10}, {1, 10}}));

        QVERIFY(member->stop());
        member.reset();
        QVERIFY(reset.waitForFinished(120000));
        const QByteArray output = reset.readAll();
        QVERIFY2(reset.exitCode() == 0, output.constData());
        QCOMPARE(test::committedOffsetsByKafka(group, m_topic),
                 (QMap<int, qlonglong>{{0, 4}, {1, 4}}));
        const QString refusedId = refused[QStringLiteral("id")].toString();
        QVERIFY2(output.contains(QStringLiteral("the write of journal entry %1 was refused")
                                     .arg(refusedId)
                                     .toUtf8()),
                 output.constData());
        const QJsonObject applied = journalEntry(group);
        QVERIFY(applied[QStringLiteral("id")].toString() != refusedId);
        for (const QJsonValue& value : applied[QStringLiteral("partitions")].toArray())
            QCOMPARE(value[QStringLiteral("after")].toInteger(), qint64(4));
    }

    // Ctrl-C while the reset waits for its group to empty: nothing is written, exit 130.
    void ctrlCBeforeTheWriteWritesNothing() {
        const QString group = test::uniqueName(QStringLiteral("safe-sigint-wait"));
        PythonClient member(QStringLiteral(R"(
import sys
from kafka import KafkaConsumer
c = KafkaConsumer(bootstrap_servers=BOOTSTRAP, group_id='%1', enable_auto_commit=False)
c.subscribe(['%2'])
while not c.assignment():
    c.poll(timeout_ms=200)
c.commit()
print('joined', flush=True)
sys.stdin.readline()
c.close(autocommit=False)
)")
                                .arg(group, m_topic));
        QVERIFY(member.waitForOutput("joined"));
        QProcess reset;
        reset.setProcessChannelMode(QProcess::MergedChannels);
        reset.start(cliPath, {QStringLiteral("--bootstrap-server"), test::bootstrapServers(),
                              QStringLiteral("reset"), QStringLiteral("--group"), group,
                              QStringLiteral("--topic"), m_topic, QStringLiteral("--to-offset"),
                              QStringLiteral("1"), QStringLiteral("--execute"),
                              QStringLiteral("--wait-until-empty"), QStringLiteral("120")});
        QByteArray output;
        QVERIFY(test::waitFor(
            [&] {
                output += reset.readAll();
                return output.contains("Waiting up to");
            },
            60s));
        ::kill(pid_t(reset.processId()), SIGINT);
        QVERIFY(reset.waitForFinished(30000));
        output += reset.readAll();
        QVERIFY2(reset.exitCode() == 130, output.constData());
        QVERIFY2(output.contains("Interrupted: nothing was written."), output.constData());
        QVERIFY(member.stop());
        QVERIFY(journalEntry(group).isEmpty());
    }

    // Ctrl-C while the write is on its way: the CLI still records its outcome, then exits 130.
    void ctrlCAfterTheWriteWasSentRecordsItsOutcome() {
        const QString group = test::uniqueName(QStringLiteral("safe-sigint-sent"));
        QVERIFY(test::commitOffsets(group, m_topic, {10, 10}));
        test::FaultyProxy proxy(test::bootstrapServers());
        QVERIFY(proxy.start());
        holdBackNextOffsetCommit(proxy);
        QProcess reset;
        startReset(reset, proxy, group, m_topic + QStringLiteral(":0"), 7);
        QVERIFY(reset.waitForStarted());
        QVERIFY(test::waitFor([&] { return proxy.faultsApplied() == 1; }, 60s));
        QByteArray output;
        // The answer is let through only once the process has taken the signal.
        QVERIFY(interruptAndWaitForTheAcknowledgement(reset, output));
        proxy.releaseHeldRequests();
        QVERIFY(reset.waitForFinished(60000));
        output += reset.readAll();
        QVERIFY2(reset.exitCode() == 130, output.constData());
        QCOMPARE(currentOffsetByKafka(group, m_topic, 0), std::optional<qint64>(7));
        const QJsonObject entry = journalEntry(group);
        QCOMPARE(entry[QStringLiteral("state")].toString(), QStringLiteral("done"));
        QCOMPARE(entry[QStringLiteral("partitions")]
                     .toArray()
                     .first()
                     .toObject()[QStringLiteral("after")]
                     .toInteger(),
                 qint64(7));
    }

    // kill -9 while the write is on the wire: the entry is in doubt until a process connects.
    void aProcessKilledMidWriteIsRecoveredByTheNext() {
        const QString group = test::uniqueName(QStringLiteral("safe-crash"));
        QVERIFY(test::commitOffsets(group, m_topic, {10, 10}));
        test::FaultyProxy proxy(test::bootstrapServers());
        QVERIFY(proxy.start());
        holdBackNextOffsetCommitAnswer(proxy, 120s);
        QProcess reset;
        reset.start(cliPath,
                    {QStringLiteral("--bootstrap-server"), proxy.address(),
                     QStringLiteral("--timeout"), QStringLiteral("60000"), QStringLiteral("reset"),
                     QStringLiteral("--group"), group, QStringLiteral("--topic"),
                     m_topic + QStringLiteral(":1"), QStringLiteral("--to-offset"),
                     QStringLiteral("4"), QStringLiteral("--execute"), QStringLiteral("--force")});
        QVERIFY(reset.waitForStarted());
        // The broker has it; the answer is held back.
        QVERIFY(test::waitFor([&] { return currentOffsetByKafka(group, m_topic, 1) == 4; }, 60s));
        QCOMPARE(reset.state(), QProcess::Running);
        reset.kill();
        QVERIFY(reset.waitForFinished(10000));
        QCOMPARE(journalEntry(group)[QStringLiteral("state")].toString(),
                 QStringLiteral("in doubt"));

        // Any process that connects to the cluster resolves it: here a dry run of its undo.
        const QString entryId = journalEntry(group)[QStringLiteral("id")].toString();
        const auto dryRun = cli({QStringLiteral("undo"), QStringLiteral("--entry"), entryId});
        QVERIFY2(dryRun.ok(), dryRun.err.constData());
        QVERIFY2(
            dryRun.err.contains(QStringLiteral("Recovered journal entry %1").arg(entryId).toUtf8()),
            dryRun.err.constData());
        const QJsonObject entry = journalEntry(group);
        QCOMPARE(entry[QStringLiteral("state")].toString(), QStringLiteral("recovered"));
        const QJsonObject partition =
            entry[QStringLiteral("partitions")].toArray().first().toObject();
        QCOMPARE(partition[QStringLiteral("before")].toInteger(), qint64(10));
        QCOMPARE(partition[QStringLiteral("after")].toInteger(), qint64(4));
        QVERIFY(partition[QStringLiteral("error")].toString().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSafeWrites)
#include "TestSafeWrites.moc"
