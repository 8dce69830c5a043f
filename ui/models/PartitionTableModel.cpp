#include "models/PartitionTableModel.h"

#include "models/TableText.h"

namespace groupscope::ui {

PartitionTableModel::PartitionTableModel(QObject* parent)
    : KeyedTableModel(parent) {}

int PartitionTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

bool PartitionTableModel::sameCell(const monitor::PartitionSnapshot& shown,
                                   const monitor::PartitionSnapshot& fresh, int column) const {
    switch (column) {
    case TopicColumn:
    case PartitionColumn:
        return shown.topicPartition == fresh.topicPartition;
    case CommittedColumn:
        return shown.committedOffset == fresh.committedOffset;
    case LogStartColumn:
        return shown.logStartOffset == fresh.logStartOffset &&
               shown.error.toString() == fresh.error.toString();
    case LogEndColumn:
        return shown.logEndOffset == fresh.logEndOffset &&
               shown.error.toString() == fresh.error.toString();
    case LagColumn:
        return shown.lag == fresh.lag;
    case OwnerColumn:
        return shown.clientId == fresh.clientId && shown.memberId == fresh.memberId &&
               shown.host == fresh.host;
    case MetadataColumn:
        return shown.commitMetadata == fresh.commitMetadata;
    }
    return true;
}

QVariant PartitionTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const monitor::PartitionSnapshot& row = m_rows.at(index.row());
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case TopicColumn:
            return row.topicPartition.topic;
        case PartitionColumn:
            return row.topicPartition.partition;
        case CommittedColumn:
            return tableText::offset(row.committedOffset);
        case LogStartColumn:
            return tableText::offset(row.logStartOffset);
        case LogEndColumn:
            return tableText::offset(row.logEndOffset);
        case LagColumn:
            return tableText::offset(row.lag);
        case OwnerColumn:
            return row.clientId.isEmpty() ? tableText::none() : row.clientId;
        case MetadataColumn:
            return row.commitMetadata;
        }
        return {};
    case Qt::TextAlignmentRole:
        return column == PartitionColumn || (column >= CommittedColumn && column <= LagColumn)
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (row.error && (column == LogStartColumn || column == LogEndColumn))
            return row.error.toString();
        if (column == OwnerColumn && !row.memberId.isEmpty())
            return tr("%1 on %2\nmember %3").arg(row.clientId, row.host, row.memberId);
        if (column == CommittedColumn && !row.committedOffset)
            return tr("The group has no committed offset for this partition");
        return {};
    case SortRole:
        switch (column) {
        case TopicColumn:
            return row.topicPartition.topic;
        case PartitionColumn:
            return qlonglong(row.topicPartition.partition);
        case CommittedColumn:
            return qlonglong(row.committedOffset.value_or(-1));
        case LogStartColumn:
            return qlonglong(row.logStartOffset);
        case LogEndColumn:
            return qlonglong(row.logEndOffset);
        case LagColumn:
            return qlonglong(row.lag.value_or(-1));
        case OwnerColumn:
            return row.clientId;
        case MetadataColumn:
            return row.commitMetadata;
        }
        return {};
    case LagRole:
        return qlonglong(row.lag.value_or(-1));
    case MaxLagRole:
        return m_maxLag;
    }
    return {};
}

QVariant PartitionTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::TextAlignmentRole)
        return section == PartitionColumn || (section >= CommittedColumn && section <= LagColumn)
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TopicColumn:
        return tr("Topic");
    case PartitionColumn:
        return tr("Partition");
    case CommittedColumn:
        return tr("Committed");
    case LogStartColumn:
        return tr("Log start");
    case LogEndColumn:
        return tr("Log end");
    case LagColumn:
        return tr("Lag");
    case OwnerColumn:
        return tr("Owner (client id)");
    case MetadataColumn:
        return tr("Commit metadata");
    }
    return {};
}

void PartitionTableModel::applySnapshot(const monitor::GroupSnapshot& group) {
    qlonglong maxLag = 0;
    for (const auto& partition : group.partitions)
        maxLag = std::max<qlonglong>(maxLag, partition.lag.value_or(0));
    applyRows(group.partitions);
    if (maxLag != m_maxLag) {
        // Every bar is drawn relative to the largest lag: all of them change.
        m_maxLag = maxLag;
        if (!m_rows.isEmpty())
            emit dataChanged(index(0, LagColumn), index(rowCount() - 1, LagColumn), {MaxLagRole});
    }
}

void PartitionTableModel::clear() {
    applyRows({});
    m_maxLag = 0;
}

} // namespace groupscope::ui
