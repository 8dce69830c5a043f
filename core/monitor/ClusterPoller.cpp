#include "monitor/ClusterPoller.h"

#include <optional>

#include "kafka/AdminClient.h"
#include "monitor/GroupInspector.h"
#include "monitor/GroupTrendTracker.h"

#include <QTimer>

namespace groupscope::monitor {

// Everything that runs on the worker thread. It owns the AdminClient, so the librdkafka
// handle is created, used and destroyed by this one thread only.
class ClusterPoller::Worker : public QObject {
public:
    Worker(ClusterPoller* poller, std::shared_ptr<std::atomic<bool>> stopRequested)
        : m_poller(poller)
        , m_profile(poller->profile())
        , m_requestTimeout(poller->requestTimeout())
        , m_stopRequested(std::move(stopRequested))
        , m_refreshPending(poller->m_refreshPending)
        , m_nextRefresh(new QTimer(this)) {
        m_nextRefresh->setSingleShot(true);
        connect(m_nextRefresh, &QTimer::timeout, this, &Worker::refresh);
    }

    // Posted rather than run from QThread::started, so the first refresh already runs
    // inside the thread's event loop and a quick stop() can still cancel it.
    void begin() { QMetaObject::invokeMethod(this, &Worker::refresh, Qt::QueuedConnection); }

    void refresh() {
        m_refreshPending->store(false);
        m_nextRefresh->stop();
        if (m_stopRequested->load())
            return;
        kafka::AdminClient::renewIfCoordinatorMoved(m_admin);
        if (!m_admin) {
            auto created = kafka::AdminClient::create(m_profile, m_requestTimeout);
            if (created) {
                m_admin = std::move(created).value();
                // stop() then interrupts a call in flight instead of waiting out its timeout.
                m_admin->setCancelFlag(m_stopRequested.get());
            } else
                deliverFailure(created.error().toString());
        }
        if (m_admin) {
            auto snapshot = GroupInspector(*m_admin, &m_extraConnections).inspectAll();
            if (snapshot) {
                m_trends.observe(snapshot.value());
                deliverSnapshot(std::move(snapshot).value());
            } else
                deliverFailure(snapshot.error().toString());
        }
        if (!m_stopRequested->load())
            m_nextRefresh->start(Milliseconds(m_poller->m_intervalMs.load()));
    }

private:
    // The signals are emitted on the poller's own thread. A result that arrives after
    // stop() is dropped there, so nobody sees data from a poller they already stopped.
    void deliverSnapshot(ClusterSnapshot snapshot) {
        // What changed since the previous poll, computed here, off the GUI thread. The
        // first snapshot after a (re)start is a baseline, not a burst of "appeared" events.
        QList<ChangeEvent> changes;
        if (m_previous)
            changes = diffSnapshots(*m_previous, snapshot);
        m_previous = snapshot;
        QMetaObject::invokeMethod(
            m_poller,
            [poller = m_poller, stopRequested = m_stopRequested, snapshot = std::move(snapshot),
             changes = std::move(changes)] {
                if (stopRequested->load())
                    return;
                emit poller->snapshotReady(snapshot);
                if (!changes.isEmpty())
                    emit poller->changesObserved(changes);
            },
            Qt::QueuedConnection);
    }

    void deliverFailure(const QString& message) {
        QMetaObject::invokeMethod(
            m_poller,
            [poller = m_poller, stopRequested = m_stopRequested, message] {
                if (!stopRequested->load())
                    emit poller->refreshFailed(message);
            },
            Qt::QueuedConnection);
    }

    ClusterPoller* m_poller; // outlives the worker thread: ~ClusterPoller waits for it
    const kafka::ConnectionProfile m_profile;
    const Milliseconds m_requestTimeout;
    const std::shared_ptr<std::atomic<bool>> m_stopRequested;
    const std::shared_ptr<std::atomic<bool>> m_refreshPending;
    QTimer* m_nextRefresh;
    std::unique_ptr<kafka::AdminClient> m_admin;
    // Kept between refreshes, so a cluster with many groups is connected to once.
    kafka::AdminClientPool m_extraConnections;
    std::optional<ClusterSnapshot> m_previous;
    GroupTrendTracker m_trends; // time lag, health and sparkline of every group
};

ClusterPoller::ClusterPoller(kafka::ConnectionProfile profile, QObject* parent)
    : QObject(parent)
    , m_profile(std::move(profile))
    , m_stopRequested(std::make_shared<std::atomic<bool>>(false))
    , m_refreshPending(std::make_shared<std::atomic<bool>>(false)) {
    qRegisterMetaType<ClusterSnapshot>();
    qRegisterMetaType<QList<ChangeEvent>>();
    qRegisterMetaType<GroupSnapshot>();
    m_thread.setObjectName(QStringLiteral("ClusterPoller"));
    connect(&m_thread, &QThread::finished, this, &ClusterPoller::stopped);
}

ClusterPoller::~ClusterPoller() {
    stop();
    waitForStopped();
}

void ClusterPoller::setInterval(Milliseconds interval) {
    m_intervalMs.store(std::max<long long>(interval.count(), 1));
}

void ClusterPoller::start() {
    if (m_thread.isRunning()) {
        if (!m_stopRequested->load())
            return;
        // Restarting right after stop(): the old worker first has to finish its call.
        waitForStopped();
    }
    m_stopRequested = std::make_shared<std::atomic<bool>>(false);
    m_refreshPending->store(true);
    m_worker = new Worker(this, m_stopRequested);
    m_worker->moveToThread(&m_thread);
    // QThread runs deferred deletes on the worker thread after finished(): the worker and
    // its AdminClient are destroyed there, not on the GUI thread.
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(&m_thread, &QThread::started, m_worker, &Worker::begin);
    m_thread.start();
}

void ClusterPoller::stop() {
    if (!m_thread.isRunning())
        return;
    m_stopRequested->store(true);
    // The event loop exits after the event it is handling, i.e. after the Admin call in
    // flight; that call ends within the request timeout.
    m_thread.quit();
    m_worker = nullptr;
}

bool ClusterPoller::waitForStopped(QDeadlineTimer deadline) {
    return m_thread.wait(deadline);
}

void ClusterPoller::refreshNow() {
    if (!m_worker || m_stopRequested->load())
        return;
    if (m_refreshPending->exchange(true))
        return; // one is already queued
    QMetaObject::invokeMethod(m_worker, &Worker::refresh, Qt::QueuedConnection);
}

} // namespace groupscope::monitor
