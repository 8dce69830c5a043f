#include "controllers/AlertController.h"

#include "models/AlertListModel.h"
#include "notifications/DesktopNotifier.h"

#include <algorithm>

namespace groupscope::ui {

AlertController::AlertController(QObject* parent)
    : QObject(parent)
    , m_model(new AlertListModel(this)) {
    qRegisterMetaType<alerts::Alert>();
}

AlertController::~AlertController() = default;

void AlertController::setNotifier(std::unique_ptr<DesktopNotifier> notifier) {
    m_notifier = std::move(notifier);
}

void AlertController::setConnection(const QString& connectionKey) {
    m_connectionKey = connectionKey;
    m_settings = WatchStore::load(connectionKey);
    m_decider.reset();
    m_decider.setThresholds(m_settings.thresholds);
    emit watchedGroupsChanged(m_settings.groups);
    emit rebalanceThresholdsChanged(rebalanceThresholds());
}

void AlertController::setWatched(const QString& group, bool watched) {
    if (group.isEmpty() || isWatched(group) == watched)
        return;
    if (watched)
        m_settings.groups.insert(group);
    else
        m_settings.groups.remove(group);
    save();
    emit watchedGroupsChanged(m_settings.groups);
}

void AlertController::toggleWatched(const QStringList& groups) {
    const bool allWatched = std::all_of(groups.cbegin(), groups.cend(),
                                        [this](const QString& group) { return isWatched(group); });
    bool changed = false;
    for (const QString& group : groups) {
        if (group.isEmpty() || isWatched(group) == !allWatched)
            continue;
        if (allWatched)
            m_settings.groups.remove(group);
        else
            m_settings.groups.insert(group);
        changed = true;
    }
    if (!changed)
        return;
    save();
    emit watchedGroupsChanged(m_settings.groups);
}

void AlertController::setThresholds(const QString& group,
                                    const alerts::AlertThresholds& thresholds) {
    if (thresholds.isDefault())
        m_settings.thresholds.remove(group);
    else
        m_settings.thresholds.insert(group, thresholds);
    m_decider.setThresholds(m_settings.thresholds);
    save();
    emit rebalanceThresholdsChanged(rebalanceThresholds());
}

QHash<QString, lag::RebalanceThresholds> AlertController::rebalanceThresholds() const {
    QHash<QString, lag::RebalanceThresholds> rebalance;
    for (auto it = m_settings.thresholds.cbegin(); it != m_settings.thresholds.cend(); ++it)
        if (it->rebalance != lag::RebalanceThresholds())
            rebalance.insert(it.key(), it->rebalance);
    return rebalance;
}

void AlertController::applyView(const monitor::ClusterView& view, int64_t atMs) {
    ++m_observedViews;
    const QList<alerts::Alert> raised = m_decider.observe(view.groupList, m_settings.groups, atMs);
    for (const alerts::Alert& alert : raised)
        raise(alert);
}

void AlertController::raise(const alerts::Alert& alert) {
    m_model->addAlert(alert);
    if (m_notifier)
        m_notifier->notify(alert);
    emit alertRaised(alert);
}

void AlertController::save() const {
    if (!m_connectionKey.isEmpty())
        WatchStore::save(m_connectionKey, m_settings);
}

} // namespace groupscope::ui
