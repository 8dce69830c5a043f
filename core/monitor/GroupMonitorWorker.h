#pragma once

#include "monitor/GroupMonitorSnapshot.h"
#include "monitor/MonitorSession.h"

#include <QDeadlineTimer>
#include <QList>
#include <QObject>
#include <QThread>

#include <atomic>
#include <chrono>
#include <memory>

namespace groupscope::monitor {

// The live monitor for the GUI: a MonitorSession on its own thread, refreshed every
// `interval`, whose per-group snapshots arrive on the caller's thread as values.
//
// Threads: the GroupMonitorWorker object belongs to the thread that created it (the GUI
// thread); its signals are emitted there. The MonitorSession (AdminClient, GroupMonitor,
// OffsetsTopicStream) is created, used and destroyed on the worker's own QThread; the
// stream adds its worker thread and its consumer's fetch thread, which only fill the
// stream's queue. The next refresh is scheduled `interval` after one finished, so a slow
// cluster never piles up requests.
class GroupMonitorWorker : public QObject {
    Q_OBJECT
public:
    using Milliseconds = std::chrono::milliseconds;
    static constexpr Milliseconds defaultInterval{2000};

    explicit GroupMonitorWorker(MonitorSession::Options options, QObject* parent = nullptr);
    // Stops and waits for the worker (bounded by one Admin call's timeout).
    ~GroupMonitorWorker() override;

    Milliseconds interval() const { return Milliseconds(m_intervalMs.load()); }
    void setInterval(Milliseconds interval);
    bool isRunning() const { return m_thread.isRunning(); }

    void start();
    // Returns at once; stopped() follows when the worker thread has exited.
    void stop();
    bool waitForStopped(QDeadlineTimer deadline = QDeadlineTimer(QDeadlineTimer::Forever));

signals:
    // One refresh: a snapshot per monitored group, in the order of Options::groups (or
    // sorted by group id when monitoring every group).
    void snapshotsReady(const QList<groupscope::monitor::GroupMonitorSnapshot>& snapshots);
    void refreshFailed(const QString& message);
    void stopped();

private:
    class Worker;

    const MonitorSession::Options m_options;
    std::atomic<long long> m_intervalMs{defaultInterval.count()};
    std::shared_ptr<std::atomic<bool>> m_stopRequested;
    QThread m_thread;
};

} // namespace groupscope::monitor
