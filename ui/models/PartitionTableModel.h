#pragma once

#include "models/KeyedTableModel.h"
#include "monitor/GroupMonitorSnapshot.h"
#include "snapshot/GroupSnapshot.h"

namespace groupscope::ui {

// One row of the Partitions tab: the poll's row with what the live monitor adds to it.
struct PartitionRow : monitor::PartitionSnapshot {
    lag::TimeLag timeLag;
    int64_t lastCommitMs = -1;
};

// The partitions of one group (the group detail's Partitions tab): committed offset, log
// range, lag, time lag, owner and last commit, updated from each refresh of the live
// pipeline (the group's poll and its GroupMonitorSnapshot, both from one ClusterView) as
// one diff.
class PartitionTableModel : public KeyedTableModel<PartitionRow, kafka::TopicPartition> {
    Q_OBJECT
public:
    // The first six are positionColumns::Column (the PartitionPosition fields).
    enum Column {
        TopicColumn,
        PartitionColumn,
        CommittedColumn,
        LogStartColumn,
        LogEndColumn,
        LagColumn,
        TimeLagColumn, // from the group's monitor snapshot, as are the last commit times
        OwnerColumn,
        LastCommitColumn,
        MetadataColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1,
        // The lag as qlonglong (-1: none) and the largest lag of the table, for the bar.
        LagRole,
        MaxLagRole,
    };

    explicit PartitionTableModel(QObject* parent = nullptr);

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // `detail`, the same refresh's snapshot of the group, gives time lags and last commits;
    // without it they are not known.
    void applySnapshot(const monitor::GroupSnapshot& group,
                       const monitor::GroupMonitorSnapshot* detail = nullptr);
    void clear();

protected:
    const kafka::TopicPartition& keyOf(const PartitionRow& row) const override {
        return row.topicPartition;
    }
    bool sameCell(const PartitionRow& shown, const PartitionRow& fresh, int column) const override;

private:
    // data()'s DisplayRole and SortRole for one cell.
    static QVariant displayText(const PartitionRow& row, int column);
    static QVariant sortValue(const PartitionRow& row, int column);
    static QList<PartitionRow> rowsOf(const monitor::GroupSnapshot& group,
                                      const monitor::GroupMonitorSnapshot* detail);

    qlonglong m_maxLag = 0;
};

} // namespace groupscope::ui
