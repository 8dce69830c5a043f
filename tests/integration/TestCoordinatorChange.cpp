// A group's coordinator moves while the group is open (issue 8): on a three-node cluster of
// its own, the test opens a group the way the GUI does (the cluster poller behind the group
// list and the Partitions tab, and the live monitor behind the Lag and Timeline tabs), then
// stops the node that coordinates the group. Groupscope may report the outage for a while,
// but then shows the group again with the right committed offsets and lag, names the new
// coordinator, and follows commits made after the move, through polling and through the
// offsets topic. Kafka's own kafka-consumer-groups is the oracle throughout. Then the stopped
// node comes back; leadership returns to the preferred replicas, which moves the coordinator
// back while every node runs (the old one answers "not the coordinator"); and the
// coordinator is stopped once more.
#include "TestBroker.h"

#include "monitor/ClusterMonitor.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTest>

#include <memory>
#include <numeric>

using namespace groupscope;
using namespace std::chrono_literals;
using monitor::ClusterMonitor;
using monitor::ClusterSnapshot;
using monitor::ClusterView;
using monitor::GroupMonitorSnapshot;
using monitor::GroupSnapshot;

namespace {

constexpr int partitionCount = 3;
// How long Groupscope may take to show the group again after its coordinator went away.
constexpr int recoveryMs = 90'000;
constexpr auto refreshInterval = 500ms;

QString offsetsText(const QList<qint64>& offsets) {
    QStringList parts;
    for (qint64 offset : offsets)
        parts.append(QString::number(offset));
    return parts.join(QLatin1Char(','));
}

QString optionalText(const std::optional<int64_t>& value) {
    return value ? QString::number(*value) : QStringLiteral("-");
}

} // namespace

class TestCoordinatorChange : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();

    void openGroupShowsWhatKafkaReports();
    void coordinatorStopsWhileTheGroupIsOpen();
    void stoppedNodeComesBack();
    void coordinatorMovesBackWhileEveryNodeRuns();
    void coordinatorStopsAgain();

private:
    // Starts the poller and the live monitor on the whole cluster's bootstrap list, as the
    // GUI does when the group is open.
    void openGroup();
    // Forgets what the view showed so far: the next checks need snapshots taken from now on.
    void expectFreshView();
    // Both views, refreshed since expectFreshView(), show the group without an error, with
    // `committed` and the expected log ends and lag.
    bool viewShows(const QList<qint64>& committed) const;
    // The live monitor's commit history (from the offsets topic) holds `committed`.
    bool commitHistoryHas(const QList<qint64>& committed) const;
    // The coordinator the cluster poller's describe reports, -1 before the group is seen.
    int coordinatorShown() const;
    // Kafka's tool reports `committed`, the expected log ends and lag.
    bool kafkaToolShows(const QList<qint64>& committed, QString* seen) const;
    QString viewText() const;
    void noteFailure(const QString& failure);
    QList<qint64> expectedLags(const QList<qint64>& committed) const;
    // Commits through the nodes that run (never through a stopped one), as python3-kafka.
    bool commitThroughRunningNodes(const QList<qint64>& committed);
    // Stops the group's coordinator, waits until Kafka's tool names another one, and checks
    // that Groupscope shows the group and follows a commit made after the move.
    void moveCoordinator(const QList<qint64>& committedAfter);

    test::KafkaCluster m_cluster;
    QString m_topic;
    QString m_group;
    QList<qint64> m_logEnds{100, 120, 140};
    QList<qint64> m_committed{10, 20, 30};
    int m_stoppedNode = -1;
    int m_originalCoordinator = -1;

    // The window's one live pipeline, watching the group: the list's rows and the detail.
    std::unique_ptr<ClusterMonitor> m_monitor;
    GroupMonitorSnapshot m_monitorLatest;
    std::optional<GroupSnapshot> m_polledLatest;
    int m_monitorSnapshots = 0;
    int m_polls = 0;
    // Snapshots taken before this moment (ms since the epoch) do not count: signals queued
    // while the test waited for Kafka's tool arrive late.
    qint64 m_freshFromMs = 0;
    qint64 m_polledAtMs = 0;
    QStringList m_failures; // every refresh failure and group error since the move began
    QString m_lastFailureKind;
    QElapsedTimer m_sinceStop;
};

