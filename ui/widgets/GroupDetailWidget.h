#pragma once

#include "monitor/ClusterView.h"
#include "snapshot/GroupSnapshot.h"

#include <QMap>
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
class RecordsPanel;
class ResetController;
class ResetHistoryPanel;

// Everything about one group, from the same ClusterView as the group list: the group's poll
// feeds Partitions (offsets, log range, lag bars, owners), Members, the editable offsets
// table and the reset History; its GroupMonitorSnapshot (the group is watched while open)
// adds time lags and last commits to Partitions and feeds the Lag chart and the rebalance
// Timeline. The header's health is the list's verdict, computed once for both.
class GroupDetailWidget : public QWidget {
    Q_OBJECT
public:
    enum Tab { PartitionsTab, MembersTab, LagTab, TimelineTab, RecordsTab, OffsetsTab, HistoryTab };

    GroupDetailWidget(ResetController* controller, QWidget* parent = nullptr);

    // Opens a group; its data arrives with the next view (or `current`, if known).
    void openGroup(const QString& groupId, const monitor::GroupSnapshot* current = nullptr);
    const QString& groupId() const { return m_groupId; }
    // Takes the open group's part of a refresh; other groups are ignored.
    void applyView(const monitor::ClusterView& view);

    PartitionTableModel* partitionModel() const { return m_partitionModel; }
    MemberTableModel* memberModel() const { return m_memberModel; }
    OffsetResetPanel* offsetPanel() const { return m_offsetPanel; }
    ResetHistoryPanel* historyPanel() const { return m_historyPanel; }
    RecordsPanel* recordsPanel() const { return m_recordsPanel; }
    // Says which partition looks stuck (STALL or STOP: commits not moving while lag
    // grows) and links to the record at its commit; hidden while none is.
    QLabel* stuckBanner() const { return m_stuckBanner; }
    // The Records tab on `partition` around the group's commit (its earliest record when
    // the group has none there): the Partitions tab's double-click, Enter and context menu,
    // and the stuck banner's link.
    void showRecordsAtCommit(const kafka::TopicPartition& partition);
    LagChartWidget* lagChart() const { return m_lagChart; }
    RebalanceTimelineWidget* timelineView() const { return m_timeline; }
    // The newest monitor snapshot of the open group (empty before the first one).
    const monitor::GroupMonitorSnapshot& monitorSnapshot() const { return m_monitorSnapshot; }
    QTabWidget* tabs() const { return m_tabs; }
    QTableView* partitionView() const;
    QTableView* memberView() const;
    QString headerText() const;

signals:
    void statusMessage(const QString& text);

private:
    void applyGroup(const monitor::GroupSnapshot& group,
                    const monitor::GroupMonitorSnapshot* detail);
    void updateHeader(const monitor::GroupSnapshot& group);
    // Says so when the commits on a topic vanish between two refreshes (the topic deleted,
    // or its offsets deleted or expired): rows that simply leave the table would not.
    void noteVanishedCommits(const monitor::GroupSnapshot& group);
    void updateStuckBanner(const monitor::GroupSnapshot& group);
    void setUpRecords();
    // "Skip This Record": the reset row goes to the Reset offsets tab, nothing is written.
    void proposeSkip(const kafka::TopicPartition& partition, int64_t offset);

    QString m_groupId;
    QLabel* m_header;
    QTabWidget* m_tabs;
    PartitionTableModel* m_partitionModel;
    MemberTableModel* m_memberModel;
    PlaceholderTableView* m_partitionView;
    PlaceholderTableView* m_memberView;
    OffsetResetPanel* m_offsetPanel;
    ResetHistoryPanel* m_historyPanel;
    RecordsPanel* m_recordsPanel;
    QLabel* m_stuckBanner;
    LagChartWidget* m_lagChart;
    RebalanceTimelineWidget* m_timeline;
    monitor::GroupMonitorSnapshot m_monitorSnapshot;
    QMap<QString, int> m_committedPartitionsByTopic; // of the open group's last refresh
    QString m_vanishedNote; // shown in the header until another group is opened
};

} // namespace groupscope::ui
