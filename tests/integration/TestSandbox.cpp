// The sandbox workload against the real test broker, checked with independent clients:
// kcat for topic metadata and Kafka's own kafka-consumer-groups for groups, members and lag.
#include "TestBroker.h"

#include "cli/SandboxCommand.h"
#include "sandbox/SandboxWorkload.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

#include <optional>

using namespace groupscope;
using namespace std::chrono_literals;

namespace {

// One row of `kafka-consumer-groups --describe`.
struct OffsetRow {
    QString group;
    QString topic;
    int partition = -1;
    std::optional<qint64> committed; // "-" when the group has no commit for the partition
    qint64 logEnd = -1;
};

std::optional<qint64> parseOffset(const QString& text) {
    bool ok = false;
    const qint64 value = text.toLongLong(&ok);
    return ok ? std::optional<qint64>(value) : std::nullopt;
}

QStringList withGroupOptions(QStringList arguments, const QStringList& groups) {
    for (const QString& group : groups)
        arguments << QStringLiteral("--group") << group;
    return arguments;
}

// Rows of the named groups, as Kafka's tool prints them (all groups in one run of the JVM).
QList<OffsetRow> describeOffsets(const QStringList& groups) {
    const auto result =
        test::kafkaConsumerGroups(withGroupOptions({QStringLiteral("--describe")}, groups));
    QList<OffsetRow> rows;
    for (const QString& line : QString::fromUtf8(result.out).split(u'\n')) {
        const QStringList fields = line.simplified().split(u' ');
        if (fields.size() < 6 || !groups.contains(fields[0]) || fields[1] == u"TOPIC")
            continue;
        OffsetRow row;
        row.group = fields[0];
        row.topic = fields[1];
        row.partition = fields[2].toInt();
        row.committed = parseOffset(fields[3]);
        row.logEnd = parseOffset(fields[4]).value_or(-1);
        rows.append(row);
    }
    return rows;
}

// Active members per group, from `kafka-consumer-groups --describe --members`.
QHash<QString, int> describeMemberCounts(const QStringList& groups) {
    const auto result = test::kafkaConsumerGroups(
        withGroupOptions({QStringLiteral("--describe"), QStringLiteral("--members")}, groups));
    QHash<QString, int> counts;
    for (const QString& group : groups)
        counts[group] = 0;
    for (const QString& line : QString::fromUtf8(result.out).split(u'\n')) {
        const QStringList fields = line.simplified().split(u' ');
        if (fields.size() >= 5 && groups.contains(fields[0]) && fields[1] != u"CONSUMER-ID")
            ++counts[fields[0]];
    }
    return counts;
}

// Partition count of a topic according to kcat's metadata (0 when it does not exist).
int partitionCount(const QString& topic) {
    const auto metadata = test::run(
        QStringLiteral("kcat"),
        {QStringLiteral("-b"), test::bootstrapServers(), QStringLiteral("-L"), QStringLiteral("-J"),
         QStringLiteral("-t"), topic, QStringLiteral("-m"), QStringLiteral("5")});
    const QJsonArray topics =
        QJsonDocument::fromJson(metadata.out).object().value(u"topics").toArray();
    for (const QJsonValue& entry : topics) {
        const QJsonObject object = entry.toObject();
        if (object.value(u"topic").toString() == topic && !object.contains(u"error"))
            return int(object.value(u"partitions").toArray().size());
    }
    return 0;
}

struct GroupOffsets {
    int partitionsCommitted = 0;
    qint64 totalLag = 0;
};

GroupOffsets offsetsOf(const QList<OffsetRow>& rows, const QString& group) {
    GroupOffsets offsets;
    for (const OffsetRow& row : rows) {
        if (row.group != group || !row.committed)
            continue;
        ++offsets.partitionsCommitted;
        offsets.totalLag += std::max<qint64>(0, row.logEnd - *row.committed);
    }
    return offsets;
}

QHash<QString, qint64> committedOffsets(const QList<OffsetRow>& rows, const QString& group) {
    QHash<QString, qint64> committed;
    for (const OffsetRow& row : rows)
        if (row.group == group && row.committed)
            committed.insert(QStringLiteral("%1:%2").arg(row.topic).arg(row.partition),
                             *row.committed);
    return committed;
}

} // namespace

class TestSandbox : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void workloadShowsEachGroupsBehaviour();
    void restartKeepsTopicsAndArchiveOffsets();
    void membersProcessEveryRecordAcrossRebalances();
    void commandRunsForItsDurationThenStops();
    void commandRejectsBadOptions_data();
    void commandRejectsBadOptions();
    void unreachableClusterIsAnErrorNamingTheAddress();