void TestCoordinatorChange::initTestCase() {
    QVERIFY2(m_cluster.start(), qPrintable(m_cluster.error()));
    const QString bootstrap = m_cluster.bootstrap();
    QCOMPARE(bootstrap.split(QLatin1Char(',')).size(), test::KafkaCluster::nodeCount);
    // Every helper of TestBroker now uses this cluster unless told otherwise.
    qputenv("GROUPSCOPE_TEST_BOOTSTRAP", bootstrap.toUtf8());

    m_topic = test::uniqueName(QStringLiteral("coordinator"));
    m_group = test::uniqueName(QStringLiteral("coordinator-group"));
    QVERIFY(test::createTopic(m_topic, partitionCount, bootstrap, test::KafkaCluster::nodeCount));
    for (int partition = 0; partition < partitionCount; ++partition)
        QVERIFY(test::produce(m_topic, int(m_logEnds[partition]), partition, bootstrap));
    // python3-kafka retries until the offsets topic is created and loaded on every node.
    QVERIFY(test::commitOffsets(m_group, m_topic,
                                {int(m_committed[0]), int(m_committed[1]), int(m_committed[2])}, {},
                                bootstrap));
    // Every leader on its preferred replica, also in a cluster that an earlier run left
    // otherwise: the group's coordinator is then where it returns after a preferred election.
    const auto elected = m_cluster.electPreferredLeaders();
    QVERIFY2(elected.ok(), elected.err.constData());
}

void TestCoordinatorChange::cleanupTestCase() {
    m_monitor.reset();
    m_cluster.stop();
}

void TestCoordinatorChange::openGroupShowsWhatKafkaReports() {
    const int coordinator = test::coordinatorReportedByKafka(m_group);
    QVERIFY2(coordinator >= 1 && coordinator <= test::KafkaCluster::nodeCount,
             qPrintable(QString::number(coordinator)));
    // The leader of the group's offsets partition when the topic was created: its
    // preferred replica.
    m_originalCoordinator = coordinator;
    openGroup();
    expectFreshView();
    QTRY_VERIFY2_WITH_TIMEOUT(viewShows(m_committed), qPrintable(viewText()), 60000);
    QTRY_VERIFY2_WITH_TIMEOUT(commitHistoryHas(m_committed), qPrintable(viewText()), 60000);
    QCOMPARE(coordinatorShown(), coordinator);
    QString seen;
    QVERIFY2(kafkaToolShows(m_committed, &seen), qPrintable(seen));
}

void TestCoordinatorChange::coordinatorStopsWhileTheGroupIsOpen() {
    QVERIFY(m_monitor);
    moveCoordinator({40, 50, 60});
}

void TestCoordinatorChange::stoppedNodeComesBack() {
    QVERIFY(m_stoppedNode > 0);
    QVERIFY(m_cluster.restartNode(m_stoppedNode));
    QVERIFY(m_cluster.isNodeRunning(m_stoppedNode));
    m_stoppedNode = -1;
    // Everything still works with the whole cluster back: a commit through every node,
    // the returned one included, reaches both views.
    const QList<qint64> committed{70, 80, 90};
    QVERIFY(test::commitOffsets(m_group, m_topic,
                                {int(committed[0]), int(committed[1]), int(committed[2])}, {},
                                m_cluster.bootstrap()));
    m_committed = committed;
    expectFreshView();
    QTRY_VERIFY2_WITH_TIMEOUT(viewShows(m_committed), qPrintable(viewText()), recoveryMs);
    QTRY_VERIFY2_WITH_TIMEOUT(commitHistoryHas(m_committed), qPrintable(viewText()), recoveryMs);
    const int coordinator = test::coordinatorReportedByKafka(m_group);
    QVERIFY(coordinator > 0);
    QTRY_VERIFY2_WITH_TIMEOUT(coordinatorShown() == coordinator, qPrintable(viewText()),
                              recoveryMs);
    QString seen;
    QVERIFY2(kafkaToolShows(m_committed, &seen), qPrintable(seen));
}

