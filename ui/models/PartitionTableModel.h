#pragma once

#include "models/KeyedTableModel.h"
#include "monitor/GroupSnapshot.h"

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
        OwnerColumn,
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
    void clear();

protected:
    kafka::TopicPartition keyOf(const monitor::PartitionSnapshot& row) const override {
        return row.topicPartition;
    }
    bool sameCell(const monitor::PartitionSnapshot& shown, const monitor::PartitionSnapshot& fresh,
                  int column) const override;

private:
    qlonglong m_maxLag = 0;
};

} // namespace groupscope::ui
