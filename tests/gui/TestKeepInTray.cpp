// "Keep running in the tray when closed", end to end on a real X display with a real system
// tray (tests/support/with-tray: Xvfb and trayer; the offscreen platform has no tray) and
// without a session bus, so that alerts go to the tray's own messages: the window closes
// into the tray, the monitor goes on refreshing, a watched group whose last member (a
// python3-kafka consumer) leaves raises a tray message and an entry in the alert panel, and
// the tray's menu brings the window back.

#include "BrokerWindow.h"
#include "TestBroker.h"

#include "controllers/AlertController.h"
#include "models/AlertListModel.h"
#include "models/GroupListModel.h"
#include "notifications/DesktopNotifier.h"
#include "windows/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QMenu>
#include <QSystemTrayIcon>
#include <QTemporaryDir>
#include <QTest>

using namespace groupscope;
using ui::MainWindow;

namespace {

// The texts of the tray message on screen: Qt's balloon (QBalloonTip) where the tray is an
// XEmbed one and no notification service answers.
QStringList trayMessageTexts() {
    QStringList texts;
    for (QWidget* widget : QApplication::topLevelWidgets()) {
        if (!widget->isVisible() || qstrcmp(widget->metaObject()->className(), "QBalloonTip") != 0)
            continue;
        for (const QLabel* label : widget->findChildren<QLabel*>())
            texts.append(label->text());
    }
    return texts;
}

bool anyContains(const QStringList& texts, const QString& part) {
    for (const QString& text : texts)
        if (text.contains(part))
            return true;
    return false;
}

} // namespace

class TestKeepInTray : public QObject {
    Q_OBJECT

    QTemporaryDir m_dataDir;

private slots:
    void initTestCase() {
        SKIP_WITHOUT_TEST_BROKER();
        QVERIFY(m_dataDir.isValid());
        test::keepGuiSettingsApart(m_dataDir.path());
        QCOMPARE(QGuiApplication::platformName(), QStringLiteral("xcb"));
        // trayer takes the tray selection a moment after the display starts.
        QTRY_VERIFY_WITH_TIMEOUT(QSystemTrayIcon::isSystemTrayAvailable(), 20000);
    }

    void aClosedWindowKeepsWatchingFromTheTray() {
        const QString topic = test::uniqueName(QStringLiteral("tray-orders"));
        const QString group = test::uniqueName(QStringLiteral("tray-watched"));
        QVERIFY(test::createTopic(topic, 1));
        QVERIFY(test::produce(topic, 10, 0));
        auto member = std::make_unique<test::PythonGroupMember>(
            topic, group, QStringLiteral("tray-member"), true);
        QVERIFY(member->waitUntilAssigned());

        std::unique_ptr<MainWindow> window = test::brokerWindow();
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QTRY_VERIFY_WITH_TIMEOUT(window->groupListModel()->rowOf(group) >= 0, 60000);
        window->alertController()->setWatched(group, true);
        QVERIFY(
            window->alertController()->notifier()->description().contains(QStringLiteral("tray")));

        auto* keep = window->findChild<QAction*>(QStringLiteral("keepRunningInTrayAction"));
        QVERIFY(keep);
        keep->setChecked(true);
        auto* tray = window->findChild<QSystemTrayIcon*>();
        QVERIFY(tray);
        QTRY_VERIFY(tray->isVisible());

        // Closed: hidden, not gone, and the application does not quit with it.
        bool lastWindowClosed = false;
        connect(qApp, &QGuiApplication::lastWindowClosed, this, [&] { lastWindowClosed = true; });
        QVERIFY(!window->close());
        QVERIFY(!window->isVisible());
        QVERIFY(!QApplication::quitOnLastWindowClosed());
        const int seen = window->alertController()->observedViews();
        QTRY_VERIFY_WITH_TIMEOUT(window->alertController()->observedViews() >= seen + 2, 30000);

        // The last member leaves: the tray says so, and the panel lists it.
        QVERIFY(member->leave());
        member.reset();
        QTRY_VERIFY_WITH_TIMEOUT(anyContains(trayMessageTexts(), group), 60000);
        QVERIFY(!window->isVisible());
        ui::AlertListModel* alerts = window->alertController()->model();
        QVERIFY(alerts->rowCount() >= 1);
        QCOMPARE(alerts->index(0, ui::AlertListModel::GroupColumn).data().toString(), group);
        QCOMPARE(alerts->index(0, ui::AlertListModel::KindColumn).data().toString(),
                 alerts::alertKindName(alerts::AlertKind::GroupEmptied));

        // The tray's menu brings the window back.
        QVERIFY(tray->contextMenu());
        const QList<QAction*> actions = tray->contextMenu()->actions();
        QVERIFY(!actions.isEmpty());
        actions.front()->trigger();
        QTRY_VERIFY(window->isVisible());
        QVERIFY(!lastWindowClosed);

        keep->setChecked(false);
        QVERIFY(QApplication::quitOnLastWindowClosed());
    }
};

QTEST_MAIN(TestKeepInTray)
#include "TestKeepInTray.moc"
