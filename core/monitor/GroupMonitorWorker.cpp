#include "monitor/GroupMonitorWorker.h"

#include <QTimer>

namespace groupscope::monitor {

// Runs on the worker thread and owns the MonitorSession there.
class GroupMonitorWorker::Worker : public QObject {
public:
    Worker(GroupMonitorWorker* owner, std::shared_ptr<std::atomic<bool>> stopRequested)
        : m_owner(owner)
        , m_options(owner->m_options)
        , m_stopRequested(std::move(stopRequested))
        , m_nextRefresh(new QTimer(this)) {
        m_nextRefresh->setSingleShot(true);
        connect(m_nextRefresh, &QTimer::timeout, this, &Worker::refresh);
    }

    void begin() { QMetaObject::invokeMethod(this, &Worker::refresh, Qt::QueuedConnection); }

    void refresh() {
        if (m_stopRequested->load())
            return;
        if (!m_session) {
            auto created = MonitorSession::create(m_options);
            if (created) {
                m_session = std::move(created).value();
                m_session->setCancelFlag(m_stopRequested.get());
            } else {
                deliver([message = created.error().toString()](GroupMonitorWorker* owner) {
                    emit owner->refreshFailed(message);
                });
            }
        }
        if (m_session) {
            if (const auto polled = m_session->refresh(); !polled) {
                deliver([message = polled.error().toString()](GroupMonitorWorker* owner) {
                    emit owner->refreshFailed(message);
                });
            } else {
                QList<GroupMonitorSnapshot> snapshots;
                const QStringList groups =
                    m_options.groups.isEmpty() ? m_session->monitor().groups() : m_options.groups;
                for (const QString& group : groups)
                    snapshots.append(m_session->monitor().snapshot(group));
                deliver([snapshots = std::move(snapshots)](GroupMonitorWorker* owner) {
                    emit owner->snapshotsReady(snapshots);
                });
            }
        }
        if (!m_stopRequested->load())
            m_nextRefresh->start(Milliseconds(m_owner->m_intervalMs.load()));
    }

private:
    // Emitted on the owner's thread; dropped there after stop(), so nobody sees data from
    // a worker they already stopped.
    template <typename Emit> void deliver(Emit emitter) {
        QMetaObject::invokeMethod(
            m_owner,
            [owner = m_owner, stopRequested = m_stopRequested, emitter = std::move(emitter)] {
                if (!stopRequested->load())
                    emitter(owner);
            },
            Qt::QueuedConnection);
    }

    GroupMonitorWorker* m_owner; // outlives the thread: its destructor waits for it
    const MonitorSession::Options m_options;
    const std::shared_ptr<std::atomic<bool>> m_stopRequested;
    QTimer* m_nextRefresh;
    std::unique_ptr<MonitorSession> m_session;
};

GroupMonitorWorker::GroupMonitorWorker(MonitorSession::Options options, QObject* parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_stopRequested(std::make_shared<std::atomic<bool>>(false)) {
    qRegisterMetaType<GroupMonitorSnapshot>();
    qRegisterMetaType<QList<GroupMonitorSnapshot>>();
    m_thread.setObjectName(QStringLiteral("GroupMonitorWorker"));
    connect(&m_thread, &QThread::finished, this, &GroupMonitorWorker::stopped);
}

GroupMonitorWorker::~GroupMonitorWorker() {
    stop();
    waitForStopped();
}

void GroupMonitorWorker::setInterval(Milliseconds interval) {
    m_intervalMs.store(std::max<long long>(interval.count(), 1));
}

void GroupMonitorWorker::start() {
    if (m_thread.isRunning()) {
        if (!m_stopRequested->load())
            return;
        waitForStopped();
    }
    m_stopRequested = std::make_shared<std::atomic<bool>>(false);
    auto* worker = new Worker(this, m_stopRequested);
    worker->moveToThread(&m_thread);
    // Deleted on the worker thread after finished(), with its MonitorSession.
    connect(&m_thread, &QThread::finished, worker, &QObject::deleteLater);
    connect(&m_thread, &QThread::started, worker, &Worker::begin);
    m_thread.start();
}

void GroupMonitorWorker::stop() {
    if (!m_thread.isRunning())
        return;
    m_stopRequested->store(true);
    m_thread.quit();
}

bool GroupMonitorWorker::waitForStopped(QDeadlineTimer deadline) {
    return m_thread.wait(deadline);
}

} // namespace groupscope::monitor