private:
    sandbox::SandboxOptions testOptions() const;

    QString m_bootstrap;
    QString m_skipReason;
    QString m_prefix; // shared by the first two tests: the second restarts the first's sandbox
};

void TestSandbox::initTestCase() {
    m_bootstrap = test::bootstrapServers(&m_skipReason);
    m_prefix = test::uniqueName(QStringLiteral("sandbox")) + u'-';
}

sandbox::SandboxOptions TestSandbox::testOptions() const {
    sandbox::SandboxOptions options;
    options.namePrefix = m_prefix;
    options.rateScale = 2;
    options.rebalanceInterval = 3s;
    return options;
}

void TestSandbox::workloadShowsEachGroupsBehaviour() {
    if (m_bootstrap.isEmpty())
        QSKIP(qPrintable(m_skipReason));
    auto started = sandbox::SandboxWorkload::start(test::brokerProfile(), testOptions());
    QVERIFY2(started.ok(), started ? "" : qPrintable(started.error().toString()));
    sandbox::SandboxWorkload& workload = *started.value();
    const sandbox::SandboxLayout& layout = workload.layout();

    for (const sandbox::SandboxTopic& topic : layout.topics())
        QVERIFY2(test::waitFor([&] { return partitionCount(topic.name) == topic.partitions; }),
                 qPrintable(topic.name));

    // One loop watches all groups, since each look through Kafka's tool costs a JVM start.
    const QStringList groups = layout.groupNames();
    const int billingPartitions = layout.orders.partitions + layout.payments.partitions;
    const int analyticsPartitions = layout.orders.partitions + layout.audit.partitions;
    const int archivePartitions = layout.payments.partitions + layout.audit.partitions;
    // Billing commits every second; a few seconds of production is "keeping up".
    const qint64 billingLagLimit =
        qint64(3 * (layout.orders.messagesPerSecond + layout.payments.messagesPerSecond));
    bool billingKeepsUp = false;
    std::optional<qint64> firstAnalyticsLag;
    qint64 lastAnalyticsLag = -1;
    QSet<int> shippingMemberCounts;
    bool archiveReady = false;
    QString lastSeen;
    const bool observedEverything = test::waitFor(
        [&] {
            const QHash<QString, int> members = describeMemberCounts(groups);
            const QList<OffsetRow> rows = describeOffsets(groups);
            const GroupOffsets billing = offsetsOf(rows, layout.billing.name);
            const GroupOffsets analytics = offsetsOf(rows, layout.analytics.name);
            const GroupOffsets archive = offsetsOf(rows, layout.archive.name);
            lastSeen = QStringLiteral("members billing %1, analytics %2, shipping %3, archive "
                                      "%4; billing lag %5 on %6 partitions, analytics lag %7 on "
                                      "%8, archive commits on %9")
                           .arg(members[layout.billing.name])
                           .arg(members[layout.analytics.name])
                           .arg(members[layout.shipping.name])
                           .arg(members[layout.archive.name])
                           .arg(billing.totalLag)
                           .arg(billing.partitionsCommitted)
                           .arg(analytics.totalLag)
                           .arg(analytics.partitionsCommitted)
                           .arg(archive.partitionsCommitted);
            billingKeepsUp = billingKeepsUp || (members[layout.billing.name] == 1 &&
                                                billing.partitionsCommitted == billingPartitions &&
                                                billing.totalLag <= billingLagLimit);
            if (members[layout.analytics.name] == 1 &&
                analytics.partitionsCommitted == analyticsPartitions) {
                if (!firstAnalyticsLag)
                    firstAnalyticsLag = analytics.totalLag;
                lastAnalyticsLag = analytics.totalLag;
            }
            if (members[layout.shipping.name] > 0)
                shippingMemberCounts.insert(members[layout.shipping.name]);
            archiveReady = members[layout.archive.name] == 0 &&
                           archive.partitionsCommitted == archivePartitions;
            return billingKeepsUp && firstAnalyticsLag && lastAnalyticsLag > *firstAnalyticsLag &&
                   shippingMemberCounts.size() >= 2 && archiveReady;
        },
        90s);
    QStringList shippingCounts;
    for (int count : std::as_const(shippingMemberCounts))
        shippingCounts.append(QString::number(count));
    qInfo("last seen: %s; shipping member counts seen: %s", qPrintable(lastSeen),
          qPrintable(shippingCounts.join(QStringLiteral(", "))));
    QVERIFY2(billingKeepsUp, qPrintable(lastSeen));
    QVERIFY2(firstAnalyticsLag && lastAnalyticsLag > *firstAnalyticsLag, qPrintable(lastSeen));
    QVERIFY2(shippingMemberCounts.size() >= 2, qPrintable(lastSeen));
    QVERIFY2(archiveReady, qPrintable(lastSeen));
    QVERIFY(observedEverything);

    // The archive's offsets sit inside the log, not at either end of it.
    for (const OffsetRow& row : describeOffsets({layout.archive.name})) {
        QVERIFY(row.committed);
        QVERIFY2(*row.committed < row.logEnd, qPrintable(row.topic));
    }
    const sandbox::SandboxStatus status = workload.status();
    QCOMPARE(status.archiveOutcome, sandbox::ArchiveOutcome::Committed);
    QVERIFY(status.producedTo(layout.audit.name) > 0);
    QCOMPARE(status.membersOf(layout.billing.name), 1);

    // Members leave their groups on stop: gone well before their 10 s session timeout.
    workload.stop();
    QVERIFY(test::waitFor(
        [&] {
            const QHash<QString, int> members = describeMemberCounts(groups);
            return members[layout.billing.name] == 0 && members[layout.analytics.name] == 0 &&
                   members[layout.shipping.name] == 0;
        },
        8s));
}

