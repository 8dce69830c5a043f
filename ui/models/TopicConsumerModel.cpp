#include "models/TopicConsumerModel.h"

#include <QLocale>

namespace groupscope::ui {

TopicConsumerModel::TopicConsumerModel(QObject* parent)
    : KeyedTableModel(parent) {}

int TopicConsumerModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

int TopicConsumerModel::rowOf(const QString& topic, const QString& groupId) const {
    return rowOfKey(topic + QChar(0x0001) + groupId);
}

void TopicConsumerModel::applyConsumers(const QList<monitor::TopicConsumer>& rows) {
    applySharedRows(rows, [](const Row& row) { return row.fingerprint; });
}

bool TopicConsumerModel::sameCell(const Row& shown, const Row& fresh, int column) const {
    switch (column) {
    case TopicColumn:
    case GroupColumn:
        return true; // the key
    case PartitionsColumn:
        return shown.partitions == fresh.partitions &&
               shown.topicPartitions == fresh.topicPartitions;
    case LogSizeColumn:
        return shown.logSize == fresh.logSize;
    case TypeColumn:
        return shown.type == fresh.type;
    case StateColumn:
        return shown.state == fresh.state;
    case LagColumn:
        return shown.lag == fresh.lag && shown.withoutCommit == fresh.withoutCommit;
    case TimeLagColumn:
        return shown.timeLagText == fresh.timeLagText;
    }
    return true;
}

QVariant TopicConsumerModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return displayValue(row, index.column());
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case PartitionsColumn:
        case LogSizeColumn:
        case LagColumn:
        case TimeLagColumn:
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        }
        return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (index.column() == LagColumn && row.withoutCommit > 0)
            return tr("The sum over the partitions with a commit; %n partition(s) without a "
                      "commit not counted",
                      nullptr, row.withoutCommit);
        if (index.column() == GroupColumn)
            return tr("Enter or a double click opens the group");
        return {};
    case GroupIdRole:
        return row.groupId;
    case TopicRole:
        return row.topic;
    }
    return {};
}

QVariant TopicConsumerModel::displayValue(const Row& row, int column) const {
    switch (column) {
    case TopicColumn:
        return row.topic;
    case PartitionsColumn:
        return row.partitions == row.topicPartitions
                   ? QString::number(row.partitions)
                   : tr("%1 of %2").arg(row.partitions).arg(row.topicPartitions);
    case LogSizeColumn:
        return QLocale().toString(qlonglong(row.logSize));
    case GroupColumn:
        return row.groupId;
    case TypeColumn:
        return row.type == kafka::GroupType::Unknown ? QStringLiteral("\u2013")
                                                     : kafka::groupTypeName(row.type);
    case StateColumn:
        return kafka::groupStateName(row.state);
    case LagColumn: {
        const QString lag =
            row.lag ? QLocale().toString(qlonglong(*row.lag)) : QStringLiteral("\u2013");
        if (row.withoutCommit > 0)
            return tr("%1 (%2 without a commit)").arg(lag).arg(row.withoutCommit);
        return lag;
    }
    case TimeLagColumn:
        return row.timeLagText;
    }
    return {};
}

QVariant TopicConsumerModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TopicColumn:
        return tr("Topic");
    case PartitionsColumn:
        return tr("Partitions");
    case LogSizeColumn:
        return tr("Log size");
    case GroupColumn:
        return tr("Group");
    case TypeColumn:
        return tr("Type");
    case StateColumn:
        return tr("State");
    case LagColumn:
        return tr("Lag");
    case TimeLagColumn:
        return tr("Time lag");
    }
    return {};
}

} // namespace groupscope::ui
