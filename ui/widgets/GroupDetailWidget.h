#pragma once

#include "monitor/GroupSnapshot.h"

#include <QWidget>

class QLabel;
class QTabWidget;
class QTableView;

namespace groupscope::ui {

class MemberTableModel;
class OffsetResetPanel;
class PartitionTableModel;
class PlaceholderTableView;
class ResetController;
class ResetHistoryPanel;

// Everything about one group, fed from the same ClusterPoller snapshots as the group list:
// Partitions (offsets, log range, lag bars, owners), Members, the editable offsets table
// and the reset History.
class GroupDetailWidget : public QWidget {
    Q_OBJECT
public:
    enum Tab { PartitionsTab, MembersTab, OffsetsTab, HistoryTab };

    GroupDetailWidget(ResetController* controller, QWidget* parent = nullptr);

    // Opens a group; its data arrives with the next snapshot (or `current`, if known).
    void openGroup(const QString& groupId, const monitor::GroupSnapshot* current = nullptr);
    const QString& groupId() const { return m_groupId; }
    // Takes this group's part of a refresh; other groups are ignored.
    void applyClusterSnapshot(const monitor::ClusterSnapshot& snapshot);
    void applyGroupSnapshot(const monitor::GroupSnapshot& group);

    PartitionTableModel* partitionModel() const { return m_partitionModel; }
    MemberTableModel* memberModel() const { return m_memberModel; }
    OffsetResetPanel* offsetPanel() const { return m_offsetPanel; }
    ResetHistoryPanel* historyPanel() const { return m_historyPanel; }
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
};

} // namespace groupscope::ui
