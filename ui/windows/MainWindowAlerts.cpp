// MainWindow's part in alerts: the alert panel (a dock), the tray icon, the notifier the
// desktop offers, and the actions that watch groups and set their thresholds. Kept apart
// from MainWindow.cpp, which is long enough.

#include "windows/MainWindow.h"

#include "controllers/AlertController.h"
#include "dialogs/AlertThresholdsDialog.h"
#include "models/GroupFilterProxyModel.h"
#include "models/GroupListModel.h"
#include "monitor/ClusterMonitor.h"
#include "notifications/FreedesktopNotifier.h"
#include "notifications/TrayNotifier.h"
#include "settings/WatchStore.h"
#include "widgets/AlertPanel.h"
#include "widgets/GroupDetailWidget.h"
#include "widgets/PlaceholderTableView.h"

#include <QAction>
#include <QApplication>
#include <QDBusConnection>
#include <QItemSelectionModel>
#include <QMenu>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QTableView>

namespace groupscope::ui {

void MainWindow::setUpAlerts() {
    addDockWidget(Qt::BottomDockWidgetArea, m_alertPanel);
    // A few alert lines by default: the group list and the detail are what the window is for.
    // A layout the user saved sizes it their way (applyLayout).
    resizeDocks({m_alertPanel}, {150}, Qt::Vertical);
    m_tray->setToolTip(tr("Groupscope"));
    auto* trayMenu = new QMenu(this);
    trayMenu->addAction(tr("&Show Groupscope"), this, &MainWindow::showFromTray);
    trayMenu->addAction(tr("&Quit"), this, &MainWindow::quit);
    m_tray->setContextMenu(trayMenu);
    connect(m_tray, &QSystemTrayIcon::activated, this,
            [this](QSystemTrayIcon::ActivationReason reason) {
                if (reason == QSystemTrayIcon::Trigger || reason == QSystemTrayIcon::DoubleClick)
                    showFromTray();
            });
    connect(m_tray, &QSystemTrayIcon::messageClicked, this, &MainWindow::showFromTray);

    // Desktop notifications where a session bus runs (the daemon may still be missing:
    // then the first failed call hands over to the tray), the tray's messages elsewhere.
    auto tray = std::make_unique<TrayNotifier>(m_tray);
    const QDBusConnection bus = QDBusConnection::sessionBus();
    if (bus.isConnected())
        m_alerts->setNotifier(std::make_unique<FreedesktopNotifier>(bus, std::move(tray)));
    else
        m_alerts->setNotifier(std::move(tray));
    m_alertPanel->setNotifierDescription(m_alerts->notifier()->description());

    connect(m_alerts, &AlertController::watchedGroupsChanged, this,
            [this](const QSet<QString>& groups) {
                m_model->setWatchedGroups(groups);
                m_alertPanel->setWatchedCount(int(groups.size()));
            });
    connect(m_alerts, &AlertController::rebalanceThresholdsChanged, this,
            [this](const QHash<QString, lag::RebalanceThresholds>& thresholds) {
                if (m_monitor)
                    m_monitor->setRebalanceThresholds(thresholds);
            });
    connect(m_alerts, &AlertController::alertRaised, this, [this](const alerts::Alert& alert) {
        statusBar()->showMessage(alert.title(), 10000);
        if (DesktopNotifier* notifier = m_alerts->notifier())
            m_alertPanel->setNotifierDescription(notifier->description());
    });
    connect(m_alertPanel, &AlertPanel::groupActivated, this, [this](const QString& group) {
        showFromTray();
        openGroup(group);
    });
    // A click on a row's star watches the group or stops watching it.
    connect(m_view, &QAbstractItemView::clicked, this, [this](const QModelIndex& index) {
        if (index.column() == GroupListModel::WatchColumn)
            m_alerts->toggleWatched({index.data(GroupListModel::GroupIdRole).toString()});
    });
    if (WatchStore::keepRunningInTray())
        setKeepRunningInTray(true);
}

void MainWindow::createAlertActions(QMenu* fileMenu, QMenu* viewMenu, QMenu* groupMenu) {
    Q_UNUSED(fileMenu); // "Keep running in the tray" sits beside Quit (createMenus)
    groupMenu->addSeparator();
    QAction* watch = groupMenu->addAction(tr("&Watch for alerts (★)"));
    watch->setObjectName(QStringLiteral("watchGroupAction"));
    watch->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    connect(watch, &QAction::triggered, this, &MainWindow::toggleWatchOfSelection);
    // Space on the list does the same, as a click on the star does.
    auto* watchBySpace = new QAction(tr("Watch for alerts"), m_view);
    watchBySpace->setShortcut(QKeySequence(Qt::Key_Space));
    watchBySpace->setShortcutContext(Qt::WidgetShortcut);
    m_view->addAction(watchBySpace);
    connect(watchBySpace, &QAction::triggered, this, &MainWindow::toggleWatchOfSelection);
    QAction* thresholds = groupMenu->addAction(tr("Alert &thresholds…"));
    thresholds->setObjectName(QStringLiteral("alertThresholdsAction"));
    thresholds->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    connect(thresholds, &QAction::triggered, this, &MainWindow::editThresholdsOfCurrentGroup);

    viewMenu->addSeparator();
    QAction* panel = m_alertPanel->toggleViewAction();
    panel->setText(tr("&Alerts panel"));
    panel->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    viewMenu->addAction(panel);
    connect(panel, &QAction::triggered, this, [this](bool shown) {
        if (shown)
            m_alertPanel->view()->setFocus(Qt::ShortcutFocusReason);
    });
}

QStringList MainWindow::selectedGroups() const {
    QStringList groups;
    for (const QModelIndex& index : m_view->selectionModel()->selectedRows())
        groups.append(index.data(GroupListModel::GroupIdRole).toString());
    if (groups.isEmpty() && m_view->currentIndex().isValid())
        groups.append(m_view->currentIndex().data(GroupListModel::GroupIdRole).toString());
    return groups;
}

void MainWindow::toggleWatchOfSelection() {
    const QStringList groups = selectedGroups();
    if (groups.isEmpty()) {
        statusBar()->showMessage(tr("Select a group in the list to watch it."), 5000);
        return;
    }
    m_alerts->toggleWatched(groups);
}

void MainWindow::editThresholdsOfCurrentGroup() {
    QString group = m_view->currentIndex().data(GroupListModel::GroupIdRole).toString();
    if (group.isEmpty())
        group = m_detail->groupId();
    if (group.isEmpty()) {
        statusBar()->showMessage(tr("Select a group to set its alert thresholds."), 5000);
        return;
    }
    // Opened by the user only, so a modal dialog is fine here.
    AlertThresholdsDialog dialog(group, m_alerts->thresholds(group), this);
    if (dialog.exec() == QDialog::Accepted)
        m_alerts->setThresholds(group, dialog.thresholds());
}

void MainWindow::setKeepRunningInTray(bool keep) {
    WatchStore::setKeepRunningInTray(keep);
    // Closing the window then leaves the monitor running, so the application must not
    // quit with its last window.
    QApplication::setQuitOnLastWindowClosed(!keep);
    m_tray->setVisible(keep || m_tray->isVisible());
}

void MainWindow::showFromTray() {
    showNormal();
    raise();
    activateWindow();
}

} // namespace groupscope::ui
