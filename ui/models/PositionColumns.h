#pragma once

#include "kafka/PartitionPosition.h"
#include "models/TableText.h"

#include <QVariant>

namespace groupscope::ui::positionColumns {

// The six columns every partition table starts with, in this order: the fields of a
// kafka::PartitionPosition. PartitionTableModel and OffsetEditModel number their first
// columns the same way and hand these cells to the functions below.
enum Column { Topic, Partition, Committed, LogStart, LogEnd, Lag, Count };

// DisplayRole of a position column; an invalid QVariant for any other column.
inline QVariant displayText(const kafka::PartitionPosition& row, int column) {
    switch (column) {
    case Topic:
        return row.topicPartition.topic;
    case Partition:
        return row.topicPartition.partition;
    case Committed:
        return tableText::offset(row.committedOffset);
    case LogStart:
        return tableText::offset(row.logStartOffset);
    case LogEnd:
        return tableText::offset(row.logEndOffset);
    case Lag:
        return tableText::offset(row.lag);
    }
    return {};
}

// The value a position column sorts by (no commit or no lag sorts as -1).
inline QVariant sortValue(const kafka::PartitionPosition& row, int column) {
    switch (column) {
    case Topic:
        return row.topicPartition.topic;
    case Partition:
        return qlonglong(row.topicPartition.partition);
    case Committed:
        return qlonglong(row.committedOffset.value_or(-1));
    case LogStart:
        return qlonglong(row.logStartOffset);
    case LogEnd:
        return qlonglong(row.logEndOffset);
    case Lag:
        return qlonglong(row.lag.value_or(-1));
    }
    return {};
}

} // namespace groupscope::ui::positionColumns
