#include "controllers/LiveGroupMonitor.h"

#include "monitor/GroupMonitorWorker.h"

namespace groupscope::ui {

using monitor::GroupMonitorSnapshot;
using monitor::GroupMonitorWorker;

LiveGroupMonitor::LiveGroupMonitor(QObject* parent)
    : QObject(parent) {}

LiveGroupMonitor::~LiveGroupMonitor() {
    // Waits (bounded by one Admin call) rather than leaving a thread running past us.
    delete m_worker.data();
}

void LiveGroupMonitor::setProfile(const kafka::ConnectionProfile& profile) {
    m_profile = profile;
    m_hasProfile = true;
    if (!m_group.isEmpty()) {
        const QString group = m_group;
        m_group.clear();
        watch(group);
    }
}

void LiveGroupMonitor::setInterval(std::chrono::milliseconds interval) {
    m_interval = interval;
    if (m_worker)
        m_worker->setInterval(interval);
}

void LiveGroupMonitor::watch(const QString& group) {
    if (group == m_group && (m_worker || group.isEmpty()))
        return;
    retireWorker();
    m_group = group;
    if (group.isEmpty() || !m_hasProfile)
        return;
    monitor::MonitorSession::Options options;
    options.profile = m_profile;
    options.groups = {group};
    auto* worker = new GroupMonitorWorker(std::move(options), this);
    worker->setInterval(m_interval);
    connect(worker, &GroupMonitorWorker::snapshotsReady, this,
            [this, group](const QList<GroupMonitorSnapshot>& snapshots) {
                if (group != m_group)
                    return;
                for (const GroupMonitorSnapshot& snapshot : snapshots)
                    if (snapshot.group == group)
                        emit snapshotReady(snapshot);
            });
    connect(worker, &GroupMonitorWorker::refreshFailed, this, [this, group](const QString& text) {
        if (group == m_group)
            emit refreshFailed(text);
    });
    m_worker = worker;
    worker->start();
}

void LiveGroupMonitor::retireWorker() {
    if (!m_worker)
        return;
    GroupMonitorWorker* old = m_worker;
    m_worker = nullptr;
    disconnect(old, nullptr, this, nullptr);
    if (!old->isRunning()) {
        old->deleteLater();
        return;
    }
    connect(old, &GroupMonitorWorker::stopped, old, &QObject::deleteLater);
    old->stop();
}

} // namespace groupscope::ui
