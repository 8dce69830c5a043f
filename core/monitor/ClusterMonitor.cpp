#include "monitor/ClusterMonitor.h"

#include "monitor/MonitorSession.h"

#include <QTimer>

#include <optional>
#include <variant>

namespace groupscope::monitor {

// Everything that runs on the worker thread. It owns the MonitorSession, so each librdkafka
// handle is created, used and destroyed by this one thread (or its stream's own threads).
class ClusterMonitor::Worker : public QObject {
public:
    // What the GUI thread asks of the worker; applied in the order asked.
    struct Request {
        std::optional<QStringList> watched;
        std::optional<QHash<QString, lag::RebalanceThresholds>> thresholds;
        bool refresh = false;
    };

    Worker(ClusterMonitor* owner, std::shared_ptr<std::atomic<bool>> stopRequested)
        : m_intervalMs(owner->m_intervalMs)
        , m_profile(owner->profile())
        , m_requestTimeout(owner->requestTimeout())
        , m_listRows(owner->listRows())
        , m_watched(owner->watchedGroups())
        , m_rebalanceThresholds(owner->rebalanceThresholds())
        , m_stopRequested(std::move(stopRequested))
        , m_refreshPending(owner->m_refreshPending)
        , m_outcomes(owner->m_outcomes)
        , m_nextRefresh(new QTimer(this)) {
        m_nextRefresh->setSingleShot(true);
        connect(m_nextRefresh, &QTimer::timeout, this, &Worker::refresh);
    }

    // Thread-safe: called on the GUI thread.
    void ask(Request request) { m_requests.post(std::move(request)); }

    // Posted rather than run from QThread::started, so the first refresh already runs
    // inside the thread's event loop and a quick stop() can still cancel it.
    void begin() { QMetaObject::invokeMethod(this, &Worker::refresh, Qt::QueuedConnection); }

private:
    void takeRequests() {
        bool refreshAsked = false;
        for (Request& request : m_requests.takeAll()) {
            if (request.watched)
                setWatchedGroups(std::move(*request.watched));
            if (request.thresholds)
                setRebalanceThresholds(std::move(*request.thresholds));
            refreshAsked = refreshAsked || request.refresh;
        }
        if (refreshAsked)
            refresh();
    }

    void setWatchedGroups(QStringList groups) {
        m_watched = std::move(groups);
        if (!m_session)
            return;
        m_session->setWatchedGroups(m_watched);
        // A view at once, before the refresh's poll: with list rows only the watched groups
        // are in a view in full, and a poll of 100,000 groups takes seconds, which a user
        // opening a group would wait for in front of an empty detail.
        if (m_listRows && m_polled)
            m_outcomes.post({m_session->view()});
    }

    void setRebalanceThresholds(QHash<QString, lag::RebalanceThresholds> thresholds) {
        m_rebalanceThresholds = std::move(thresholds);
        if (m_session)
            m_session->monitor().setRebalanceThresholds(m_rebalanceThresholds);
    }

    void refresh() {
        m_refreshPending->store(false);
        m_nextRefresh->stop();
        if (m_stopRequested->load())
            return;
        if (!m_session)
            openSession();
        if (m_session) {
            const auto polled = m_session->refresh();
            // The poll let go of each group's last rows as it went, and the GUI of the view
            // before last: their pages go back to the system here, as the renderer's do
            // after a render, before the view is handed over (not while the GUI applies it).
            returnFreedPages();
            if (polled) {
                m_polled = true;
                m_outcomes.post({m_session->view()});
            } else {
                m_outcomes.post({polled.error().toString()});
            }
        }
        if (!m_stopRequested->load())
            m_nextRefresh->start(Milliseconds(m_intervalMs.load()));
    }

    void openSession() {
        MonitorSession::Options options;
        options.profile = m_profile;
        options.requestTimeout = m_requestTimeout;
        options.listRows = m_listRows;
        auto created = MonitorSession::create(std::move(options));
        if (!created) {
            m_outcomes.post({created.error().toString()});
            return;
        }
        m_session = std::move(created).value();
        // stop() then interrupts a call in flight instead of waiting out its timeout.
        m_session->setCancelFlag(m_stopRequested.get());
        m_session->setWatchedGroups(m_watched);
        m_session->monitor().setRebalanceThresholds(m_rebalanceThresholds);
    }

