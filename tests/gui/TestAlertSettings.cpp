// What the user sets for alerts, without a cluster: the thresholds dialog's values, their
// persistence per connection (WatchStore), the stars, and the rebalance thresholds handed
// to the live pipeline; and the alert panel's entries and their Enter key.

#include "controllers/AlertController.h"
#include "dialogs/AlertThresholdsDialog.h"
#include "models/AlertListModel.h"
#include "settings/WatchStore.h"
#include "widgets/AlertPanel.h"

#include <QAbstractItemModelTester>
#include <QDoubleSpinBox>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

using namespace groupscope;

class TestAlertSettings : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("GroupscopeTest"));
    }
    void init() { QSettings().clear(); }

    void theDialogTurnsItsFieldsIntoThresholds() {
        ui::AlertThresholdsDialog dialog(QStringLiteral("orders-app"), {});
        alerts::AlertThresholds unset = dialog.thresholds();
        QVERIFY(unset.isDefault()); // "none" and "the group's own timeouts"
        dialog.totalLagEdit()->setValue(5000);
        dialog.timeLagEdit()->setValue(120);
        dialog.stormEdit()->setValue(3);
        dialog.stuckEdit()->setValue(30);
        const alerts::AlertThresholds set = dialog.thresholds();
        QCOMPARE(set.maxTotalLag, std::optional<int64_t>(5000));
        QCOMPARE(set.maxTimeLagSeconds, std::optional<double>(120));
        QCOMPARE(set.rebalance.stormRebalances, 3);
        QCOMPARE(set.rebalance.stuckAfterMs, std::optional<int64_t>(30'000));
        // Opened again on those, it shows them.
        ui::AlertThresholdsDialog again(QStringLiteral("orders-app"), set);
        QCOMPARE(again.thresholds(), set);
    }

    void starsAndThresholdsAreKeptPerConnection() {
        ui::AlertController controller;
        controller.setConnection(QStringLiteral("prod 127.0.0.1:9092/a"));
        QSignalSpy watched(&controller, &ui::AlertController::watchedGroupsChanged);
        QSignalSpy rebalance(&controller, &ui::AlertController::rebalanceThresholdsChanged);
        controller.toggleWatched({QStringLiteral("billing"), QStringLiteral("orders")});
        QCOMPARE(watched.size(), 1);
        alerts::AlertThresholds thresholds;
        thresholds.maxTotalLag = 100;
        thresholds.rebalance.stuckAfterMs = 9000;
        controller.setThresholds(QStringLiteral("orders"), thresholds);
        QCOMPARE(rebalance.size(), 1);
        QCOMPARE(controller.rebalanceThresholds().value(QStringLiteral("orders")).stuckAfterMs,
                 std::optional<int64_t>(9000));

        // Another connection has its own; the first one's come back with it.
        ui::AlertController other;
        other.setConnection(QStringLiteral("staging"));
        QVERIFY(other.watchedGroups().isEmpty());
        other.setConnection(QStringLiteral("prod 127.0.0.1:9092/a"));
        QCOMPARE(other.watchedGroups(),
                 (QSet<QString>{QStringLiteral("billing"), QStringLiteral("orders")}));
        QCOMPARE(other.thresholds(QStringLiteral("orders")), thresholds);
        // Toggling a selection that is all watched stops watching it.
        other.toggleWatched({QStringLiteral("billing"), QStringLiteral("orders")});
        QVERIFY(other.watchedGroups().isEmpty());
        QVERIFY(ui::WatchStore::load(QStringLiteral("prod 127.0.0.1:9092/a")).groups.isEmpty());
    }

    void keepingRunningInTheTrayIsOffUntilAskedFor() {
        QCOMPARE(ui::WatchStore::keepRunningInTray(), false);
        ui::WatchStore::setKeepRunningInTray(true);
        QCOMPARE(ui::WatchStore::keepRunningInTray(), true);
    }

    void thePanelListsNewestFirstAndEnterOpensTheGroup() {
        ui::AlertListModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        ui::AlertPanel panel(&model);
        model.addAlert({1000,
                        QStringLiteral("billing"),
                        alerts::AlertKind::GroupEmptied,
                        QStringLiteral("2 members"),
                        QStringLiteral("empty"),
                        {}});
        model.addAlert({2000, QStringLiteral("orders"), alerts::AlertKind::Health,
                        QStringLiteral("OK"), QStringLiteral("WARN"), QStringLiteral("why")});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, ui::AlertListModel::GroupColumn).data().toString(),
                 QStringLiteral("orders"));
        QCOMPARE(model.index(1, ui::AlertListModel::ChangeColumn).data().toString(),
                 QStringLiteral("2 members \u2192 empty"));
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy opened(&panel, &ui::AlertPanel::groupActivated);
        panel.view()->setFocus();
        panel.view()->setCurrentIndex(model.index(1, 0));
        QTest::keyClick(panel.view(), Qt::Key_Return);
        QCOMPARE(opened.size(), 1);
        QCOMPARE(opened.first().first().toString(), QStringLiteral("billing"));
        for (int i = 0; i < ui::AlertListModel::maxAlerts + 5; ++i)
            model.addAlert({3000 + i,
                            QStringLiteral("orders"),
                            alerts::AlertKind::LagAbove,
                            QStringLiteral("1"),
                            QStringLiteral("2"),
                            {}});
        QCOMPARE(model.rowCount(), ui::AlertListModel::maxAlerts);
    }
};

QTEST_MAIN(TestAlertSettings)
#include "TestAlertSettings.moc"
