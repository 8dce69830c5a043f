#pragma once

#include "kafka/ConnectionProfile.h"
#include "monitor/ClusterView.h"
#include "monitor/ThreadMailbox.h"

#include <QDeadlineTimer>
#include <QHash>
#include <QObject>
#include <QStringList>
#include <QThread>

#include <atomic>
#include <chrono>
#include <memory>
#include <variant>

namespace groupscope::monitor {

// The GUI's live pipeline of one cluster: a MonitorSession (polling of every group, the
// offsets-topic stream, one GroupMonitor) on a worker thread, whose ClusterView of each
// refresh arrives on the caller's thread as a value, for the group list and the open
// group's detail alike.
//
// Threads: the ClusterMonitor object belongs to the thread that created it (the GUI
// thread); its signals are emitted there. The MonitorSession (AdminClient and its pool,
// GroupMonitor, OffsetsTopicStreams) is created, used and destroyed on the monitor's own
// QThread; the streams add their worker and fetch threads, which only fill their queues.
// The next refresh is scheduled `interval` after the previous one ended, so a slow cluster
// never piles up requests.
class ClusterMonitor : public QObject {
    Q_OBJECT
public:
    using Milliseconds = std::chrono::milliseconds;
    static constexpr Milliseconds defaultInterval{2000};
    static constexpr Milliseconds defaultRequestTimeout{5000};

    explicit ClusterMonitor(kafka::ConnectionProfile profile, QObject* parent = nullptr);
    // Stops and waits for the worker to finish its current Admin call (bounded by the
    // request timeout). Call stop() early and delete on stopped() to never wait at all.
    ~ClusterMonitor() override;

    const kafka::ConnectionProfile& profile() const { return m_profile; }
    Milliseconds interval() const { return Milliseconds(m_intervalMs.load()); }
    // Takes effect when the next refresh is scheduled.
    void setInterval(Milliseconds interval);
    Milliseconds requestTimeout() const { return m_requestTimeout; }
    // The deadline of each Admin call; applies from the next start().
    void setRequestTimeout(Milliseconds timeout) { m_requestTimeout = timeout; }
    // Whether each view carries the GUI's list rows (MonitorSession::Options::listRows);
    // applies from the next start().
    bool listRows() const { return m_listRows; }
    void setListRows(bool on) { m_listRows = on; }

    // The groups whose full GroupMonitorSnapshot each view carries (the open group). Their
    // detail is ready from the next refresh, which runs at once.
    void setWatchedGroups(const QStringList& groups);
    const QStringList& watchedGroups() const { return m_watched; }
    // The user's storm and stuck thresholds per group; the next refresh applies them.
    void setRebalanceThresholds(const QHash<QString, lag::RebalanceThresholds>& thresholds);
    const QHash<QString, lag::RebalanceThresholds>& rebalanceThresholds() const {
        return m_rebalanceThresholds;
    }

    // True from start() until the worker thread has exited.
    bool isRunning() const { return m_thread.isRunning(); }

    // Starts monitoring: the first refresh runs at once. Does nothing while running.
    void start();
    // Asks the worker to stop and returns at once: the refresh in flight completes (its
    // result is dropped), the session is destroyed on the worker thread, then stopped() is
    // emitted.
    void stop();
    // Waits for the worker thread to exit after stop(); true if it did before the deadline.
    bool waitForStopped(QDeadlineTimer deadline = QDeadlineTimer(QDeadlineTimer::Forever));
    // Runs a refresh as soon as the worker is free, then continues at the usual interval.
    // Requests made while one is pending are merged into it.
    void refreshNow();

signals:
    // A successful refresh.
    void viewReady(const groupscope::monitor::ClusterView& view);
    // A refresh that failed as a whole (cluster unreachable, timeout, bad configuration).
    // The previous view is still the latest good data.
    void refreshFailed(const QString& message);
    void stopped();

private:
    class Worker;
    // One refresh's result for this thread: the view, or why the refresh failed as a whole.
    struct Outcome {
        std::variant<ClusterView, QString> viewOrFailure;
    };

    void takeOutcomes();

    kafka::ConnectionProfile m_profile;
    Milliseconds m_requestTimeout = defaultRequestTimeout;
    bool m_listRows = false;
    std::atomic<long long> m_intervalMs{defaultInterval.count()};
    QStringList m_watched;
    QHash<QString, lag::RebalanceThresholds> m_rebalanceThresholds;
    // Shared with the worker, which may outlive a stop() request by one Admin call.
    std::shared_ptr<std::atomic<bool>> m_stopRequested;
    std::shared_ptr<std::atomic<bool>> m_refreshPending;
    ThreadMailbox<Outcome> m_outcomes{this, &ClusterMonitor::takeOutcomes}; // from the worker
    Worker* m_worker = nullptr; // lives on m_thread; deleted there when the thread finishes
    QThread m_thread;
};

} // namespace groupscope::monitor
