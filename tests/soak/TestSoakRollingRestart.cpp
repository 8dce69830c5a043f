// Coordinators that move under load: on a three-node cluster of its own holding
// GROUPSCOPE_SOAK_GROUPS groups (3,000 by default; 100,000 for the README's figure), each
// committed on 10 partitions by kafka-seed-groups, the live pipeline behind the group list and
// the exporter (a ClusterMonitor polling every group) runs while the nodes are stopped and
// started again one after another, as in a rolling restart. Each node's stop moves the
// coordination of a third of the groups to the others.
//
// In every view, every group is listed: a group whose coordinator is away keeps its last good
// rows with an error saying so (stale), never dropped; and a group shown without an error
// shows exactly the offsets it committed (never a wrong figure as current). Once the last node
// is back, every group is shown fresh again, and, with leadership on the preferred replicas
// again, the refreshes take their normal time.
// Prints the figures: how long each step left groups stale, refresh times before and after.

#include "../bench/BenchFigures.h"
#include "TestBroker.h"

#include "monitor/ClusterMonitor.h"

#include <QElapsedTimer>
#include <QTest>

#include <cstdio>

using namespace groupscope;
using namespace std::chrono_literals;
using monitor::ClusterView;
using monitor::GroupSnapshot;

namespace {

constexpr int topicCount = 10;           // kafka-seed-groups' default
constexpr int partitionsPerTopic = 10;   // and its commits: group G, partition P at (G + P) % 101
constexpr int recordsPerPartition = 100; // what it writes to each partition
constexpr auto refreshInterval = 1s;
// How long after a node's return every group must be shown fresh again.
constexpr auto recoveryDeadline = 120s;

int groupCount() {
    const int groups = qEnvironmentVariableIntValue("GROUPSCOPE_SOAK_GROUPS");
    return groups > 0 ? groups : 3'000;
}

} // namespace

class TestSoakRollingRestart : public QObject {
    Q_OBJECT

    test::KafkaCluster m_cluster;
    const QString m_prefix = QStringLiteral("rolling");
    std::unique_ptr<monitor::ClusterMonitor> m_monitor;
    QElapsedTimer m_clock;
    // Per view: when it arrived (ms on m_clock), how many seeded groups it listed and how
    // many of them it showed with an error.
    struct ViewSeen {
        qint64 atMs;
        int listed;
        int stale;
    };
    QList<ViewSeen> m_views;
    QStringList m_wrongFigures; // groups shown without an error but with other offsets
    int m_refreshFailures = 0;

    // What the view shows of the seeded groups; a group without an error must show its
    // seeded offsets on every partition, and the log end where it is known.
    void check(const ClusterView& view) {
        int listed = 0;
        int stale = 0;
        for (const GroupSnapshot& group : view.cluster.groups) {
            const QString& id = group.groupId();
            if (!id.startsWith(m_prefix + QStringLiteral("-group-")))
                continue;
            ++listed;
            if (group.error) {
                ++stale;
                continue;
            }
            const int number = id.section(u'-', -1).toInt();
            const QString topic =
                QStringLiteral("%1-topic-%2").arg(m_prefix).arg(number % topicCount);
            bool right = group.partitions.size() == partitionsPerTopic;
            for (const monitor::PartitionSnapshot& partition : group.partitions)
                right =
                    right && partition.topicPartition.topic == topic &&
                    partition.committedOffset ==
                        std::optional<int64_t>((number + partition.topicPartition.partition) %
                                               101) &&
                    (partition.logEndOffset < 0 || partition.logEndOffset == recordsPerPartition);
            if (!right && m_wrongFigures.size() < 10)
                m_wrongFigures.append(id);
        }
        m_views.append({m_clock.elapsed(), listed, stale});
    }

    // The views since `fromMs`.
    QList<ViewSeen> viewsSince(qint64 fromMs) const {
        QList<ViewSeen> since;
        for (const ViewSeen& view : m_views)
            if (view.atMs >= fromMs)
                since.append(view);
        return since;
    }

    // Median time between consecutive views since `fromMs`, in ms.
    double medianRefreshMs(qint64 fromMs) const {
        const QList<ViewSeen> views = viewsSince(fromMs);
        QList<double> gaps;
        for (qsizetype i = 1; i < views.size(); ++i)
            gaps.append(double(views[i].atMs - views[i - 1].atMs));
        return gaps.isEmpty() ? -1 : bench::percentile(gaps, 50);
    }

    // Waits until a view polled wholly after `fromMs` lists every group fresh: the second
    // view to arrive after it or a later one (the first may have been polled before).
    bool waitUntilAllFresh(qint64 fromMs, std::chrono::milliseconds deadline) {
        return QTest::qWaitFor(
            [&] {
                const QList<ViewSeen> views = viewsSince(fromMs);
                return views.size() >= 2 && views.last().listed == groupCount() &&
                       views.last().stale == 0;
            },
            int(deadline.count()));
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_cluster.start(), qPrintable(m_cluster.error()));
        const auto seeded = test::seedGroups(m_cluster.bootstrap(), groupCount(),
                                             partitionsPerTopic, topicCount, m_prefix);
        QVERIFY2(seeded.ok(), seeded.err.left(2000).constData());
        std::printf("TestSoakRollingRestart: %s\n", seeded.out.trimmed().constData());
        // Coordination spread over every node, as on a cluster that has run for a while.
        const auto elected = m_cluster.electPreferredLeaders();
        QVERIFY2(elected.ok(), elected.err.constData());

