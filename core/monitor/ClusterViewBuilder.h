#pragma once

#include "lag/Clock.h"
#include "monitor/ClusterView.h"
#include "monitor/GroupMonitor.h"

#include <QDateTime>
#include <QSet>
#include <QStringList>

#include <optional>

namespace groupscope::monitor {

// The computing half of the live pipeline, without any Kafka handle: one GroupMonitor fed
// with every poll and offsets-topic record of a cluster, lean for every group (lag, time
// lag, health, a sparkline of the last polls) and with full detail (commit history,
// rebalance timeline, lag series and rebuild, consumption rates) for the watched groups
// only, so watching a
// thousand groups costs megabytes while the open one keeps its hour of history. view() turns
// it into the one ClusterView every front end reads.
//
// Not thread safe: the pipeline's worker owns it (MonitorSession).
class ClusterViewBuilder {
public:
    static constexpr int sparklineSamples = 60;

    // `options` shape the watched groups' detail; the builder keeps it to the watched groups.
    explicit ClusterViewBuilder(const lag::Clock& clock = lag::SystemClock::instance(),
                                GroupMonitor::Options options = {});

    // Replaces the watched groups. A group newly watched gets its detail from `source`: the
    // monitor's own stream when it has not read anything yet, else a replay of its history.
    // Returns the groups that became watched.
    QStringList setWatchedGroups(const QStringList& groups, GroupMonitor::HistorySource source);
    const QStringList& watchedGroups() const { return m_watched; }

    // One poll, group by group as the inspection assembles them (GroupInspector's sink), so
    // each group's last rows go as its new ones come; then endPoll(). `wholeCluster`: the
    // poll listed every group, so a tracked group missing from it counts as absent (see
    // GroupMonitor::Options::evictAfterAbsentPolls).
    void observePolledGroup(const GroupSnapshot& group);
    void endPoll(bool wholeCluster);
    // A poll that failed part-way: the groups it observed keep their new rows (they are
    // true), nothing counts as absent, and the view keeps the last whole poll's time.
    void abandonPoll();

    GroupMonitor& monitor() { return m_monitor; }
    const GroupMonitor& monitor() const { return m_monitor; }

    ClusterView view() const;
    // Whether view() makes the rows of the GUI's group list and Topics tab
    // (ClusterView::groupList, topicConsumers) and keeps only the watched groups in full
    // (ClusterView::cluster), as the GUI reads them; else every group in full, as the
    // exporter and the CLI read them. Off by default, and with it the sparkline each list
    // row shows (GroupTrend::recentTotalLag stays empty).
    void setListRows(bool on) {
        m_listRows = on;
        m_monitor.keepSparklines(on);
    }

private:
    static GroupMonitor::Options leanElsewhere(GroupMonitor::Options options);

    const lag::Clock& m_clock;
    GroupMonitor m_monitor;
    QStringList m_watched; // sorted
    QDateTime m_takenAt;   // of the last poll
    // The poll under way: when its first group came, and the groups it has had so far.
    std::optional<int64_t> m_pollTakenAtMs;
    QSet<QString> m_polledGroups;
    bool m_listRows = false;
};

} // namespace groupscope::monitor
