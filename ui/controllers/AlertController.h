#pragma once

#include "alerts/AlertDecider.h"
#include "monitor/ClusterView.h"
#include "settings/WatchStore.h"

#include <QObject>

#include <memory>

namespace groupscope::ui {

class AlertListModel;
class DesktopNotifier;

// The GUI's side of alerts, kept thin: which groups the user watches on the connection and
// their thresholds (persisted through WatchStore), each refresh's view through the core's
// AlertDecider, and what it decides into the alert panel's model and the notifier.
class AlertController : public QObject {
    Q_OBJECT
public:
    explicit AlertController(QObject* parent = nullptr);
    ~AlertController() override;

    AlertListModel* model() const { return m_model; }
    // Where alerts go besides the panel; null: the panel only.
    void setNotifier(std::unique_ptr<DesktopNotifier> notifier);
    DesktopNotifier* notifier() const { return m_notifier.get(); }

    // A new connection: its watched groups and thresholds, and a baseline for each group.
    void setConnection(const QString& connectionKey);
    const QString& connectionKey() const { return m_connectionKey; }
    const QSet<QString>& watchedGroups() const { return m_settings.groups; }
    bool isWatched(const QString& group) const { return m_settings.groups.contains(group); }
    void setWatched(const QString& group, bool watched);
    // Watches them all, or stops watching them all when every one was watched already.
    void toggleWatched(const QStringList& groups);

    alerts::AlertThresholds thresholds(const QString& group) const {
        return m_settings.thresholds.value(group);
    }
    void setThresholds(const QString& group, const alerts::AlertThresholds& thresholds);
    // The storm and stuck thresholds the live pipeline applies (ClusterMonitor).
    QHash<QString, lag::RebalanceThresholds> rebalanceThresholds() const;

    // One refresh: the alerts it raises are listed and notified.
    void applyView(const monitor::ClusterView& view, int64_t atMs);
    // An alert that is not the decider's (a write overwritten, a write that ended after its
    // window closed): listed, notified and signalled as the decider's are.
    void raise(const alerts::Alert& alert);
    // How many views applyView() has seen: tests wait on it for refreshes.
    int observedViews() const { return m_observedViews; }

signals:
    void watchedGroupsChanged(const QSet<QString>& groups);
    void rebalanceThresholdsChanged(const QHash<QString, lag::RebalanceThresholds>& thresholds);
    void alertRaised(const groupscope::alerts::Alert& alert);

private:
    void save() const;

    AlertListModel* m_model;
    std::unique_ptr<DesktopNotifier> m_notifier;
    alerts::AlertDecider m_decider;
    QString m_connectionKey;
    WatchSettings m_settings;
    int m_observedViews = 0;
};

} // namespace groupscope::ui
