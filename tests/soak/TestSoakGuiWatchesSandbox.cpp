// The soak run: the GUI watching the sandbox workload, with `shipping` open (its live
// monitor, lag chart and timeline) and a rebalance every 20 s, for 30 minutes
// (GROUPSCOPE_SOAK_SECONDS to change it). Memory must stay flat and errors must not
// accumulate. Prints resident memory every minute, and start and end.

#include "../bench/BenchFigures.h"
#include "TestBroker.h"

#include "models/GroupListModel.h"
#include "sandbox/SandboxLayout.h"
#include "widgets/GroupDetailWidget.h"
#include "windows/MainWindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QTest>

using namespace groupscope;
using namespace std::chrono_literals;

class TestSoakGuiWatchesSandbox : public QObject {
    Q_OBJECT

private slots:
    void memoryStaysFlatAndErrorsDoNotAccumulate() {
        SKIP_WITHOUT_TEST_BROKER();
        const int seconds = qEnvironmentVariableIsSet("GROUPSCOPE_SOAK_SECONDS")
                                ? qEnvironmentVariableIntValue("GROUPSCOPE_SOAK_SECONDS")
                                : 1800;
        // The workload runs in a process of its own (as it would on a real cluster), so
        // its clients' buffers do not count as the GUI's memory.
        const QString prefix = test::uniqueName(QStringLiteral("soak")) + u'-';
        const sandbox::SandboxLayout layout = sandbox::SandboxLayout::standard(prefix);
        QProcess workload;
        workload.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        workload.start(QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli"),
                       {QStringLiteral("--bootstrap-server"), test::bootstrapServers(),
                        QStringLiteral("sandbox"), QStringLiteral("--name-prefix"), prefix,
                        QStringLiteral("--rebalance-interval"), QStringLiteral("20"),
                        QStringLiteral("--quiet")});
        QVERIFY(workload.waitForStarted());

        ui::MainWindow window;
        window.resize(1400, 900);
        window.show();
        window.connectTo(test::brokerProfile());
        window.openGroup(layout.shipping.name);
        QTRY_VERIFY_WITH_TIMEOUT(window.groupListModel()->rowOf(layout.shipping.name) >= 0, 60000);

        // Failed refreshes are counted as the status bar reports them.
        int failedRefreshes = 0;
        bool wasError = false;
        QList<double> megabytesPerMinute;
        QElapsedTimer clock;
        clock.start();
        QElapsedTimer sinceSample;
        sinceSample.start();
        const double startMegabytes = bench::megabytes(double(bench::residentKilobytes()));
        while (clock.elapsed() < qint64(seconds) * 1000) {
            QTest::qWait(1000); // the soak's pace, not a synchronisation
            const bool isError = window.connectionStatusIsError();
            if (isError && !wasError)
                ++failedRefreshes;
            wasError = isError;
            if (sinceSample.elapsed() >= 60'000) {
                sinceSample.restart();
                megabytesPerMinute.append(bench::megabytes(double(bench::residentKilobytes())));
                qInfo("minute %lld: RSS %.1f MB, generations on the timeline %lld, failed "
                      "refreshes %d",
                      static_cast<long long>(megabytesPerMinute.size()), megabytesPerMinute.last(),
                      static_cast<long long>(
                          window.groupDetail()->monitorSnapshot().timeline.generations.size()),
                      failedRefreshes);
            }
        }
        const double endMegabytes = bench::megabytes(double(bench::residentKilobytes()));
        workload.terminate(); // SIGTERM: the sandbox stops its clients and exits
        QVERIFY(workload.waitForFinished(30000));
        qInfo("soak of %d s: RSS %.1f MB at the start, %.1f MB at the end; %d failed refreshes",
              seconds, startMegabytes, endMegabytes, failedRefreshes);
        QCOMPARE(failedRefreshes, 0);
        // Flat: after the first minutes' warm-up (history windows filling), the second half
        // of the run may not grow by more than a few megabytes.
        if (megabytesPerMinute.size() >= 4) {
            const double middle = megabytesPerMinute.at(megabytesPerMinute.size() / 2);
            QVERIFY2(endMegabytes - middle < 25,
                     qPrintable(QStringLiteral("%1 MB -> %2 MB").arg(middle).arg(endMegabytes)));
        }
    }
};

QTEST_MAIN(TestSoakGuiWatchesSandbox)
#include "TestSoakGuiWatchesSandbox.moc"
