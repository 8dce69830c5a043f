#pragma once

#include "monitor/ClusterView.h"

#include <QDateTime>
#include <QObject>

class QLabel;
class QMainWindow;

namespace groupscope::ui {

class ProfileController;

// What a window's status bar says about its connection: the profile, the connection's
// state ("Connected to … — N groups", "Refresh failed at … — why") and the time of the last
// refresh; and what an empty group list says meanwhile. Temporary messages of the status
// bar pass over it for their few seconds.
class ConnectionStatus : public QObject {
    Q_OBJECT
public:
    ConnectionStatus(QMainWindow* window, ProfileController* profile);

    void showNotConnected();
    void showConnecting(const QString& servers);
    // A refresh arrived: its cluster's group count, and records of the offsets topic that
    // could not be read (the timelines then miss those events, which the user should know).
    void showConnected(const monitor::ClusterView& view, int groups);
    // A refresh failed: when the data on screen is from, and why.
    void showFailure(const QString& message);

    QString text() const;
    bool isError() const { return m_isError; }
    bool hasRefreshed() const { return m_lastGoodRefresh.isValid(); }
    // Why the group list is empty while there is nothing to show (not connected,
    // connecting, unreachable); empty once a refresh came, when the filters say why.
    QString unavailableText() const;

signals:
    void changed();

private:
    void show(const QString& text, bool isError);

    QMainWindow* m_window;
    QLabel* m_statusLabel;
    QLabel* m_refreshLabel;
    QString m_servers;
    QDateTime m_lastGoodRefresh; // when the snapshot on screen was taken
    QString m_lastFailure;
    bool m_isError = false;
};

} // namespace groupscope::ui
