#pragma once

#include "kafka/ConnectionProfile.h"
#include "monitor/GroupSnapshot.h"

#include <QMainWindow>
#include <QPointer>

class QLabel;
class QLineEdit;
class QTableView;

namespace groupscope::monitor {
class ClusterPoller;
}

namespace groupscope::ui {

class GroupListModel;
class GroupFilterProxyModel;
class PlaceholderTableView;

// The group list of one cluster, refreshed by a ClusterPoller on its worker thread. The
// window only ever receives snapshots; it never waits on the network.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Starts showing `profile`'s cluster; the previous poller (if any) is stopped without
    // waiting for it.
    void connectTo(const kafka::ConnectionProfile& profile);
    void setRefreshInterval(std::chrono::milliseconds interval);

    GroupListModel* groupListModel() const { return m_model; }
    GroupFilterProxyModel* groupProxyModel() const { return m_proxy; }
    QTableView* groupView() const;
    QString connectionStatusText() const;
    bool connectionStatusIsError() const { return m_statusIsError; }

private:
    void createMenus();
    void applySnapshot(const monitor::ClusterSnapshot& snapshot);
    void showRefreshFailure(const QString& message);
    void showStatus(const QString& text, bool isError);
    void updatePlaceholder();
    void askForConnection();

    GroupListModel* m_model;
    GroupFilterProxyModel* m_proxy;
    PlaceholderTableView* m_view;
    QLineEdit* m_filterEdit;
    QLabel* m_statusLabel;
    QPointer<monitor::ClusterPoller> m_poller;
    kafka::ConnectionProfile m_profile;
    std::chrono::milliseconds m_refreshInterval{2000};
    QDateTime m_lastGoodRefresh; // when the snapshot on screen was taken
    QString m_lastFailure;
    bool m_statusIsError = false;
};

} // namespace groupscope::ui