void TestCoordinatorChange::coordinatorMovesBackWhileEveryNodeRuns() {
    // Leadership of the offsets topic goes back to the preferred replicas, as Kafka's leader
    // rebalance does some minutes after a node returned: the coordinator moves back to the
    // node that came back while the one that stood in keeps running and answers "not the
    // coordinator". Groupscope must look the coordinator up again.
    QVERIFY(m_originalCoordinator > 0);
    const int before = test::coordinatorReportedByKafka(m_group, m_cluster.bootstrap());
    QVERIFY(before > 0);
    m_failures.clear();
    m_sinceStop.start();
    const auto elected = m_cluster.electPreferredLeaders();
    QVERIFY2(elected.ok(), elected.err.constData());
    int after = -1;
    QVERIFY2(test::waitFor(
                 [&] {
                     after = test::coordinatorReportedByKafka(m_group, m_cluster.bootstrap());
                     return after == m_originalCoordinator;
                 },
                 std::chrono::milliseconds(recoveryMs)),
             qPrintable(QStringLiteral("coordinator %1, preferred %2, before the election %3")
                            .arg(after)
                            .arg(m_originalCoordinator)
                            .arg(before)));
    qInfo("Kafka's tool names coordinator %d (was %d) %lld ms after the election", after, before,
          m_sinceStop.elapsed());
    QVERIFY(commitThroughRunningNodes({75, 85, 95}));
    expectFreshView();
    QTRY_VERIFY2_WITH_TIMEOUT(viewShows(m_committed), qPrintable(viewText()), recoveryMs);
    QTRY_VERIFY2_WITH_TIMEOUT(commitHistoryHas(m_committed), qPrintable(viewText()), recoveryMs);
    QTRY_VERIFY2_WITH_TIMEOUT(coordinatorShown() == after, qPrintable(viewText()), recoveryMs);
    qInfo("Groupscope shows the commit made after the election %lld ms after it (%lld refreshes "
          "failed or showed an error)",
          m_sinceStop.elapsed(), qlonglong(m_failures.size()));
}

void TestCoordinatorChange::coordinatorStopsAgain() {
    // The coordinator is now the node that came back: stopped once more, the group moves
    // again and is followed.
    moveCoordinator({95, 100, 105});
    QVERIFY(m_cluster.restartNode(m_stoppedNode));
    m_stoppedNode = -1;
}

void TestCoordinatorChange::moveCoordinator(const QList<qint64>& committedAfter) {
    const int before = test::coordinatorReportedByKafka(m_group, m_cluster.runningBootstrap());
    QVERIFY2(before >= 1, "Kafka's tool names no coordinator");
    m_stoppedNode = test::KafkaCluster::nodeOfBrokerId(before);
    m_failures.clear();
    m_sinceStop.start();
    QVERIFY(m_cluster.stopNode(m_stoppedNode));
    qInfo("stopped node %d (the coordinator) in %lld ms", m_stoppedNode, m_sinceStop.elapsed());

    // Kafka's tool is given every node, the stopped one included, as users configure it.
    int after = -1;
    QVERIFY2(test::waitFor(
                 [&] {
                     after = test::coordinatorReportedByKafka(m_group, m_cluster.bootstrap());
                     return after >= 1 && after != before;
                 },
                 std::chrono::milliseconds(recoveryMs)),
             qPrintable(QStringLiteral("coordinator still %1").arg(after)));
    qInfo("Kafka's tool names coordinator %d instead of %d after %lld ms", after, before,
          m_sinceStop.elapsed());

    // With the offsets as they were: Groupscope shows the group again, without an error,
    // from refreshes made after the stop.
    expectFreshView();
    QTRY_VERIFY2_WITH_TIMEOUT(viewShows(m_committed), qPrintable(viewText()), recoveryMs);
    qInfo("Groupscope shows the group again %lld ms after the stop", m_sinceStop.elapsed());
    QTRY_VERIFY2_WITH_TIMEOUT(coordinatorShown() == after, qPrintable(viewText()), recoveryMs);

    // A commit after the move, and records written to a partition whose leader may have
    // moved too: Groupscope follows both, so it asks the new coordinator and the new
    // leaders, not a cache.
    QVERIFY(commitThroughRunningNodes(committedAfter));
    QVERIFY(test::produce(m_topic, 10, 0, m_cluster.runningBootstrap()));
    m_logEnds[0] += 10;
    expectFreshView();
    QTRY_VERIFY2_WITH_TIMEOUT(viewShows(m_committed), qPrintable(viewText()), recoveryMs);
    QTRY_VERIFY2_WITH_TIMEOUT(commitHistoryHas(m_committed), qPrintable(viewText()), recoveryMs);
    qInfo("Groupscope shows the commit made after the move %lld ms after the stop",
          m_sinceStop.elapsed());
    QString seen;
    QVERIFY2(test::waitFor([&] { return kafkaToolShows(m_committed, &seen); }, 60s),
             qPrintable(seen));
    QCOMPARE(test::coordinatorReportedByKafka(m_group, m_cluster.bootstrap()), after);
    QCOMPARE(coordinatorShown(), after);
    qInfo("%lld refreshes failed or showed an error while the coordinator moved",
          qlonglong(m_failures.size()));
    m_lastFailureKind.clear();
}

