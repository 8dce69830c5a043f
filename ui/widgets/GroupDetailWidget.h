#pragma once

#include "monitor/GroupMonitorSnapshot.h"
#include "snapshot/GroupSnapshot.h"

#include <QWidget>

class QLabel;
class QTabWidget;
class QTableView;

namespace groupscope::ui {

class LagChartWidget;
class MemberTableModel;
class OffsetResetPanel;
class PartitionTableModel;
class PlaceholderTableView;
class RebalanceTimelineWidget;
class ResetController;
class ResetHistoryPanel;

// Everything about one group. The same ClusterPoller snapshots as the group list feed
// Partitions (offsets, log range, lag bars, owners), Members, the editable offsets table
// and the reset History; the group's own live monitor (LiveGroupMonitor: offsets-topic
// history plus polling) feeds the Lag chart and the rebalance Timeline.
class GroupDetailWidget : public QWidget {
    Q_OBJECT
public:
    enum Tab { PartitionsTab, MembersTab, LagTab, TimelineTab, OffsetsTab, HistoryTab };

    GroupDetailWidget(ResetController* controller, QWidget* parent = nullptr);

    // Opens a group; its data arrives with the next snapshot (or `current`, if known).
    void openGroup(const QString& groupId, const monitor::GroupSnapshot* current = nullptr);
    const QString& groupId() const { return m_groupId; }
    // Takes this group's part of a refresh; other groups are ignored.
    void applyClusterSnapshot(const monitor::ClusterSnapshot& snapshot);
    void applyGroupSnapshot(const monitor::GroupSnapshot& group);
    // The live monitor's view of the open group: lag history and the rebalance timeline.
    void applyMonitorSnapshot(const monitor::GroupMonitorSnapshot& snapshot);

    PartitionTableModel* partitionModel() const { return m_partitionModel; }
    MemberTableModel* memberModel() const { return m_memberModel; }
    OffsetResetPanel* offsetPanel() const { return m_offsetPanel; }
    ResetHistoryPanel* historyPanel() const { return m_historyPanel; }
    LagChartWidget* lagChart() const { return m_lagChart; }
    RebalanceTimelineWidget* timelineView() const { return m_timeline; }
    // The newest live-monitor snapshot of the open group (empty before the first one).
    const monitor::GroupMonitorSnapshot& monitorSnapshot() const { return m_monitorSnapshot; }
    QTabWidget* tabs() const { return m_tabs; }
    QTableView* partitionView() const;
    QTableView* memberView() const;
    QString headerText() const;

signals:
    void statusMessage(const QString& text);

private:
    void updateHeader(const monitor::GroupSnapshot& group);

    QString m_groupId;
    QLabel* m_header;
    QTabWidget* m_tabs;
    PartitionTableModel* m_partitionModel;
    MemberTableModel* m_memberModel;
    PlaceholderTableView* m_partitionView;
    PlaceholderTableView* m_memberView;
    OffsetResetPanel* m_offsetPanel;
    ResetHistoryPanel* m_historyPanel;
    LagChartWidget* m_lagChart;
    RebalanceTimelineWidget* m_timeline;
    monitor::GroupMonitorSnapshot m_monitorSnapshot;
};

} // namespace groupscope::ui
