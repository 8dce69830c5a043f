// Alerts on watched groups through the real pipeline, on the real broker with real
// members: a group starred in the list goes from OK to a stall (ERR), and from a stable
// generation into a rebalance that a member never rejoins (stuck); each time the window
// notifies once (a recording notifier stands in for the desktop) and lists the alert in
// its panel, whose entry opens the group.

#include "TestBroker.h"

#include "controllers/AlertController.h"
#include "models/AlertListModel.h"
#include "models/GroupFilterProxyModel.h"
#include "models/GroupListModel.h"
#include "notifications/DesktopNotifier.h"
#include "settings/WatchStore.h"
#include "widgets/AlertPanel.h"
#include "widgets/GroupDetailWidget.h"
#include "windows/MainWindow.h"

#include <QApplication>
#include <QDeadlineTimer>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

using namespace groupscope;
using alerts::Alert;
using alerts::AlertKind;
using ui::AlertListModel;
using ui::GroupListModel;
using ui::MainWindow;

namespace {

// Every alert's title and detail, for a failure message.
QString titlesOf(const QList<groupscope::alerts::Alert>& alerts) {
    QStringList lines;
    for (const auto& alert : alerts)
        lines.append(alert.title() + QStringLiteral(": ") + alert.detail);
    return lines.join(u'\n');
}

// What the desktop would have shown, in order.
class RecordingNotifier : public ui::DesktopNotifier {
public:
    explicit RecordingNotifier(QList<Alert>* shown)
        : m_shown(shown) {}
    void notify(const Alert& alert) override { m_shown->append(alert); }
    QString description() const override { return QStringLiteral("the test's recorder"); }

private:
    QList<Alert>* m_shown;
};

QModelIndex listed(const MainWindow& window, const QString& group, int column) {
    const int row = window.groupListModel()->rowOf(group);
    return row < 0 ? QModelIndex() : window.groupListModel()->index(row, column);
}

QString listedText(const MainWindow& window, const QString& group, int column,
                   int role = Qt::DisplayRole) {
    return listed(window, group, column).data(role).toString();
}

// The group's row in the view (through the sort proxy).
QModelIndex shownRow(const MainWindow& window, const QString& group, int column) {
    return window.groupView()->model()->index(
        window.groupProxyModel()->mapFromSource(listed(window, group, 0)).row(), column);
}

// Waits until the window has applied `refreshes` more views than now.
bool waitForRefreshes(const MainWindow& window, int refreshes) {
    const int seen = window.alertController()->observedViews();
    return test::waitFor(
        [&] { return window.alertController()->observedViews() >= seen + refreshes; },
        std::chrono::seconds(60));
}

// A python3-kafka program reading commands on stdin; stopped by closing stdin.
std::unique_ptr<QProcess> startPython(const QString& script) {
    auto process = std::make_unique<QProcess>();
    process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process->start(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), script});
    return process;
}

bool waitForLine(QProcess& process, const QByteArray& line, std::chrono::seconds timeout) {
    QByteArray seen;
    QDeadlineTimer deadline(timeout);
    while (!deadline.hasExpired()) {
        if (process.waitForReadyRead(500))
            seen += process.readAllStandardOutput();
        if (seen.contains(line))
            return true;
        if (process.state() == QProcess::NotRunning)
            return false;
    }
    return false;
}

void stop(QProcess& process) {
    process.closeWriteChannel();
    if (!process.waitForFinished(30000)) {
        process.kill();
        process.waitForFinished(5000);
    }
}

} // namespace

