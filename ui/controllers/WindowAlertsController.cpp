#include "controllers/WindowAlertsController.h"

#include "controllers/AlertController.h"
#include "dialogs/AlertThresholdsDialog.h"
#include "models/GroupListModel.h"
#include "notifications/FreedesktopNotifier.h"
#include "notifications/TrayNotifier.h"
#include "settings/WatchStore.h"
#include "widgets/AlertPanel.h"
#include "widgets/ApplicationIcon.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QDBusConnection>
#include <QDateTime>
#include <QMainWindow>
#include <QMenu>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QTableView>

namespace groupscope::ui {

namespace {

alerts::Alert overwrittenAlert(const offsets::GroupApplyResult& group) {
    QStringList written;
    QStringList now;
    for (const offsets::JournalPartition& partition : group.overwrittenPartitions()) {
        written.append(QStringLiteral("%1 %2").arg(partition.topicPartition.toString(),
                                                   QString::number(partition.after.value_or(-1))));
        now.append(
            QStringLiteral("%1 %2").arg(partition.topicPartition.toString(),
                                        QString::number(partition.overwrittenWith.value_or(-1))));
    }
    alerts::Alert alert;
    alert.atMs = QDateTime::currentMSecsSinceEpoch();
    alert.group = group.groupId;
    alert.kind = alerts::AlertKind::WriteOverwritten;
    alert.from = WindowAlertsController::tr("written %1").arg(written.join(QStringLiteral(", ")));
    alert.to = WindowAlertsController::tr("now %1").arg(now.join(QStringLiteral(", ")));
    alert.detail = WindowAlertsController::tr("A consumer still commits to the group and "
                                              "overwrote the offsets written (journal entry %1).")
                       .arg(group.journalId);
    return alert;
}

} // namespace

WindowAlertsController::WindowAlertsController(QMainWindow* window, GroupListModel* model,
                                               QAbstractItemView* list,
                                               std::function<QStringList()> selectedGroups,
                                               std::function<QString()> currentGroup)
    : QObject(window)
    , m_window(window)
    , m_alerts(new AlertController(this))
    , m_panel(new AlertPanel(m_alerts->model(), window))
    , m_tray(new QSystemTrayIcon(applicationIcon(), this))
    , m_list(list)
    , m_selectedGroups(std::move(selectedGroups))
    , m_currentGroup(std::move(currentGroup)) {
    window->addDockWidget(Qt::BottomDockWidgetArea, m_panel);
    // A few alert lines by default: the group list and the detail are what the window is
    // for. A layout the user saved sizes it their way.
    window->resizeDocks({m_panel}, {150}, Qt::Vertical);
    setUpTray();
    setUpNotifier();

    connect(m_alerts, &AlertController::watchedGroupsChanged, this,
            [this, model](const QSet<QString>& groups) {
                model->setWatchedGroups(groups);
                m_panel->setWatchedCount(int(groups.size()));
            });
    connect(m_alerts, &AlertController::alertRaised, this, [this](const alerts::Alert& alert) {
        m_window->statusBar()->showMessage(alert.title(), 10000);
        if (DesktopNotifier* notifier = m_alerts->notifier())
            m_panel->setNotifierDescription(notifier->description());
    });
    connect(m_panel, &AlertPanel::groupActivated, this, &WindowAlertsController::groupActivated);
    // A click on a row's star watches the group or stops watching it.
    connect(list, &QAbstractItemView::clicked, this, [this](const QModelIndex& index) {
        if (index.column() == GroupListModel::WatchColumn)
            m_alerts->toggleWatched({index.data(GroupListModel::GroupIdRole).toString()});
    });
    if (WatchStore::keepRunningInTray())
        setKeepRunningInTray(true);
}

void WindowAlertsController::setUpTray() {
    m_tray->setToolTip(tr("Groupscope"));
    auto* trayMenu = new QMenu(m_window);
    trayMenu->addAction(tr("&Show Groupscope"), this, &WindowAlertsController::showRequested);
    trayMenu->addAction(tr("&Quit"), this, &WindowAlertsController::quitRequested);
    m_tray->setContextMenu(trayMenu);
    connect(m_tray, &QSystemTrayIcon::activated, this,
            [this](QSystemTrayIcon::ActivationReason reason) {
                if (reason == QSystemTrayIcon::Trigger || reason == QSystemTrayIcon::DoubleClick)
                    emit showRequested();
            });
    connect(m_tray, &QSystemTrayIcon::messageClicked, this, &WindowAlertsController::showRequested);
}

void WindowAlertsController::setUpNotifier() {
    // Desktop notifications where a session bus runs (the daemon may still be missing:
    // then the first failed call hands over to the tray), the tray's messages elsewhere.
    auto tray = std::make_unique<TrayNotifier>(m_tray);
    const QDBusConnection bus = QDBusConnection::sessionBus();
    if (bus.isConnected())
        m_alerts->setNotifier(std::make_unique<FreedesktopNotifier>(bus, std::move(tray)));
    else
        m_alerts->setNotifier(std::move(tray));
    m_panel->setNotifierDescription(m_alerts->notifier()->description());
}

void WindowAlertsController::addActions(QMenu* viewMenu, QMenu* groupMenu) {
    groupMenu->addSeparator();
    QAction* watch = groupMenu->addAction(tr("&Watch for alerts (★)"));
    watch->setObjectName(QStringLiteral("watchGroupAction"));
    watch->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    connect(watch, &QAction::triggered, this, &WindowAlertsController::toggleWatchOfSelection);
    // Space on the list does the same, as a click on the star does.
    auto* watchBySpace = new QAction(tr("Watch for alerts"), m_list);
    watchBySpace->setShortcut(QKeySequence(Qt::Key_Space));
    watchBySpace->setShortcutContext(Qt::WidgetShortcut);
    m_list->addAction(watchBySpace);
    connect(watchBySpace, &QAction::triggered, this,
            &WindowAlertsController::toggleWatchOfSelection);
    QAction* thresholds = groupMenu->addAction(tr("Alert &thresholds…"));
    thresholds->setObjectName(QStringLiteral("alertThresholdsAction"));
    thresholds->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    connect(thresholds, &QAction::triggered, this,
            &WindowAlertsController::editThresholdsOfCurrentGroup);

    viewMenu->addSeparator();
    QAction* panel = m_panel->toggleViewAction();
    panel->setText(tr("&Alerts panel"));
    panel->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    viewMenu->addAction(panel);
    connect(panel, &QAction::triggered, this, [this](bool shown) {
        if (shown)
            m_panel->view()->setFocus(Qt::ShortcutFocusReason);
    });
}

void WindowAlertsController::addKeepInTrayAction(QMenu* fileMenu) {
    QAction* keepInTray = fileMenu->addAction(tr("&Keep running in the tray when closed"));
    keepInTray->setObjectName(QStringLiteral("keepRunningInTrayAction"));
    keepInTray->setCheckable(true);
    keepInTray->setChecked(WatchStore::keepRunningInTray());
    connect(keepInTray, &QAction::toggled, this, &WindowAlertsController::setKeepRunningInTray);
}

void WindowAlertsController::toggleWatchOfSelection() {
    const QStringList groups = m_selectedGroups();
    if (groups.isEmpty()) {
        m_window->statusBar()->showMessage(tr("Select a group in the list to watch it."), 5000);
        return;
    }
    m_alerts->toggleWatched(groups);
}

void WindowAlertsController::editThresholdsOfCurrentGroup() {
    const QString group = m_currentGroup();
    if (group.isEmpty()) {
        m_window->statusBar()->showMessage(tr("Select a group to set its alert thresholds."), 5000);
        return;
    }
    // Opened by the user only, so a modal dialog is fine here.
    AlertThresholdsDialog dialog(group, m_alerts->thresholds(group), m_window);
    if (dialog.exec() == QDialog::Accepted)
        m_alerts->setThresholds(group, dialog.thresholds());
}

void WindowAlertsController::setKeepRunningInTray(bool keep) {
    WatchStore::setKeepRunningInTray(keep);
    // Closing the window then leaves the monitor running, so the application must not
    // quit with its last window.
    QApplication::setQuitOnLastWindowClosed(!keep);
    m_tray->setVisible(keep || m_tray->isVisible());
}

void WindowAlertsController::setProfileName(const QString& name) {
    m_tray->setToolTip(tr("Groupscope — %1").arg(name));
}

bool WindowAlertsController::hideToTrayOnClose(bool quitting) {
    if (quitting || !WatchStore::keepRunningInTray() || !QSystemTrayIcon::isSystemTrayAvailable())
        return false;
    m_tray->show();
    return true;
}

void WindowAlertsController::alertOverwritten(const QList<offsets::GroupApplyResult>& verified) {
    for (const offsets::GroupApplyResult& group : verified)
        if (!group.overwrittenPartitions().isEmpty() && m_alerts->isWatched(group.groupId))
            m_alerts->raise(overwrittenAlert(group));
}

} // namespace groupscope::ui