    const std::atomic<long long>& m_intervalMs; // the owner outlives this thread
    const kafka::ConnectionProfile m_profile;
    const Milliseconds m_requestTimeout;
    const bool m_listRows;
    QStringList m_watched;
    QHash<QString, lag::RebalanceThresholds> m_rebalanceThresholds;
    const std::shared_ptr<std::atomic<bool>> m_stopRequested;
    const std::shared_ptr<std::atomic<bool>> m_refreshPending;
    ThreadMailbox<Request> m_requests{this, &Worker::takeRequests};
    ThreadMailbox<Outcome>& m_outcomes; // the owner's
    QTimer* m_nextRefresh;
    std::unique_ptr<MonitorSession> m_session;
    bool m_polled = false; // a poll of the session has succeeded: a view has something to show
};

ClusterMonitor::ClusterMonitor(kafka::ConnectionProfile profile, QObject* parent)
    : QObject(parent)
    , m_profile(std::move(profile))
    , m_stopRequested(std::make_shared<std::atomic<bool>>(false))
    , m_refreshPending(std::make_shared<std::atomic<bool>>(false)) {
    qRegisterMetaType<ClusterView>();
    qRegisterMetaType<ClusterSnapshot>();
    qRegisterMetaType<GroupMonitorSnapshot>();
    m_thread.setObjectName(QStringLiteral("ClusterMonitor"));
    connect(&m_thread, &QThread::finished, this, &ClusterMonitor::stopped);
}

ClusterMonitor::~ClusterMonitor() {
    stop();
    waitForStopped();
}

void ClusterMonitor::setInterval(Milliseconds interval) {
    m_intervalMs.store(std::max<long long>(interval.count(), 1));
}

void ClusterMonitor::setWatchedGroups(const QStringList& groups) {
    if (groups == m_watched)
        return;
    m_watched = groups;
    if (!m_worker || m_stopRequested->load())
        return; // the next start() hands them to its worker
    m_refreshPending->store(true);
    m_worker->ask({groups, std::nullopt, true});
}

void ClusterMonitor::setRebalanceThresholds(
    const QHash<QString, lag::RebalanceThresholds>& thresholds) {
    if (thresholds == m_rebalanceThresholds)
        return;
    m_rebalanceThresholds = thresholds;
    if (!m_worker || m_stopRequested->load())
        return;
    m_refreshPending->store(true);
    m_worker->ask({std::nullopt, thresholds, true});
}

void ClusterMonitor::start() {
    if (m_thread.isRunning()) {
        if (!m_stopRequested->load())
            return;
        // Restarting right after stop(): the old worker first has to finish its call.
        waitForStopped();
    }
    m_stopRequested = std::make_shared<std::atomic<bool>>(false);
    m_refreshPending->store(true);
    m_outcomes.takeAll(); // what the previous worker delivered after stop()
    m_worker = new Worker(this, m_stopRequested);
    m_worker->moveToThread(&m_thread);
    // QThread runs deferred deletes on the worker thread after finished(): the worker and
    // its session are destroyed there, not on the GUI thread.
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(&m_thread, &QThread::started, m_worker, &Worker::begin);
    m_thread.start();
}

void ClusterMonitor::stop() {
    if (!m_thread.isRunning())
        return;
    m_stopRequested->store(true);
    // The event loop exits after the event it is handling, i.e. after the Admin call in
    // flight; that call ends within the request timeout.
    m_thread.quit();
    m_worker = nullptr;
}

bool ClusterMonitor::waitForStopped(QDeadlineTimer deadline) {
    return m_thread.wait(deadline);
}

void ClusterMonitor::refreshNow() {
    if (!m_worker || m_stopRequested->load())
        return;
    if (m_refreshPending->exchange(true))
        return; // one is already queued
    m_worker->ask({std::nullopt, std::nullopt, true});
}

// A result that arrives after stop() is dropped here, so nobody sees data from a monitor
// they already stopped.
void ClusterMonitor::takeOutcomes() {
    for (Outcome& outcome : m_outcomes.takeAll()) {
        if (m_stopRequested->load())
            return;
        if (auto* view = std::get_if<ClusterView>(&outcome.viewOrFailure))
            emit viewReady(*view);
        else
            emit refreshFailed(std::get<QString>(outcome.viewOrFailure));
    }
}

} // namespace groupscope::monitor