void TestCoordinatorChange::openGroup() {
    kafka::ConnectionProfile profile;
    profile.name = QStringLiteral("three-node cluster");
    profile.bootstrapServers = m_cluster.bootstrap();

    m_monitor = std::make_unique<ClusterMonitor>(profile);
    m_monitor->setInterval(refreshInterval);
    m_monitor->setWatchedGroups({m_group});
    connect(m_monitor.get(), &ClusterMonitor::viewReady, this, [this](const ClusterView& view) {
        ++m_polls;
        m_polledAtMs = view.cluster.takenAt.toMSecsSinceEpoch();
        m_polledLatest.reset();
        if (const GroupSnapshot* group = view.group(m_group))
            m_polledLatest = *group;
        if (m_polledLatest && m_polledLatest->error)
            noteFailure(QStringLiteral("poller, group error: ") + m_polledLatest->error.toString());
        if (const GroupMonitorSnapshot* snapshot = view.watchedGroup(m_group)) {
            ++m_monitorSnapshots;
            m_monitorLatest = *snapshot;
            if (snapshot->error)
                noteFailure(QStringLiteral("monitor, group error: ") + snapshot->error.toString());
        }
    });
    connect(m_monitor.get(), &ClusterMonitor::refreshFailed, this, [this](const QString& message) {
        noteFailure(QStringLiteral("monitor failed: ") + message);
    });
    m_monitor->start();
}

void TestCoordinatorChange::expectFreshView() {
    m_freshFromMs = QDateTime::currentMSecsSinceEpoch();
}

void TestCoordinatorChange::noteFailure(const QString& failure) {
    // Consecutive repeats are counted, not logged again.
    static const QRegularExpression digits(QStringLiteral("[0-9]+"));
    const QString kind = QString(failure).remove(digits);
    if (kind != m_lastFailureKind)
        qInfo("Groupscope reports, %lld ms after the move began: %s",
              m_sinceStop.isValid() ? m_sinceStop.elapsed() : -1LL, qPrintable(failure));
    m_lastFailureKind = kind;
    m_failures.append(failure);
}

QList<qint64> TestCoordinatorChange::expectedLags(const QList<qint64>& committed) const {
    QList<qint64> lags;
    for (int partition = 0; partition < partitionCount; ++partition)
        lags.append(m_logEnds[partition] - committed[partition]);
    return lags;
}

bool TestCoordinatorChange::viewShows(const QList<qint64>& committed) const {
    if (m_monitorLatest.takenAtMs < m_freshFromMs || m_polledAtMs < m_freshFromMs)
        return false;
    const QList<qint64> lags = expectedLags(committed);
    const GroupMonitorSnapshot& live = m_monitorLatest;
    if (!live.exists || live.error || live.partitions.size() != partitionCount ||
        live.totalLag != std::accumulate(lags.cbegin(), lags.cend(), qint64(0)))
        return false;
    if (!m_polledLatest || m_polledLatest->error ||
        m_polledLatest->partitions.size() != partitionCount)
        return false;
    for (int partition = 0; partition < partitionCount; ++partition) {
        const monitor::MonitoredPartition& row = live.partitions[partition];
        const monitor::PartitionSnapshot& polled = m_polledLatest->partitions[partition];
        const kafka::TopicPartition expected{m_topic, partition};
        if (row.topicPartition != expected || row.committedOffset != committed[partition] ||
            row.logEndOffset != m_logEnds[partition] || row.lag != lags[partition])
            return false;
        if (polled.topicPartition != expected || polled.committedOffset != committed[partition] ||
            polled.logEndOffset != m_logEnds[partition] || polled.lag != lags[partition] ||
            polled.error)
            return false;
    }
    return true;
}

