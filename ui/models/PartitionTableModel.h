#pragma once

#include "models/KeyedTableModel.h"
#include "monitor/GroupMonitorSnapshot.h"
#include "snapshot/GroupSnapshot.h"

#include <QHash>

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
        // Read from the log (PartitionSnapshot::lagDetail): without markers and aborted
        // records; its tooltip says why and what could not be computed.
        EffectiveLagColumn,
        TimeLagColumn,      // from the group's monitor snapshot, as are the last commit times
        OldestRecordColumn, // the oldest unconsumed record's own age (lagDetail)
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
    // No editors: a busy refresh is one dataChanged (ChangedCellBlocks).
    ChangedCellBlocks::Precision cellSignalPrecision() const override {
        return ChangedCellBlocks::Precision::ReadOnly;
    }

private:
    bool m_shareGroup = false; // its Committed column holds start offsets

    // What the refresh's monitor snapshot adds to each partition of the poll (time lag,
    // last commit), asked in the poll's order.
    class MonitorAdditions {
    public:
        explicit MonitorAdditions(const monitor::GroupMonitorSnapshot* detail);
        lag::TimeLag timeLag(const kafka::TopicPartition& partition);
        int64_t lastCommitMs(const kafka::TopicPartition& partition) const;

    private:
        const monitor::GroupMonitorSnapshot* m_detail;
        qsizetype m_next = 0;
        QHash<kafka::TopicPartition, int64_t> m_lastCommits;
    };

    // data()'s DisplayRole, ToolTipRole and SortRole for one cell.
    static QVariant toolTip(const PartitionRow& row, int column);
    static QVariant displayText(const PartitionRow& row, int column);
    static QVariant sortValue(const PartitionRow& row, int column);
    static QList<PartitionRow> rowsOf(const monitor::GroupSnapshot& group,
                                      MonitorAdditions& additions);
    // Brings `shown` to `fresh` and the additions in place; returns the changed columns.
    static ChangedColumns takeOver(PartitionRow& shown, const monitor::PartitionSnapshot& fresh,
                                   const lag::TimeLag& timeLag, int64_t lastCommitMs);

    qlonglong m_maxLag = 0;
};

} // namespace groupscope::ui