class TestAlerts : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        SKIP_WITHOUT_TEST_BROKER();
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("GroupscopeTest"));
        QSettings().clear();
    }

    // Each test watches only its own group.
    void init() { QSettings().clear(); }

    void aWatchedGroupThatStallsNotifiesOnceAndListsTheAlert() {
        const QString topic = test::uniqueName(QStringLiteral("alert-orders"));
        const QString group = test::uniqueName(QStringLiteral("alert-stall"));
        QVERIFY(test::createTopic(topic, 1));
        QVERIFY(test::produce(topic, 100, 0));
        QVERIFY(test::commitOffsets(group, topic, {10})); // one commit: OK, not judged further

        MainWindow window;
        window.setRefreshInterval(std::chrono::milliseconds(300));
        window.connectTo(test::brokerProfile());
        QList<Alert> notified;
        window.alertController()->setNotifier(std::make_unique<RecordingNotifier>(&notified));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(window.groupListModel()->rowOf(group) >= 0, 60000);
        QTRY_COMPARE_WITH_TIMEOUT(listedText(window, group, GroupListModel::HealthColumn),
                                  QStringLiteral("OK"), 60000);

        // Starred by keyboard: its row selected in the list, then Space.
        QCOMPARE(listedText(window, group, GroupListModel::WatchColumn), QStringLiteral("☆"));
        window.groupView()->setFocus();
        window.groupView()->setCurrentIndex(shownRow(window, group, GroupListModel::GroupColumn));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(window.groupView(), Qt::Key_Space);
        QVERIFY(window.alertController()->isWatched(group));
        QCOMPARE(listedText(window, group, GroupListModel::WatchColumn), QStringLiteral("★"));
        QVERIFY(
            ui::WatchStore::load(window.alertController()->connectionKey()).groups.contains(group));
        QVERIFY(waitForRefreshes(window, 2)); // the baseline: OK
        QVERIFY(notified.isEmpty());

        // Commits offset 10 again and again while 90 messages wait: a stall.
        auto stuck = startPython(QStringLiteral(R"(
import select, sys
from kafka import KafkaConsumer, TopicPartition
from kafka.structs import OffsetAndMetadata
c = KafkaConsumer(bootstrap_servers='%1', group_id='%2', enable_auto_commit=False)
while True:
    c.commit({TopicPartition('%3', 0): OffsetAndMetadata(10, None)})
    readable, _, _ = select.select([sys.stdin], [], [], 1.5)
    if readable and not sys.stdin.readline():
        break
c.close()
)")
                                     .arg(test::bootstrapServers(), group, topic));
        QVERIFY(stuck->waitForStarted(10000));
        QTRY_VERIFY_WITH_TIMEOUT(!notified.isEmpty(), 90000);
        const Alert alert = notified.first();
        QCOMPARE(alert.group, group);
        QCOMPARE(alert.kind, AlertKind::Health);
        QCOMPARE(alert.from, QStringLiteral("OK"));
        QCOMPARE(alert.to, QStringLiteral("ERR (STALL)"));
        QVERIFY2(alert.detail.startsWith(topic + QStringLiteral(":0 is ")),
                 qPrintable(alert.detail));
        QCOMPARE(listedText(window, group, GroupListModel::HealthColumn), QStringLiteral("ERR"));

        // The panel lists it, newest first.
        AlertListModel* alerts = window.alertController()->model();
        QCOMPARE(alerts->rowCount(), 1);
        QCOMPARE(alerts->index(0, AlertListModel::GroupColumn).data().toString(), group);
        QCOMPARE(alerts->index(0, AlertListModel::KindColumn).data().toString(),
                 QStringLiteral("health"));
        QCOMPARE(alerts->index(0, AlertListModel::ChangeColumn).data().toString(),
                 QStringLiteral("OK \u2192 ERR (STALL)"));
        QVERIFY(!alerts->index(0, AlertListModel::TimeColumn).data().toString().isEmpty());

        // Enter on the alert opens its group.
        QTableView* panelView = window.alertPanel()->view();
        panelView->setFocus();
        panelView->setCurrentIndex(alerts->index(0, 0));
        QTest::keyClick(panelView, Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(window.groupDetail()->groupId(), group, 10000);

        // The stall goes on, refresh after refresh: no second notification of it.
        QVERIFY(waitForRefreshes(window, 5));
        QVERIFY2(notified.size() == 1, qPrintable(titlesOf(notified)));
        QCOMPARE(alerts->rowCount(), 1);
        stop(*stuck);
    }

    void aRebalanceAMemberNeverRejoinsIsStuckWithItsCauseAndAlerts() {
        const QString topic = test::uniqueName(QStringLiteral("alert-jobs"));
        const QString group = test::uniqueName(QStringLiteral("alert-stuck"));
        QVERIFY(test::createTopic(topic, 2));
        // Its heartbeat thread keeps the session (6 s) alive, but its main thread stops
        // polling once assigned, so it never rejoins: a rebalance then waits for it up to
        // its 120 s rebalance timeout.
        const QString memberOptions =
            QStringLiteral("bootstrap_servers='%1', group_id='%2', session_timeout_ms=6000, "
                           "heartbeat_interval_ms=1000, max_poll_interval_ms=120000")
                .arg(test::bootstrapServers(), group);
        auto blocked = startPython(QStringLiteral(R"(
import sys
from kafka import KafkaConsumer
c = KafkaConsumer('%1', client_id='blocked-a', enable_auto_commit=False, %2)
while not c.assignment():
    c.poll(timeout_ms=500)
print('assigned', flush=True)
sys.stdin.readline()
c.close()
)")
                                       .arg(topic, memberOptions));
        QVERIFY(blocked->waitForStarted(10000));
        QVERIFY(waitForLine(*blocked, "assigned", std::chrono::seconds(90)));

        MainWindow window;
        window.setRefreshInterval(std::chrono::milliseconds(300));
        window.connectTo(test::brokerProfile());
        QList<Alert> notified;
        window.alertController()->setNotifier(std::make_unique<RecordingNotifier>(&notified));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE_WITH_TIMEOUT(listedText(window, group, GroupListModel::StateColumn),
                                  QStringLiteral("Stable"), 60000);
        // Starred by a click on its star.
        QTableView* view = window.groupView();
        const QRect star = view->visualRect(shownRow(window, group, GroupListModel::WatchColumn));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, star.center());
        QVERIFY(window.alertController()->isWatched(group));
        QVERIFY(waitForRefreshes(window, 2));

        auto joining = startPython(QStringLiteral(R"(
import select, sys
from kafka import KafkaConsumer
c = KafkaConsumer('%1', client_id='joining-b', %2)
while True:
    c.poll(timeout_ms=500)
    readable, _, _ = select.select([sys.stdin], [], [], 0)
    if readable and not sys.stdin.readline():
        break
c.close()
)")
                                       .arg(topic, memberOptions));
        QVERIFY(joining->waitForStarted(10000));

        // Longer than the shorter of the group's own timeouts, which GroupMetadata gave.
        QTRY_VERIFY_WITH_TIMEOUT(!notified.isEmpty(), 90000);
        const Alert alert = notified.first();
        QCOMPARE(alert.group, group);
        QCOMPARE(alert.kind, AlertKind::StuckRebalance);
        QVERIFY2(alert.detail.contains(QStringLiteral("the group's 6.0 s timeout")),
                 qPrintable(alert.detail));
        QVERIFY2(alert.detail.contains(QStringLiteral("cause: member joining-b-")),
                 qPrintable(alert.detail));
        QCOMPARE(listedText(window, group, GroupListModel::HealthColumn), QStringLiteral("ERR"));
        const QString tooltip =
            listedText(window, group, GroupListModel::HealthColumn, Qt::ToolTipRole);
        QVERIFY2(tooltip.startsWith(QStringLiteral("rebalance stuck for ")), qPrintable(tooltip));
        QVERIFY2(tooltip.contains(QStringLiteral("member joining-b-")), qPrintable(tooltip));
        QCOMPARE(window.alertController()->model()->rowCount(), 1);
        QCOMPARE(window.alertController()
                     ->model()
                     ->index(0, AlertListModel::KindColumn)
                     .data()
                     .toString(),
                 QStringLiteral("stuck rebalance"));

        // The blocked member leaves: the rebalance completes and the verdict recovers.
        stop(*blocked);
        QTRY_VERIFY_WITH_TIMEOUT(listedText(window, group, GroupListModel::HealthColumn) !=
                                     QStringLiteral("ERR"),
                                 60000);
        stop(*joining);
    }
};

QTEST_MAIN(TestAlerts)
#include "TestAlerts.moc"
