// Several windows, one per connection profile, against the real broker: File > New window
// opens a second window on another profile, each titled and coloured by its own; the
// production profile asks a second time before a write (declined: Kafka's tool still lists
// the group; accepted: it is gone) while the other profile's write does not ask; the
// Reset offsets tab deletes the selected rows' commits (read back by python3-kafka); and
// each profile's window remembers its filter, sort and open group.

#include "BrokerWindow.h"

#include "controllers/ResetController.h"
#include "dialogs/ApplyConfirmDialog.h"
#include "dialogs/ConnectionManagerDialog.h"
#include "dialogs/DeleteGroupsConfirm.h"
#include "dialogs/ProductionWriteConfirm.h"
#include "models/GroupFilterProxyModel.h"
#include "models/GroupListModel.h"
#include "models/OffsetEditModel.h"
#include "settings/ConnectionStore.h"
#include "widgets/GroupDetailWidget.h"
#include "widgets/OffsetResetPanel.h"
#include "widgets/ResetHistoryPanel.h"
#include "windows/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace groupscope;

namespace {

ui::SavedConnection profileNamed(const QString& name) {
    for (const ui::SavedConnection& saved : ui::ConnectionStore::load())
        if (saved.profile.name == name)
            return saved;
    return {};
}

QList<ui::MainWindow*> openWindows() {
    QList<ui::MainWindow*> windows;
    for (QWidget* widget : QApplication::topLevelWidgets())
        if (auto* window = qobject_cast<ui::MainWindow*>(widget); window && window->isVisible())
            windows.append(window);
    return windows;
}

void selectGroup(ui::MainWindow* window, const QString& group) {
    const int row = window->groupListModel()->rowOf(group);
    const QModelIndex shown =
        window->groupProxyModel()->mapFromSource(window->groupListModel()->index(row, 0));
    window->groupView()->selectionModel()->setCurrentIndex(
        shown, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

bool listedByKafka(const QString& group) {
    const auto listed = test::kafkaConsumerGroups({QStringLiteral("--list")});
    return listed.ok() && QString::fromUtf8(listed.out).split(u'\n').contains(group);
}

QAction* action(ui::MainWindow* window, const char* name) {
    return window->findChild<QAction*>(QString::fromLatin1(name));
}

} // namespace

class TestSeveralWindows : public QObject {
    Q_OBJECT

    QTemporaryDir m_dataDir;
    QString m_topic;

private slots:
    void initTestCase() {
        SKIP_WITHOUT_TEST_BROKER();
        QVERIFY(m_dataDir.isValid());
        test::keepGuiSettingsApart(m_dataDir.path());
        ui::SavedConnection staging;
        staging.profile = test::brokerProfile();
        staging.profile.name = QStringLiteral("staging");
        staging.colour = QStringLiteral("#00897b");
        staging.refreshInterval = std::chrono::milliseconds(500);
        ui::SavedConnection production = staging;
        production.profile.name = QStringLiteral("prod");
        production.colour = QStringLiteral("#d32f2f");
        production.production = true;
        ui::ConnectionStore::save({staging, production});
        m_topic = test::uniqueName(QStringLiteral("windows"));
        QVERIFY(test::createTopic(m_topic, 2));
        QVERIFY(test::produce(m_topic, 20));
    }

    void cleanup() {
        // A window closed while its write runs would ask first (MainWindow::closeEvent).
        for (ui::MainWindow* window : openWindows())
            QTRY_VERIFY_WITH_TIMEOUT(!window->resetController()->isApplying(), 30000);
        QApplication::closeAllWindows();
        QTRY_VERIFY_WITH_TIMEOUT(openWindows().isEmpty(), 5000);
    }

    void newWindowOnAnotherProfile() {
        const QString group = test::uniqueName(QStringLiteral("windows-g"));
        QVERIFY(test::commitOffsets(group, m_topic, {1, 2}));
        QPointer<ui::MainWindow> staging =
            ui::MainWindow::openWindow(profileNamed(QStringLiteral("staging")));
        ui::ConnectionManagerDialog::setNextAnswer(profileNamed(QStringLiteral("prod")));
        action(staging, "newWindowAction")->trigger();
        QCOMPARE(openWindows().size(), 2);
        ui::MainWindow* prod =
            openWindows().first() == staging ? openWindows().last() : openWindows().first();
        QCOMPARE(prod->connection().displayName(), QStringLiteral("prod"));

        // Each lists the cluster's groups on its own monitor.
        QTRY_VERIFY_WITH_TIMEOUT(staging->groupListModel()->rowOf(group) >= 0, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(prod->groupListModel()->rowOf(group) >= 0, 30000);
        QVERIFY2(staging->windowTitle().contains(QStringLiteral("staging")) &&
                     !staging->windowTitle().contains(QStringLiteral("production")),
                 qPrintable(staging->windowTitle()));
        QVERIFY2(prod->windowTitle().contains(QStringLiteral("prod (")) &&
                     prod->windowTitle().contains(QStringLiteral("[production]")),
                 qPrintable(prod->windowTitle()));
        QCOMPARE(staging->profileColour(), QColor(QStringLiteral("#00897b")));
        QCOMPARE(prod->profileColour(), QColor(QStringLiteral("#d32f2f")));
        QVERIFY(prod->findChild<QWidget*>(QStringLiteral("profileColourBar"))->isVisible());
        const auto* label = prod->findChild<QLabel*>(QStringLiteral("profileLabel"));
        QVERIFY2(label->text().contains(QStringLiteral("production")), qPrintable(label->text()));
        QVERIFY(prod->resetController()->isProduction());
        QVERIFY(!staging->resetController()->isProduction());

        // They share nothing but settings: a filter in one leaves the other alone.
        staging->findChild<QLineEdit*>(QStringLiteral("groupFilterEdit"))
            ->setText(QStringLiteral("no-such-group"));
        QCOMPARE(staging->groupProxyModel()->rowCount(), 0);
        QVERIFY(prod->groupProxyModel()->rowCount() > 0);
        staging->findChild<QLineEdit*>(QStringLiteral("groupFilterEdit"))->clear();
    }

    void productionAsksTwiceBeforeAWrite() {
        const QString group = test::uniqueName(QStringLiteral("windows-prod"));
        QVERIFY(test::commitOffsets(group, m_topic, {3, 4}));
        ui::MainWindow* prod = ui::MainWindow::openWindow(profileNamed(QStringLiteral("prod")));
        QTRY_VERIFY_WITH_TIMEOUT(prod->groupListModel()->rowOf(group) >= 0, 30000);

        // Declined the second time: nothing is deleted, and the status says so.
        const int asked = ui::ProductionWriteConfirm::timesAsked();
        selectGroup(prod, group);
        ui::DeleteGroupsConfirm::setNextAnswer(true);
        ui::ProductionWriteConfirm::setNextAnswer(false);
        action(prod, "deleteGroupAction")->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(ui::ProductionWriteConfirm::timesAsked(), asked + 1, 30000);
        const QString question = ui::ProductionWriteConfirm::lastText();
        QVERIFY2(question.contains(QStringLiteral("“prod”")) && question.contains(group),
                 qPrintable(question));
        QVERIFY(!prod->resetController()->isApplying());
        QVERIFY(prod->resetController()->lastRefusal().contains(QStringLiteral("prod")));
        // The refusal is on screen, in place of the connection's state.
        QVERIFY2(
            prod->statusBar()->currentMessage().contains(QStringLiteral("Nothing was changed")),
            qPrintable(prod->statusBar()->currentMessage()));
        QVERIFY(!prod->findChild<QLabel*>(QStringLiteral("connectionStatus"))->isVisible());
        QVERIFY(listedByKafka(group));

        // Accepted: deleted.
        selectGroup(prod, group);
        ui::DeleteGroupsConfirm::setNextAnswer(true);
        ui::ProductionWriteConfirm::setNextAnswer(true);
        action(prod, "deleteGroupAction")->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!listedByKafka(group), 30000);
        QCOMPARE(ui::ProductionWriteConfirm::timesAsked(), asked + 2);
    }

    void deleteOffsetsFromTheResetTab() {
        const QString group = test::uniqueName(QStringLiteral("windows-del"));
        QVERIFY(test::commitOffsets(group, m_topic, {5, 6}));
        ui::MainWindow* staging =
            ui::MainWindow::openWindow(profileNamed(QStringLiteral("staging")));
        staging->openGroup(group);
        staging->groupDetail()->tabs()->setCurrentIndex(ui::GroupDetailWidget::OffsetsTab);
        ui::OffsetResetPanel* panel = staging->groupDetail()->offsetPanel();
        QTRY_COMPARE_WITH_TIMEOUT(panel->model()->rowCount(), 2, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(panel->deleteOffsetsButton()->isEnabled(), 10000);
        const int row = panel->model()->rowOfKey({m_topic, 0});
        panel->view()->selectionModel()->setCurrentIndex(panel->model()->index(row, 0),
                                                         QItemSelectionModel::ClearAndSelect |
                                                             QItemSelectionModel::Rows);

        // Cancelled at the confirmation: both commits stay.
        const int asked = ui::ProductionWriteConfirm::timesAsked();
        ui::ApplyConfirmDialog::setNextAnswer(false);
        panel->deleteOffsetsButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(panel->statusText().contains(QStringLiteral("Nothing was")),
                                 30000);
        QVERIFY2(
            ui::ApplyConfirmDialog::lastSummary().contains(QStringLiteral("1 committed offset")),
            qPrintable(ui::ApplyConfirmDialog::lastSummary()));
        QCOMPARE(test::committedOffsetsByKafka(group, m_topic),
                 (QMap<int, qlonglong>{{0, 5}, {1, 6}}));

        // Confirmed: partition 0's commit is gone, partition 1's stays; not production, so
        // nothing asked a second time.
        ui::ApplyConfirmDialog::setNextAnswer(true);
        action(staging, "deleteOffsetsAction")->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(panel->lastResults().size(), 1, 30000);
        QVERIFY2(panel->lastResults().first().endsWith(QStringLiteral("ok")),
                 qPrintable(panel->lastResults().first()));
        QCOMPARE(test::committedOffsetsByKafka(group, m_topic), (QMap<int, qlonglong>{{1, 6}}));
        QCOMPARE(ui::ProductionWriteConfirm::timesAsked(), asked);

        // Undo in the History tab commits the deleted offset again.
        ui::ResetHistoryPanel* history = staging->groupDetail()->historyPanel();
        staging->groupDetail()->tabs()->setCurrentIndex(ui::GroupDetailWidget::HistoryTab);
        QTRY_COMPARE_WITH_TIMEOUT(history->entries().size(), 1, 10000);
        QVERIFY2(
            history->entries().first().description.startsWith(QStringLiteral("delete-offsets")),
            qPrintable(history->entries().first().description));
        history->table()->selectRow(0);
        QTRY_VERIFY_WITH_TIMEOUT(history->undoButton()->isEnabled(), 10000);
        ui::ApplyConfirmDialog::setNextAnswer(true);
        history->undoButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(history->entries().size(), 2, 30000);
        QCOMPARE(test::committedOffsetsByKafka(group, m_topic),
                 (QMap<int, qlonglong>{{0, 5}, {1, 6}}));
    }

    void eachProfileRemembersItsWindow() {
        const QString group = test::uniqueName(QStringLiteral("windows-open"));
        QVERIFY(test::commitOffsets(group, m_topic, {7, 8}));
        {
            QPointer<ui::MainWindow> staging =
                ui::MainWindow::openWindow(profileNamed(QStringLiteral("staging")));
            QTRY_VERIFY_WITH_TIMEOUT(staging->groupListModel()->rowOf(group) >= 0, 30000);
            staging->openGroup(group);
            QCOMPARE(staging->groupDetail()->groupId(), group);
            staging->findChild<QLineEdit*>(QStringLiteral("groupFilterEdit"))
                ->setText(QStringLiteral("windows-"));
            staging->groupView()->sortByColumn(ui::GroupListModel::TotalLagColumn,
                                               Qt::DescendingOrder);
            staging->close();
            QTRY_VERIFY(staging.isNull()); // deleted on close, its layout saved
        }
        {
            // The other profile has a window of its own: none of that.
            ui::MainWindow* prod = ui::MainWindow::openWindow(profileNamed(QStringLiteral("prod")));
            QCOMPARE(prod->findChild<QLineEdit*>(QStringLiteral("groupFilterEdit"))->text(),
                     QString());
            QVERIFY(prod->groupDetail()->groupId().isEmpty());
            prod->close();
        }
        ui::MainWindow* again = ui::MainWindow::openWindow(profileNamed(QStringLiteral("staging")));
        QCOMPARE(again->findChild<QLineEdit*>(QStringLiteral("groupFilterEdit"))->text(),
                 QStringLiteral("windows-"));
        const QHeaderView* header = again->groupView()->horizontalHeader();
        QCOMPARE(header->sortIndicatorSection(), int(ui::GroupListModel::TotalLagColumn));
        QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);
        QCOMPARE(again->groupProxyModel()->sortColumn(), int(ui::GroupListModel::TotalLagColumn));
        QTRY_VERIFY_WITH_TIMEOUT(again->groupListModel()->rowOf(group) >= 0, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(again->groupDetail()->groupId(), group, 10000); // open again
    }
};

QTEST_MAIN(TestSeveralWindows)
#include "TestSeveralWindows.moc"
