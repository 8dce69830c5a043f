// ClusterMonitor against the real broker: views arrive on the caller's thread at the
// interval, refreshNow() runs one at once, failures are reported, and stopping never waits
// for more than the Admin call in flight.

#include "TestBroker.h"

#include "monitor/ClusterMonitor.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

using namespace groupscope;
using monitor::ClusterMonitor;
using monitor::ClusterView;
using namespace std::chrono_literals;

class TestClusterMonitor : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { SKIP_WITHOUT_TEST_BROKER(); }

    void deliversSnapshotsOnTheCallersThreadAtTheInterval() {
        ClusterMonitor poller(test::brokerProfile());
        poller.setInterval(200ms);
        QList<Qt::HANDLE> deliveringThreads;
        connect(&poller, &ClusterMonitor::viewReady, this, [&](const ClusterView& view) {
            QVERIFY(view.cluster.takenAt.isValid());
            QVERIFY(!view.cluster.error);
            deliveringThreads.append(QThread::currentThreadId());
        });
        QSignalSpy failures(&poller, &ClusterMonitor::refreshFailed);
        poller.start();
        QVERIFY(poller.isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(deliveringThreads.size() >= 3, 30000);
        QVERIFY2(failures.isEmpty(),
                 failures.isEmpty() ? "" : qPrintable(failures.first().first().toString()));
        for (Qt::HANDLE thread : deliveringThreads)
            QCOMPARE(thread, QThread::currentThreadId());
    }

    void refreshNowDoesNotWaitForTheInterval() {
        ClusterMonitor poller(test::brokerProfile());
        poller.setInterval(std::chrono::hours(1));
        QSignalSpy snapshots(&poller, &ClusterMonitor::viewReady);
        // On a loaded machine a refresh may time out; the next would come in an hour.
        connect(&poller, &ClusterMonitor::refreshFailed, &poller, &ClusterMonitor::refreshNow);
        poller.start();
        QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() >= 1, 60000);
        const qsizetype before = snapshots.count();
        poller.refreshNow();
        poller.refreshNow();
        QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() >= before + 1, 60000);
        // The second call is merged into the first while that one is still pending; when
        // the worker has already taken the first, it runs one more. Never more than that.
        QVERIFY2(snapshots.count() <= before + 2, qPrintable(QString::number(snapshots.count())));
    }

    void failureIsReportedAndPollingContinues() {
        kafka::ConnectionProfile nowhere;
        nowhere.bootstrapServers = QStringLiteral("127.0.0.1:1");
        ClusterMonitor poller(nowhere);
        poller.setRequestTimeout(500ms);
        poller.setInterval(100ms);
        QSignalSpy failures(&poller, &ClusterMonitor::refreshFailed);
        QSignalSpy snapshots(&poller, &ClusterMonitor::viewReady);
        poller.start();
        QTRY_VERIFY_WITH_TIMEOUT(failures.count() >= 2, 30000);
        QVERIFY2(failures.first().first().toString().contains(QStringLiteral("127.0.0.1:1")),
                 qPrintable(failures.first().first().toString()));
        QCOMPARE(snapshots.count(), 0);
    }

    void stopReturnsAtOnceAndTheWorkerEndsAfterItsCurrentCall() {
        kafka::ConnectionProfile nowhere;
        nowhere.bootstrapServers = QStringLiteral("127.0.0.1:1");
        ClusterMonitor poller(nowhere);
        poller.setRequestTimeout(2000ms);
        QSignalSpy stopped(&poller, &ClusterMonitor::stopped);
        QSignalSpy failures(&poller, &ClusterMonitor::refreshFailed);
        poller.start();
        // The worker is now (or soon) blocked in an Admin call that cannot succeed.
        QElapsedTimer clock;
        clock.start();
        poller.stop();
        QVERIFY2(clock.elapsed() < 500, "stop() must not wait for the worker");
        // Bounded by the call in flight: one request timeout, not one per remaining call.
        QVERIFY(poller.waitForStopped(QDeadlineTimer(15000)));
        QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 5000);
        QCOMPARE(failures.count(), 0); // results after stop() are dropped
        QVERIFY(!poller.isRunning());
    }

    void canBeRestartedAfterStopping() {
        ClusterMonitor poller(test::brokerProfile());
        QSignalSpy snapshots(&poller, &ClusterMonitor::viewReady);
        poller.start();
        QTRY_COMPARE_WITH_TIMEOUT(snapshots.count(), 1, 30000);
        poller.stop();
        QVERIFY(poller.waitForStopped(QDeadlineTimer(15000)));
        poller.start();
        QTRY_COMPARE_WITH_TIMEOUT(snapshots.count(), 2, 30000);
    }

    void destroyingARunningPollerIsSafe() {
        auto poller = std::make_unique<ClusterMonitor>(test::brokerProfile());
        QSignalSpy snapshots(poller.get(), &ClusterMonitor::viewReady);
        poller->start();
        poller->refreshNow();
        poller.reset(); // stops and joins the worker; queued results must not crash
        QCoreApplication::processEvents();
    }
};

QTEST_GUILESS_MAIN(TestClusterMonitor)
#include "TestClusterMonitor.moc"
