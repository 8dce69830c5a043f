#pragma once

#include "models/KeyedTableModel.h"
#include "monitor/GroupMonitorSnapshot.h"
#include "snapshot/GroupSnapshot.h"

#include <QHash>

namespace groupscope::ui {

// The partitions of one group (the group detail's Partitions tab): committed offset, log
// range, lag and owner, updated from each GroupSnapshot as a diff.
class PartitionTableModel
    : public KeyedTableModel<monitor::PartitionSnapshot, kafka::TopicPartition> {
    Q_OBJECT
public:
    enum Column {
        TopicColumn,
        PartitionColumn,
        CommittedColumn,
        LogStartColumn,
        LogEndColumn,
        LagColumn,
        TimeLagColumn, // from the live monitor, as are the last commit times
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

    void applySnapshot(const monitor::GroupSnapshot& group);
    // Time lag and last commit time per partition, from the open group's live monitor.
    void applyMonitorSnapshot(const monitor::GroupMonitorSnapshot& snapshot);
    void clear();

protected:
    const kafka::TopicPartition& keyOf(const monitor::PartitionSnapshot& row) const override {
        return row.topicPartition;
    }
    bool sameCell(const monitor::PartitionSnapshot& shown, const monitor::PartitionSnapshot& fresh,
                  int column) const override;

private:
    // What the live monitor knows of a partition beyond the poll's row.
    struct PartitionTrend {
        lag::TimeLag timeLag;
        int64_t lastCommitMs = -1;
    };

    PartitionTrend trendOf(const kafka::TopicPartition& partition) const {
        return m_trends.value(partition);
    }

    qlonglong m_maxLag = 0;
    QHash<kafka::TopicPartition, PartitionTrend> m_trends;
};

} // namespace groupscope::ui