void TestSandbox::restartKeepsTopicsAndArchiveOffsets() {
    if (m_bootstrap.isEmpty())
        QSKIP(qPrintable(m_skipReason));
    const sandbox::SandboxLayout layout = sandbox::SandboxLayout::standard(m_prefix);
    const auto before =
        committedOffsets(describeOffsets({layout.archive.name}), layout.archive.name);
    if (before.isEmpty())
        QSKIP("needs the archive offsets of workloadShowsEachGroupsBehaviour");

    // The topics exist now (TOPIC_ALREADY_EXISTS is fine); archive keeps its offsets.
    auto started = sandbox::SandboxWorkload::start(test::brokerProfile(), testOptions());
    QVERIFY2(started.ok(), started ? "" : qPrintable(started.error().toString()));
    QVERIFY(started.value()->notes().isEmpty());
    QVERIFY(test::waitFor([&] {
        return started.value()->status().archiveOutcome != sandbox::ArchiveOutcome::Pending;
    }));
    QCOMPARE(started.value()->status().archiveOutcome, sandbox::ArchiveOutcome::KeptExisting);
    started.value()->stop();
    QCOMPARE(committedOffsets(describeOffsets({layout.archive.name}), layout.archive.name), before);
}

void TestSandbox::membersProcessEveryRecordAcrossRebalances() {
    if (m_bootstrap.isEmpty())
        QSKIP(qPrintable(m_skipReason));
    sandbox::SandboxOptions options = testOptions();
    options.namePrefix = test::uniqueName(QStringLiteral("continuity")) + u'-';
    options.rebalanceInterval = 2s;
    auto started = sandbox::SandboxWorkload::start(test::brokerProfile(), options);
    QVERIFY2(started.ok(), started ? "" : qPrintable(started.error().toString()));
    sandbox::SandboxWorkload& workload = *started.value();
    const sandbox::SandboxLayout& layout = workload.layout();

    // Each change of a group's member count is at least one rebalance of it, through the
    // members' ConsumerSession (revoke commits, assign starts at the commit).
    QHash<QString, int> lastCount;
    QHash<QString, int> changes;
    const QStringList rebalancing{layout.shipping.name, layout.fulfilment.name};
    QVERIFY2(test::waitFor(
                 [&] {
                     const sandbox::SandboxStatus status = workload.status();
                     for (const QString& group : rebalancing) {
                         const int members = status.membersOf(group);
                         if (lastCount.contains(group) && lastCount[group] != members)
                             ++changes[group];
                         lastCount[group] = members;
                     }
                     return changes[layout.shipping.name] >= 5 &&
                            changes[layout.fulfilment.name] >= 5;
                 },
                 90s),
             qPrintable(workload.status().toLine()));
    workload.stop();

    const sandbox::SandboxStatus status = workload.status();
    qInfo("%s", qPrintable(status.toLine()));
    for (const sandbox::SandboxStatus::GroupMembers& group : status.groups) {
        if (group.group == layout.archive.name)
            continue; // never has members
        QVERIFY2(group.processed > 0, qPrintable(group.group));
        QVERIFY2(group.gaps == 0,
                 qPrintable(QStringLiteral("%1: %2 gaps, %3 records never processed")
                                .arg(group.group)
                                .arg(group.gaps)
                                .arg(group.skipped)));
    }
    // The same counts, as `sandbox --json` prints them.
    const QJsonArray groups = status.toJson()[QStringLiteral("groups")].toArray();
    QCOMPARE(groups.size(), status.groups.size());
    for (const QJsonValue& group : groups)
        QCOMPARE(group[QStringLiteral("gaps")].toInteger(), qint64(0));
}