bool TestCoordinatorChange::commitHistoryHas(const QList<qint64>& committed) const {
    if (m_monitorLatest.timelineApproximate())
        return false; // the offsets topic is not being read
    for (int partition = 0; partition < partitionCount; ++partition) {
        const bool found = std::any_of(
            m_monitorLatest.commits.cbegin(), m_monitorLatest.commits.cend(),
            [&](const monitor::CommitHistoryEntry& entry) {
                return entry.topicPartition == kafka::TopicPartition{m_topic, partition} &&
                       entry.offset == committed[partition] && !entry.deleted;
            });
        if (!found)
            return false;
    }
    return true;
}

int TestCoordinatorChange::coordinatorShown() const {
    return m_polledLatest ? m_polledLatest->description.coordinator.id : -1;
}

bool TestCoordinatorChange::kafkaToolShows(const QList<qint64>& committed, QString* seen) const {
    const auto rows = test::describedByKafka(m_group, m_cluster.bootstrap());
    if (!rows) {
        *seen = QStringLiteral("kafka-consumer-groups failed");
        return false;
    }
    const QList<qint64> lags = expectedLags(committed);
    seen->clear();
    int matching = 0;
    for (const test::KafkaDescribeRow& row : *rows) {
        *seen += QStringLiteral("%1:%2 current %3 end %4 lag %5; ")
                     .arg(row.topic)
                     .arg(row.partition)
                     .arg(optionalText(row.currentOffset), optionalText(row.logEndOffset),
                          optionalText(row.lag));
        if (row.topic == m_topic && row.partition >= 0 && row.partition < partitionCount &&
            row.currentOffset == committed[row.partition] &&
            row.logEndOffset == m_logEnds[row.partition] && row.lag == lags[row.partition])
            ++matching;
    }
    return matching == partitionCount && rows->size() == partitionCount &&
           test::lagReportedByKafka(m_group, m_cluster.bootstrap()) ==
               std::accumulate(lags.cbegin(), lags.cend(), qint64(0));
}

bool TestCoordinatorChange::commitThroughRunningNodes(const QList<qint64>& committed) {
    if (!test::commitOffsets(m_group, m_topic,
                             {int(committed[0]), int(committed[1]), int(committed[2])}, {},
                             m_cluster.runningBootstrap()))
        return false;
    m_committed = committed;
    return true;
}

QString TestCoordinatorChange::viewText() const {
    QString text = QStringLiteral("expected committed %1, log ends %2; ")
                       .arg(offsetsText(m_committed), offsetsText(m_logEnds));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    text += QStringLiteral("%1 refresh failures; ").arg(m_failures.size());
    text += QStringLiteral("monitor (%1 snapshots, the last %2 ms old, error '%3', stream %4): ")
                .arg(m_monitorSnapshots)
                .arg(now - m_monitorLatest.takenAtMs)
                .arg(m_monitorLatest.error.toString(), m_monitorLatest.timelineApproximate()
                                                           ? m_monitorLatest.timelineNote
                                                           : QStringLiteral("read"));
    for (const monitor::MonitoredPartition& row : m_monitorLatest.partitions)
        text += QStringLiteral("%1 committed %2 end %3 lag %4; ")
                    .arg(row.topicPartition.toString(), optionalText(row.committedOffset))
                    .arg(row.logEndOffset)
                    .arg(optionalText(row.lag));
    text += QStringLiteral("%1 commits in the history; ").arg(m_monitorLatest.commits.size());
    text += QStringLiteral("poller (%1 polls, the last %2 ms old): ")
                .arg(m_polls)
                .arg(now - m_polledAtMs);
    if (!m_polledLatest) {
        text += QStringLiteral("group not listed; ");
    } else {
        text += QStringLiteral("coordinator %1, error '%2': ")
                    .arg(m_polledLatest->description.coordinator.id)
                    .arg(m_polledLatest->error.toString());
        for (const monitor::PartitionSnapshot& row : m_polledLatest->partitions)
            text += QStringLiteral("%1 committed %2 end %3 lag %4; ")
                        .arg(row.topicPartition.toString(), optionalText(row.committedOffset))
                        .arg(row.logEndOffset)
                        .arg(optionalText(row.lag));
    }
    return text;
}

QTEST_GUILESS_MAIN(TestCoordinatorChange)
#include "TestCoordinatorChange.moc"
