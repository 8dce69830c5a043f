#pragma once

#include "offsets/GroupDeleter.h"

#include <QObject>

#include <functional>

class QAbstractItemView;
class QMainWindow;
class QMenu;
class QSystemTrayIcon;

namespace groupscope::ui {

class AlertController;
class AlertPanel;
class GroupListModel;

// A window's part in alerts: the alert panel (a dock), the tray icon and its menu, the
// notifier the desktop offers, the actions that watch groups and set their thresholds,
// keeping the window running in the tray when closed, and the alert for a write a consumer
// overwrote. The alerts themselves are AlertController's.
class WindowAlertsController : public QObject {
    Q_OBJECT
public:
    // `selectedGroups` gives the groups the list's selection names, `currentGroup` the one
    // the thresholds dialog is for; `model` shows which groups are watched.
    WindowAlertsController(QMainWindow* window, GroupListModel* model, QAbstractItemView* list,
                           std::function<QStringList()> selectedGroups,
                           std::function<QString()> currentGroup);

    AlertController* alerts() const { return m_alerts; }
    AlertPanel* panel() const { return m_panel; }
    QSystemTrayIcon* tray() const { return m_tray; }

    // Watch (Ctrl+D, Space on the list), thresholds (Ctrl+T) in `groupMenu`; the panel's
    // toggle (Ctrl+Shift+A) in `viewMenu`.
    void addActions(QMenu* viewMenu, QMenu* groupMenu);
    // "Keep running in the tray when closed", checkable, in `fileMenu`.
    void addKeepInTrayAction(QMenu* fileMenu);
    void toggleWatchOfSelection();
    // Names the profile in the tray's tooltip.
    void setProfileName(const QString& name);
    // True when a close should hide the window to the tray instead (asked for, a tray
    // exists, and the application is not quitting); the tray icon is then shown.
    bool hideToTrayOnClose(bool quitting);
    // An alert for each watched group whose written offsets a consumer overwrote.
    void alertOverwritten(const QList<offsets::GroupApplyResult>& verified);

signals:
    // The tray's "Show" (or a click on it or on one of its messages), and its "Quit".
    void showRequested();
    void quitRequested();
    // A row of the alert panel was opened.
    void groupActivated(const QString& groupId);

private:
    void setUpTray();
    void setUpNotifier();
    void editThresholdsOfCurrentGroup();
    void setKeepRunningInTray(bool keep);

    QMainWindow* m_window;
    AlertController* m_alerts;
    AlertPanel* m_panel;
    QSystemTrayIcon* m_tray;
    QAbstractItemView* m_list;
    std::function<QStringList()> m_selectedGroups;
    std::function<QString()> m_currentGroup;
};

} // namespace groupscope::ui
