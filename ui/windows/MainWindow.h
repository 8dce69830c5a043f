#pragma once

#include "kafka/ConnectionProfile.h"
#include "monitor/ClusterView.h"
#include "offsets/ResetApplier.h"
#include "settings/SavedConnection.h"
#include "settings/WindowLayoutStore.h"

#include <QMainWindow>
#include <QPointer>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QSplitter;
class QSystemTrayIcon;
class QTabWidget;
class QTableView;
class QColor;

namespace groupscope::monitor {
class AdminTaskRunner;
class ClusterMonitor;
} // namespace groupscope::monitor

namespace groupscope::ui {

class AlertController;
class AlertPanel;
class GroupDetailWidget;
class GroupListModel;
class GroupFilterProxyModel;
class PlaceholderTableView;
class ResetController;
class TopicsView;

// The group list of one cluster beside the detail of the open group, both refreshed from
// the ClusterViews of one ClusterMonitor (the cluster's live pipeline, on its worker
// thread), which watches the open group; Admin jobs (plan, apply) run on an AdminTaskRunner.
// The window only ever receives values; it never waits on the network.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Starts showing `profile`'s cluster; the previous monitor (if any) is stopped without
    // waiting for it. A read-only connection disables every write action.
    void connectTo(const kafka::ConnectionProfile& profile);
    void connectTo(const SavedConnection& connection);
    // A window of its own on `connection`, shown, deleted when closed: File > New window.
    // Windows share nothing but the settings; each has its own monitor and alerts.
    static MainWindow* openWindow(const SavedConnection& connection);
    void setRefreshInterval(std::chrono::milliseconds interval);
    // Opens a group in the detail pane now, or as soon as a refresh lists it.
    void openGroup(QString groupId); // by value: callers pass m_groupToOpen, which it clears
    // Shows one refresh of the live pipeline: what the monitor's viewReady delivers. Public
    // so that benchmarks can feed the window the views of a cluster too large to run.
    void applyView(const monitor::ClusterView& view);

    GroupListModel* groupListModel() const { return m_model; }
    GroupFilterProxyModel* groupProxyModel() const { return m_proxy; }
    QTableView* groupView() const;
    GroupDetailWidget* groupDetail() const { return m_detail; }
    TopicsView* topicsView() const { return m_topics; }
    QTabWidget* browserTabs() const { return m_browserTabs; }
    ResetController* resetController() const { return m_resetController; }
    AlertController* alertController() const { return m_alerts; }
    AlertPanel* alertPanel() const { return m_alertPanel; }
    QSystemTrayIcon* trayIcon() const { return m_tray; }
    QString connectionStatusText() const;
    bool connectionStatusIsError() const { return m_statusIsError; }
    bool isReadOnly() const;
    const SavedConnection& connection() const { return m_connection; }
    // The profile's colour on the window's edge; invalid when it has none.
    QColor profileColour() const;

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    // The constructor's parts: the filter row, the group table, the splitter with the
    // detail below, the status bar.
    void setUpFilters();
    void setUpGroupTable();
    void setUpLayout();
    void setUpStatusBar();
    void createMenus();
    void showAbout();
    void showRefreshFailure(const QString& message);
    void showStatus(const QString& text, bool isError);
    void updatePlaceholder();
    void askForConnection();
    void openCurrentGroup();
    // The window's layout, sort, filter and open group, remembered per saved profile
    // (WindowLayoutStore); geometry only where the window is not on screen yet.
    WindowLayout currentLayout() const;
    void applyLayout(const WindowLayout& layout, bool withGeometry);
    void saveLayout() const;
    void showProfile(); // title, colour, production mark
    void updateTitle();
    void askForNewWindow();
    // Alerts: the panel, the tray icon, the notifier the desktop offers, the actions.
    void setUpAlerts();
    void createAlertActions(QMenu* fileMenu, QMenu* viewMenu, QMenu* groupMenu);
    QStringList selectedGroups() const;
    void toggleWatchOfSelection();
    void editThresholdsOfCurrentGroup();
    // Deleting groups (MainWindowDelete.cpp): the actions, the confirmation, the outcome.
    void createDeleteActions(QMenu* groupMenu);
    void deleteSelectedGroups();
    void showDeleteOutcome(const kafka::Result<QList<offsets::GroupApplyResult>>& results);
    // A write's life beyond its panel (MainWindowWrites.cpp): its outcome in the status bar
    // or, once the window is closed, as a notification; an alert when a watched group's
    // write was overwritten; a close that asks while a write runs.
    void setUpWriteNotices();
    // True when the close must not happen now: the user kept the window, or it hides and
    // closes itself once the write is done.
    bool closeWaitsForWrite();
    static bool anyWindowWaitsForItsWrite();
    void setKeepRunningInTray(bool keep);
    void showFromTray();
    void quit();

    GroupListModel* m_model;
    GroupFilterProxyModel* m_proxy;
    PlaceholderTableView* m_view;
    QLineEdit* m_filterEdit;
    QComboBox* m_stateFilter;
    QSplitter* m_splitter;
    QTabWidget* m_browserTabs; // Groups, Topics
    TopicsView* m_topics;
    ResetController* m_resetController;
    GroupDetailWidget* m_detail;
    AlertController* m_alerts;
    AlertPanel* m_alertPanel;
    QSystemTrayIcon* m_tray;
    QAction* m_deleteAction = nullptr;
    QLabel* m_statusLabel;
    QLabel* m_refreshLabel;
    QLabel* m_modeLabel;
    QWidget* m_colourBar;
    QLabel* m_profileLabel;
    QPointer<monitor::ClusterMonitor> m_monitor;
    SavedConnection m_connection;
    std::chrono::milliseconds m_refreshInterval{2000};
    monitor::ClusterView m_lastView;
    QString m_groupToOpen;       // asked for before the group was listed
    QDateTime m_lastGoodRefresh; // when the snapshot on screen was taken
    QString m_lastFailure;
    bool m_statusIsError = false;
    bool m_closeWhenWriteEnds = false;
    // Quit closes every window, none of which then stays in the tray.
    static inline bool s_quitting = false;
};

} // namespace groupscope::ui
