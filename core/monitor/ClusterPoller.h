#pragma once

#include "kafka/ConnectionProfile.h"
#include "monitor/SnapshotDiff.h"
#include "snapshot/GroupSnapshot.h"

#include <QDeadlineTimer>
#include <QObject>
#include <QThread>

#include <atomic>
#include <chrono>
#include <memory>

namespace groupscope::monitor {

// Polls a cluster's consumer groups on a worker thread and hands each refresh to the
// caller's thread as a value (ClusterSnapshot), so the GUI thread never waits on the
// network.
//
// Threads: the ClusterPoller object belongs to the thread that created it (the GUI
// thread); its signals are emitted there. The AdminClient is created, used and destroyed
// on the poller's own QThread. A refresh runs GroupInspector::inspectAll(); the next one
// is scheduled `interval` after it finished, so a slow cluster never piles up requests.
class ClusterPoller : public QObject {
    Q_OBJECT
public:
    using Milliseconds = std::chrono::milliseconds;
    static constexpr Milliseconds defaultInterval{2000};
    static constexpr Milliseconds defaultRequestTimeout{5000};

    explicit ClusterPoller(kafka::ConnectionProfile profile, QObject* parent = nullptr);
    // Stops and waits for the worker to finish its current Admin call (bounded by the
    // request timeout). Call stop() early and delete on stopped() to never wait at all.
    ~ClusterPoller() override;

    const kafka::ConnectionProfile& profile() const { return m_profile; }
    Milliseconds interval() const { return Milliseconds(m_intervalMs.load()); }
    // Takes effect when the next refresh is scheduled.
    void setInterval(Milliseconds interval);
    Milliseconds requestTimeout() const { return m_requestTimeout; }
    // The deadline of each Admin call; applies from the next start().
    void setRequestTimeout(Milliseconds timeout) { m_requestTimeout = timeout; }

    // True from start() until the worker thread has exited.
    bool isRunning() const { return m_thread.isRunning(); }

    // Starts polling: the first refresh runs at once. Does nothing while running.
    void start();
    // Asks the worker to stop and returns at once: the refresh in flight completes (its
    // result is dropped), the AdminClient is destroyed on the worker thread, then stopped()
    // is emitted.
    void stop();
    // Waits for the worker thread to exit after stop(); true if it did before the deadline.
    bool waitForStopped(QDeadlineTimer deadline = QDeadlineTimer(QDeadlineTimer::Forever));
    // Runs a refresh as soon as the worker is free, then continues at the usual interval.
    // Requests made while one is pending are merged into it.
    void refreshNow();

signals:
    // A successful refresh; `snapshot.error` is never set here.
    void snapshotReady(const groupscope::monitor::ClusterSnapshot& snapshot);
    // A refresh that failed as a whole (cluster unreachable, timeout, bad configuration).
    // The previous snapshot is still the latest good data.
    void refreshFailed(const QString& message);
    // Emitted after snapshotReady when something changed since the previous poll: groups
    // appearing, state changes, members joining and leaving, partitions moving, commits.
    void changesObserved(const QList<groupscope::monitor::ChangeEvent>& changes);
    void stopped();

private:
    class Worker;

    kafka::ConnectionProfile m_profile;
    Milliseconds m_requestTimeout = defaultRequestTimeout;
    std::atomic<long long> m_intervalMs{defaultInterval.count()};
    // Shared with the worker, which may outlive a stop() request by one Admin call.
    std::shared_ptr<std::atomic<bool>> m_stopRequested;
    std::shared_ptr<std::atomic<bool>> m_refreshPending;
    Worker* m_worker = nullptr; // lives on m_thread; deleted there when the thread finishes
    QThread m_thread;
};

} // namespace groupscope::monitor