void TestSandbox::commandRunsForItsDurationThenStops() {
    if (m_bootstrap.isEmpty())
        QSKIP(qPrintable(m_skipReason));
    const QString prefix = test::uniqueName(QStringLiteral("sandbox-cli")) + u'-';
    QString outText, errText;
    QTextStream out(&outText), err(&errText);
    const int exitCode = cli::runSandboxCommand(
        test::brokerProfile(),
        {QStringLiteral("--duration"), QStringLiteral("3"), QStringLiteral("--rebalance-interval"),
         QStringLiteral("1"), QStringLiteral("--name-prefix"), prefix},
        out, err);
    out.flush();
    err.flush();
    QVERIFY2(exitCode == 0, qPrintable(errText));
    QVERIFY2(outText.contains(QStringLiteral("sandbox: running (topics %1orders, %1payments, "
                                             "%1audit, %1refunds; groups %1billing, "
                                             "%1analytics, %1shipping, %1fulfilment, "
                                             "%1refunds, %1archive)")
                                  .arg(prefix)),
             qPrintable(outText));
    QVERIFY2(outText.contains(QStringLiteral("sandbox: stopped")), qPrintable(outText));
    QCOMPARE(partitionCount(prefix + QStringLiteral("audit")), 12);

    // --json: one object per line, from "started" to "stopped" with the final counts.
    QString jsonText;
    QTextStream jsonOut(&jsonText);
    QCOMPARE(
        cli::runSandboxCommand(test::brokerProfile(),
                               {QStringLiteral("--duration"), QStringLiteral("2"),
                                QStringLiteral("--name-prefix"), prefix, QStringLiteral("--json")},
                               jsonOut, err),
        0);
    jsonOut.flush();
    QStringList events;
    QJsonObject last;
    for (const QString& line : jsonText.split(u'\n', Qt::SkipEmptyParts)) {
        QJsonParseError error;
        last = QJsonDocument::fromJson(line.toUtf8(), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(line));
        events.append(last[QStringLiteral("event")].toString());
    }
    QCOMPARE(events, (QStringList{QStringLiteral("started"), QStringLiteral("stopped")}));
    QCOMPARE(last[QStringLiteral("groups")].toArray().size(), 6);
    QVERIFY(last[QStringLiteral("groups")].toArray().first().toObject().contains(
        QStringLiteral("duplicates")));
}

void TestSandbox::commandRejectsBadOptions_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::newRow("rate scale zero")
        << QStringList{QStringLiteral("--rate-scale"), QStringLiteral("0")};
    QTest::newRow("rate scale word")
        << QStringList{QStringLiteral("--rate-scale"), QStringLiteral("fast")};
    QTest::newRow("negative duration")
        << QStringList{QStringLiteral("--duration"), QStringLiteral("-5")};
    QTest::newRow("interval without value") << QStringList{QStringLiteral("--rebalance-interval")};
    QTest::newRow("unknown option") << QStringList{QStringLiteral("--faster")};
    QTest::newRow("stray word") << QStringList{QStringLiteral("now")};
    QTest::newRow("quiet and json")
        << QStringList{QStringLiteral("--quiet"), QStringLiteral("--json")};
}

void TestSandbox::commandRejectsBadOptions() {
    QFETCH(QStringList, arguments);
    kafka::ConnectionProfile profile;
    profile.bootstrapServers = QStringLiteral("127.0.0.1:1"); // never contacted
    QString outText, errText;
    QTextStream out(&outText), err(&errText);
    QCOMPARE(cli::runSandboxCommand(profile, arguments, out, err), 2);
    err.flush();
    QVERIFY2(errText.contains(QStringLiteral("Usage:")), qPrintable(errText));
}

void TestSandbox::unreachableClusterIsAnErrorNamingTheAddress() {
    kafka::ConnectionProfile profile;
    profile.bootstrapServers = QStringLiteral("127.0.0.1:1"); // nothing listens on port 1
    QString outText, errText;
    QTextStream out(&outText), err(&errText);
    QCOMPARE(cli::runSandboxCommand(profile, {QStringLiteral("--duration"), QStringLiteral("1")},
                                    out, err),
             1);
    err.flush();
    QVERIFY2(errText.contains(QStringLiteral("127.0.0.1:1")), qPrintable(errText));
    out.flush();
    QVERIFY2(!outText.contains(QStringLiteral("running")), qPrintable(outText));
}

QTEST_GUILESS_MAIN(TestSandbox)
#include "TestSandbox.moc"
