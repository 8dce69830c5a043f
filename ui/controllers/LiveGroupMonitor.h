#pragma once

#include "kafka/ConnectionProfile.h"
#include "monitor/GroupMonitorSnapshot.h"
#include "monitor/GroupMonitorWorker.h" // QPointer needs the complete type

#include <QObject>
#include <QPointer>

#include <chrono>

namespace groupscope::ui {

// The live monitor behind the open group's Lag and Timeline tabs: one GroupMonitorWorker
// (offsets-topic history plus polling, on its own thread) for the one group on screen.
// Opening another group or connecting elsewhere replaces the worker; the old one finishes
// its Admin call in flight on its own thread and deletes itself, so switching never waits
// on the network.
class LiveGroupMonitor : public QObject {
    Q_OBJECT
public:
    explicit LiveGroupMonitor(QObject* parent = nullptr);
    ~LiveGroupMonitor() override;

    // Takes effect with the next watch(); a watched group is restarted on the new cluster.
    void setProfile(const kafka::ConnectionProfile& profile);
    void setInterval(std::chrono::milliseconds interval);
    // Starts watching `group` (stops watching the previous one). Empty: watch nothing.
    void watch(const QString& group);
    void stop() { watch({}); }

    const QString& group() const { return m_group; }
    bool isWatching() const { return m_worker != nullptr; }

signals:
    // Only for the group being watched now: a late result of a replaced worker is dropped.
    void snapshotReady(const groupscope::monitor::GroupMonitorSnapshot& snapshot);
    void refreshFailed(const QString& message);

private:
    void retireWorker();

    kafka::ConnectionProfile m_profile;
    bool m_hasProfile = false;
    std::chrono::milliseconds m_interval{2000};
    QString m_group;
    QPointer<monitor::GroupMonitorWorker> m_worker;
};

} // namespace groupscope::ui
