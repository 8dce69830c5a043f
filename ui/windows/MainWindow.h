#pragma once

#include "controllers/ProfileController.h"
#include "controllers/WindowAlertsController.h"
#include "kafka/ConnectionProfile.h"
#include "monitor/ClusterView.h"
#include "settings/SavedConnection.h"
#include "settings/WindowLayoutStore.h"
#include "widgets/ConnectionStatus.h"
#include "widgets/GroupBrowser.h"
#include "windows/ReleaseAfterRepaint.h"

#include <QMainWindow>
#include <QPointer>

class QSplitter;
class QSystemTrayIcon;
class QTabWidget;
class QTableView;

namespace groupscope::monitor {
class ClusterMonitor;
} // namespace groupscope::monitor

namespace groupscope::ui {

class GroupDeleteController;
class GroupDetailWidget;
class ResetController;
class TopicsView;
class WriteNoticeController;

// The group list of one cluster beside the detail of the open group, both refreshed from
// the ClusterViews of one ClusterMonitor (the cluster's live pipeline, on its worker
// thread), which watches the open group; Admin jobs (plan, apply) run on an AdminTaskRunner.
// The window only ever receives values; it never waits on the network. Its parts are
// controllers of their own: writes (ResetController), deletes (GroupDeleteController),
// alerts and the tray (WindowAlertsController), the profile (ProfileController), a
// write's outcome and a close while one runs (WriteNoticeController).
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

    GroupListModel* groupListModel() const { return m_browser->model(); }
    GroupFilterProxyModel* groupProxyModel() const { return m_browser->proxy(); }
    QTableView* groupView() const;
    GroupDetailWidget* groupDetail() const { return m_detail; }
    TopicsView* topicsView() const { return m_topics; }
    QTabWidget* browserTabs() const { return m_browserTabs; }
    ResetController* resetController() const { return m_resetController; }
    AlertController* alertController() const { return m_alerts->alerts(); }
    AlertPanel* alertPanel() const { return m_alerts->panel(); }
    QSystemTrayIcon* trayIcon() const { return m_alerts->tray(); }
    QString connectionStatusText() const { return m_status->text(); }
    bool connectionStatusIsError() const { return m_status->isError(); }
    bool isReadOnly() const { return connection().readOnly; }
    const SavedConnection& connection() const { return m_profile->connection(); }
    // The profile's colour on the window's edge; invalid when it has none.
    QColor profileColour() const { return m_profile->colour(); }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    // The constructor's parts: the browser tabs and the detail in a splitter, the
    // controllers' signals (MainWindow.cpp), the menus (MainWindowMenus.cpp).
    void setUpLayout();
    void setUpControllers();
    void createMenus();
    void showAbout();
    void askForConnection();
    void openCurrentGroup();
    void updateTitle();
    // The group the thresholds dialog is for: the list's current one, else the open one.
    QString currentGroup() const;
    // The window's layout, sort, filter and open group, remembered per saved profile
    // (WindowLayoutStore, MainWindowLayout.cpp); geometry only where the window is not on
    // screen yet.
    WindowLayout currentLayout() const;
    void applyLayout(const WindowLayout& layout, bool withGeometry);
    void saveLayout() const;
    void askForNewWindow();
    void showFromTray();
    void quit();

    GroupBrowser* m_browser;
    QSplitter* m_splitter;
    QTabWidget* m_browserTabs; // Groups, Topics
    TopicsView* m_topics;
    ResetController* m_resetController;
    GroupDetailWidget* m_detail;
    ProfileController* m_profile;
    WindowAlertsController* m_alerts;
    GroupDeleteController* m_deletes;
    WriteNoticeController* m_writes;
    ConnectionStatus* m_status;
    QPointer<monitor::ClusterMonitor> m_monitor;
    std::chrono::milliseconds m_refreshInterval{2000};
    monitor::ClusterView m_lastView;
    ReleaseAfterRepaint* m_replacedViews;
    QString m_groupToOpen; // asked for before the group was listed
};

} // namespace groupscope::ui
