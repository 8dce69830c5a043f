// The sandbox's refunds group, stuck on the malformed record its topic carries, on the real
// broker, as an engineer on call meets it: `watch` names the partition and its committed
// offset as stalled, skipping the record (a reset to offset + 1, applied when the
// crash-looping member is out of the group) lets the member move on, and undo puts the
// group back on the record, where its member is stuck again. Kafka's own tool reads every
// committed offset.
#include "TestBroker.h"

#include "sandbox/SandboxMessageFactory.h"
#include "sandbox/SandboxWorkload.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace groupscope;
using namespace std::chrono_literals;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");

// On a new topic the n-th record of the first run sits at offset n - 1.
constexpr qint64 poisonOffset = qint64(sandbox::SandboxMessageFactory::malformedRefundSequence) - 1;

test::ProcessResult cli(const QStringList& arguments) {
    return test::run(cliPath,
                     QStringList{QStringLiteral("--bootstrap-server"), test::bootstrapServers()} +
                         arguments);
}

// The group's committed offset on partition 0 as Kafka's tool prints it.
std::optional<qint64> committedByKafkaTool(const QString& group) {
    const auto result =
        test::kafkaConsumerGroups({QStringLiteral("--describe"), QStringLiteral("--group"), group});
    for (const QString& line : QString::fromUtf8(result.out).split(u'\n')) {
        const QStringList fields = line.simplified().split(u' ');
        bool ok = false;
        const qint64 offset = fields.size() > 3 ? fields[3].toLongLong(&ok) : -1;
        if (fields.size() > 3 && fields[0] == group && fields[2] == u"0" && ok)
            return offset;
    }
    return std::nullopt;
}

bool memberFailsOnThePoison(const sandbox::SandboxWorkload& workload, const QString& topic) {
    const QString record = QStringLiteral("fails on record %1:0@%2").arg(topic).arg(poisonOffset);
    for (const QString& problem : workload.status().problems)
        if (problem.contains(record))
            return true;
    return false;
}

} // namespace

class TestSandboxStuckGroup : public QObject {
    Q_OBJECT

    QTemporaryDir m_dataDir; // the write journal of this test
    QString m_skipReason;

private slots:
    void initTestCase() {
        if (test::bootstrapServers(&m_skipReason).isEmpty())
            QSKIP(qPrintable(m_skipReason));
        QVERIFY(m_dataDir.isValid());
        qputenv("GROUPSCOPE_DATA_DIR", m_dataDir.path().toUtf8());
    }