        kafka::ConnectionProfile profile;
        profile.name = QStringLiteral("three-node cluster");
        profile.bootstrapServers = m_cluster.bootstrap();
        m_monitor = std::make_unique<monitor::ClusterMonitor>(profile);
        m_monitor->setInterval(refreshInterval);
        connect(m_monitor.get(), &monitor::ClusterMonitor::viewReady, this,
                [this](const ClusterView& view) { check(view); });
        connect(m_monitor.get(), &monitor::ClusterMonitor::refreshFailed, this,
                [this] { ++m_refreshFailures; });
        m_clock.start();
        m_monitor->start();
        QVERIFY2(waitUntilAllFresh(0, std::chrono::minutes(10)),
                 "the groups were never all listed");
    }

    void cleanupTestCase() {
        if (m_monitor) {
            m_monitor->stop();
            m_monitor->waitForStopped(QDeadlineTimer(30000));
        }
    }

    void everyGroupStaysListedWhileEachNodeRestarts() {
        // Normal refreshes first: five views with every node up.
        const qint64 normalFrom = m_clock.elapsed();
        QVERIFY(QTest::qWaitFor([&] { return viewsSince(normalFrom).size() >= 6; }, 600'000));
        const double normalMs = medianRefreshMs(normalFrom);

        for (int node = 1; node <= test::KafkaCluster::nodeCount; ++node) {
            const qint64 stoppedAtMs = m_clock.elapsed();
            QVERIFY(m_cluster.stopNode(node));
            // Until the groups it coordinated are shown fresh from their new coordinators.
            QVERIFY2(
                waitUntilAllFresh(m_clock.elapsed(), recoveryDeadline),
                qPrintable(QStringLiteral("node %1 stopped: not every group fresh").arg(node)));
            const qint64 freshAfterStopMs = m_clock.elapsed() - stoppedAtMs;
            const qint64 returnedAtMs = m_clock.elapsed();
            QVERIFY(m_cluster.restartNode(node));
            const qint64 restartMs = m_clock.elapsed() - returnedAtMs;
            QVERIFY2(waitUntilAllFresh(m_clock.elapsed(), recoveryDeadline),
                     qPrintable(QStringLiteral("node %1 back: not every group fresh").arg(node)));
            int mostStale = 0;
            for (const ViewSeen& view : viewsSince(stoppedAtMs))
                mostStale = std::max(mostStale, view.stale);
            std::printf("node %d: stopped, every group fresh again %.1f s after the stop "
                        "began (at most %d of %d stale in a view); restarted in %.1f s\n",
                        node, double(freshAfterStopMs) / 1000, mostStale, groupCount(),
                        double(restartMs) / 1000);
        }

        // After the last return the nodes that came back early lead most partitions (the
        // test bed has Kafka's automatic leader rebalance off), so the refreshes are as they
        // are; once leadership is on the preferred replicas again, as that rebalance puts it
        // minutes after a return, they take their normal time.
        const qint64 returnedFrom = m_clock.elapsed();
        QVERIFY(QTest::qWaitFor([&] { return viewsSince(returnedFrom).size() >= 4; }, 600'000));
        const double unbalancedMs = medianRefreshMs(returnedFrom);
        const auto elected = m_cluster.electPreferredLeaders();
        QVERIFY2(elected.ok(), elected.err.constData());
        QVERIFY2(waitUntilAllFresh(m_clock.elapsed(), recoveryDeadline),
                 "leadership rebalanced: not every group fresh");
        const qint64 afterFrom = m_clock.elapsed();
        QVERIFY(QTest::qWaitFor([&] { return viewsSince(afterFrom).size() >= 6; }, 600'000));
        const double afterMs = medianRefreshMs(afterFrom);
        std::printf("TestSoakRollingRestart at %d groups: refresh every %.0f ms before the "
                    "restarts, %.0f ms right after them, %.0f ms with leadership rebalanced "
                    "(interval %lld ms); %d refreshes failed as a whole meanwhile\n",
                    groupCount(), normalMs, unbalancedMs, afterMs,
                    qlonglong(std::chrono::milliseconds(refreshInterval).count()),
                    m_refreshFailures);
        std::fflush(stdout);

        // Every view listed every group; none showed a wrong figure as current.
        for (const ViewSeen& view : viewsSince(normalFrom))
            QVERIFY2(view.listed == groupCount(),
                     qPrintable(QStringLiteral("a view at %1 ms listed %2 of %3 groups")
                                    .arg(view.atMs)
                                    .arg(view.listed)
                                    .arg(groupCount())));
        QVERIFY2(m_wrongFigures.isEmpty(), qPrintable(m_wrongFigures.join(u' ')));
        // Normal again: within one interval of the time before.
        QVERIFY2(afterMs <= normalMs + double(std::chrono::milliseconds(refreshInterval).count()),
                 qPrintable(QStringLiteral("refresh every %1 ms before, %2 ms after")
                                .arg(normalMs)
                                .arg(afterMs)));
    }
};

QTEST_GUILESS_MAIN(TestSoakRollingRestart)
#include "TestSoakRollingRestart.moc"