    void stuckRecordIsNamedSkippedAndPutBack() {
        sandbox::SandboxOptions options;
        options.namePrefix = test::uniqueName(QStringLiteral("stuck")) + u'-';
        options.rateScale = 2;
        auto started = sandbox::SandboxWorkload::start(test::brokerProfile(), options);
        QVERIFY2(started.ok(), started ? "" : qPrintable(started.error().toString()));
        std::unique_ptr<sandbox::SandboxWorkload> workload = std::move(started.value());
        const QString topic = workload->layout().refunds.name;
        const QString group = workload->layout().refundsGroup.name;

        // Stuck: the member commits up to the record and fails on it, again and again.
        QVERIFY2(test::waitFor([&] { return memberFailsOnThePoison(*workload, topic); }, 60s),
                 qPrintable(workload->status().toLine()));
        QVERIFY(test::waitFor([&] { return committedByKafkaTool(group) == poisonOffset; }, 60s));

        // `watch` names the partition, at the record's offset, as not moving.
        QProcess watch;
        watch.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        watch.start(cliPath, {QStringLiteral("--bootstrap-server"), test::bootstrapServers(),
                              QStringLiteral("watch"), QStringLiteral("--group"), group,
                              QStringLiteral("--interval"), QStringLiteral("1000"),
                              QStringLiteral("--json")});
        QString lastLine;
        const bool named = test::waitFor(
            [&] {
                if (!watch.canReadLine() && !watch.waitForReadyRead(1000))
                    return false;
                while (watch.canReadLine()) {
                    lastLine = QString::fromUtf8(watch.readLine()).trimmed();
                    const QJsonObject line = QJsonDocument::fromJson(lastLine.toUtf8()).object();
                    for (const QJsonValue& partition :
                         line[QStringLiteral("partitions")].toArray()) {
                        const QString status = partition[QStringLiteral("status")].toString();
                        if (partition[QStringLiteral("topic")].toString() == topic &&
                            partition[QStringLiteral("currentOffset")].toInteger() ==
                                poisonOffset &&
                            (status == u"STALL" || status == u"STOP"))
                            return true;
                    }
                }
                return false;
            },
            90s);
        watch.kill();
        watch.waitForFinished(10000);
        QVERIFY2(named, qPrintable(lastLine));

        // Skip it: offset + 1, applied when the member is out of the group (it crashed).
        const QString partition = topic + QStringLiteral(":0");
        const auto skip = cli({QStringLiteral("reset"), QStringLiteral("--group"), group,
                               QStringLiteral("--topic"), partition, QStringLiteral("--to-offset"),
                               QString::number(poisonOffset + 1), QStringLiteral("--execute"),
                               QStringLiteral("--wait-until-empty"), QStringLiteral("90")});
        QVERIFY2(skip.ok(), (skip.out + skip.err).constData());
        // The member comes back, processes what follows, and commits past it.
        QVERIFY(test::waitFor(
            [&] { return committedByKafkaTool(group).value_or(-1) > poisonOffset + 5; }, 60s));
        const sandbox::SandboxStatus afterSkip = workload->status();
        const auto refunds = std::find_if(afterSkip.groups.cbegin(), afterSkip.groups.cend(),
                                          [&](const auto& entry) { return entry.group == group; });
        QVERIFY(refunds != afterSkip.groups.cend());
        // The skip is the only record no member processed.
        QCOMPARE(refunds->gaps, uint64_t(1));
        QCOMPARE(refunds->skipped, uint64_t(1));

        // Undo, with the service stopped (Kafka changes the offsets of an empty group only);
        // the partition moved on since the skip, which undo names and --force overrides.
        workload->stop();
        const auto history = cli({QStringLiteral("history"), QStringLiteral("--group"), group,
                                  QStringLiteral("--json")});
        // Oldest first: the skip is the last entry (before it, at most writes the broker
        // refused because the member rejoined just as they were sent, nothing changed).
        const QJsonArray entries = QJsonDocument::fromJson(history.out).array();
        QVERIFY(!entries.isEmpty());
        const QString entryId = entries.last()[QStringLiteral("id")].toString();
        const auto refused = cli({QStringLiteral("undo"), QStringLiteral("--entry"), entryId,
                                  QStringLiteral("--execute")});
        QVERIFY(!refused.ok());
        QCOMPARE(committedByKafkaTool(group).value_or(-1) > poisonOffset + 5, true);
        const auto undo = cli({QStringLiteral("undo"), QStringLiteral("--entry"), entryId,
                               QStringLiteral("--execute"), QStringLiteral("--force")});
        QVERIFY2(undo.ok(), undo.err.constData());
        QCOMPARE(committedByKafkaTool(group), std::optional<qint64>(poisonOffset));

        // The service back: stuck on the record again.
        workload.reset();
        started = sandbox::SandboxWorkload::start(test::brokerProfile(), options);
        QVERIFY2(started.ok(), started ? "" : qPrintable(started.error().toString()));
        workload = std::move(started.value());
        QVERIFY2(test::waitFor([&] { return memberFailsOnThePoison(*workload, topic); }, 60s),
                 qPrintable(workload->status().toLine()));
        QCOMPARE(committedByKafkaTool(group), std::optional<qint64>(poisonOffset));
    }
};

QTEST_GUILESS_MAIN(TestSandboxStuckGroup)
#include "TestSandboxStuckGroup.moc"
