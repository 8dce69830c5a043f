#include "models/PartitionTableModel.h"

#include "models/PositionColumns.h"
#include "models/TableText.h"

#include "lag/DurationText.h"
#include "lag/LagDetailText.h"

#include <QDateTime>
#include <QHash>

#include <limits>

namespace groupscope::ui {

static_assert(int(PartitionTableModel::CommittedColumn) == int(positionColumns::Committed) &&
              int(PartitionTableModel::LagColumn) == int(positionColumns::Lag));

PartitionTableModel::PartitionTableModel(QObject* parent)
    : KeyedTableModel(parent) {}

int PartitionTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {

// What the cell shows changes only with the status or the whole second: comparing that is
// exact enough and spares formatting 10,000 texts per refresh.
bool sameTimeLag(const lag::TimeLag& a, const lag::TimeLag& b) {
    return a.status == b.status && qRound64(a.seconds) == qRound64(b.seconds);
}

// Whether `shown` differed from `fresh`; it equals it afterwards.
template <typename T> bool assignIfDifferent(T& shown, const T& fresh) {
    if (shown == fresh)
        return false;
    shown = fresh;
    return true;
}

} // namespace

// Both lists come sorted by partition from the same refresh: one walk pairs them.
PartitionTableModel::MonitorAdditions::MonitorAdditions(const monitor::GroupMonitorSnapshot* detail)
    : m_detail(detail) {
    if (!detail)
        return;
    for (const monitor::CommitHistoryEntry& commit : detail->commits) // oldest first
        if (!commit.deleted)
            m_lastCommits[commit.topicPartition] = commit.commitTimestampMs;
}

lag::TimeLag
PartitionTableModel::MonitorAdditions::timeLag(const kafka::TopicPartition& partition) {
    if (!m_detail)
        return {};
    const QList<monitor::MonitoredPartition>& monitored = m_detail->partitions;
    while (m_next < monitored.size() && monitored.at(m_next).topicPartition < partition)
        ++m_next;
    return m_next < monitored.size() && monitored.at(m_next).topicPartition == partition
               ? monitored.at(m_next).timeLag
               : lag::TimeLag{};
}

int64_t
PartitionTableModel::MonitorAdditions::lastCommitMs(const kafka::TopicPartition& partition) const {
    return m_lastCommits.value(partition, -1);
}

bool PartitionTableModel::sameCell(const PartitionRow& shown, const PartitionRow& fresh,
                                   int column) const {
    switch (column) {
    case TopicColumn:
    case PartitionColumn:
        return true; // the key, the same in both rows
    case CommittedColumn:
        return shown.committedOffset == fresh.committedOffset;
    case LogStartColumn:
        return shown.logStartOffset == fresh.logStartOffset && shown.error == fresh.error;
    case LogEndColumn:
        return shown.logEndOffset == fresh.logEndOffset && shown.error == fresh.error;
    case LagColumn:
        return shown.lag == fresh.lag;
    case OwnerColumn:
        return shown.owner == fresh.owner;
    case MetadataColumn:
        return shown.commitMetadata == fresh.commitMetadata;
    case TimeLagColumn:
        return sameTimeLag(shown.timeLag, fresh.timeLag);
    case EffectiveLagColumn:
    case OldestRecordColumn:
        return shown.lagDetail == fresh.lagDetail;
    case LastCommitColumn:
        return shown.lastCommitMs == fresh.lastCommitMs;
    }
    return true;
}

QVariant PartitionTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const PartitionRow& row = m_rows.at(index.row());
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return displayText(row, column);
    case Qt::TextAlignmentRole:
        return column == PartitionColumn ||
                       (column >= CommittedColumn && column <= OldestRecordColumn)
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        return toolTip(row, column);
    case SortRole:
        return sortValue(row, column);
    case LagRole:
        return qlonglong(row.lag.value_or(-1));
    case MaxLagRole:
        return m_maxLag;
    }
    return {};
}

QVariant PartitionTableModel::toolTip(const PartitionRow& row, int column) {
    const lag::LagDetail& detail = row.lagDetail;
    if (row.error && (column == LogStartColumn || column == LogEndColumn))
        return row.error.toString();
    if (column == OwnerColumn && !row.memberId().isEmpty())
        return tr("%1 on %2\nmember %3").arg(row.clientId(), row.host(), row.memberId());
    if ((column == CommittedColumn || column == EffectiveLagColumn) && !row.committedOffset)
        return tr("The group has no committed offset for this partition");
    if (column == TimeLagColumn)
        return tr("Time behind, estimated: how long ago the log end was at the committed "
                  "offset, interpolated from the log-end history");
    QStringList lines;
    if (column == EffectiveLagColumn) {
        lines.append(tr("Records the group still has to receive, read from the log: "
                        "transaction markers and aborted records do not count"));
        if (const QString reason = detail.reason(); !reason.isEmpty())
            lines.append(reason);
        if (detail.lastStableOffset)
            lines.append(tr("Last stable offset %1 (lag to it %2)")
                             .arg(*detail.lastStableOffset)
                             .arg(detail.lastStableLag.value_or(0)));
    } else if (column == OldestRecordColumn) {
        lines.append(tr("The oldest unconsumed record's own timestamp, read from the log "
                        "at the committed offset"));
        if (detail.oldestRecord == lag::LagDetail::OldestRecord::BatchTime)
            lines.append(tr("Compressed batch: its first record's time"));
        if (detail.oldestRecordOffset >= 0)
            lines.append(
                tr("Offset %1%2")
                    .arg(detail.oldestRecordOffset)
                    .arg(detail.oldestRecordLogAppendTime ? tr(", log append time") : QString()));
    } else {
        return {};
    }
    for (const QString& line : detail.notComputed)
        lines.append(tr("Not computed: %1").arg(line));
    return lines.join(QLatin1Char('\n'));
}

QVariant PartitionTableModel::displayText(const PartitionRow& row, int column) {
    if (column < positionColumns::Count)
        return positionColumns::displayText(row, column);
    switch (column) {
    case OwnerColumn:
        return row.clientId().isEmpty() ? tableText::none() : row.clientId();
    case MetadataColumn:
        return row.commitMetadata.get();
    case TimeLagColumn:
        return lag::timeLagText(row.timeLag);
    case EffectiveLagColumn:
        if (row.lagDetail->commitDeletedByRetention)
            return tr("commit deleted by retention");
        if (row.lagDetail->commitPastLogEnd)
            return tr("commit past log end");
        if (row.lagDetail->effectiveLag && row.lagDetail->transactionMarkers +
                                                   row.lagDetail->abortedRecords +
                                                   row.lagDetail->openTransactionRecords >
                                               0)
            return QStringLiteral("%1 (%2)")
                .arg(*row.lagDetail->effectiveLag)
                .arg(row.lagDetail->reason());
        return lag::effectiveLagText(row.lagDetail, row.committedOffset.has_value());
    case OldestRecordColumn:
        return row.committedOffset
                   ? lag::oldestRecordText(row.lagDetail, QDateTime::currentMSecsSinceEpoch())
                   : tableText::none();
    case LastCommitColumn: {
        const int64_t at = row.lastCommitMs;
        return at < 0 ? tableText::none()
                      : QDateTime::fromMSecsSinceEpoch(at).toString(
                            QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    }
    }
    return {};
}

QVariant PartitionTableModel::sortValue(const PartitionRow& row, int column) {
    if (column < positionColumns::Count)
        return positionColumns::sortValue(row, column);
    switch (column) {
    case OwnerColumn:
        return row.clientId();
    case MetadataColumn:
        return row.commitMetadata.get();
    case TimeLagColumn: {
        const lag::TimeLag& timeLag = row.timeLag;
        return timeLag.status == lag::TimeLag::Status::Unknown ? -1.0 : timeLag.seconds;
    }
    case EffectiveLagColumn:
        return qlonglong(row.lagDetail->effectiveLag.value_or(-1));
    case OldestRecordColumn:
        return qlonglong(row.lagDetail->hasOldestRecordTime()
                             ? row.lagDetail->oldestRecordTimestampMs
                             : std::numeric_limits<qint64>::max());
    case LastCommitColumn:
        return qlonglong(row.lastCommitMs);
    }
    return {};
}

QVariant PartitionTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::TextAlignmentRole)
        return section == PartitionColumn ||
                       (section >= CommittedColumn && section <= OldestRecordColumn)
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
        // A share group commits nothing: its position is where it starts delivering.
        return m_shareGroup ? tr("Start offset") : tr("Committed");
    case LogStartColumn:
        return tr("Log start");
    case LogEndColumn:
        return tr("Log end");
    case LagColumn:
        return tr("Lag");
    case EffectiveLagColumn:
        return tr("Effective lag");
    case TimeLagColumn:
        return tr("Time behind (est.)");
    case OldestRecordColumn:
        return tr("Oldest unconsumed");
    case OwnerColumn:
        return tr("Owner (client id)");
    case LastCommitColumn:
        return tr("Last commit");
    case MetadataColumn:
        return tr("Commit metadata");
    }
    return {};
}

QList<PartitionRow> PartitionTableModel::rowsOf(const monitor::GroupSnapshot& group,
                                                MonitorAdditions& additions) {
    QList<PartitionRow> rows;
    rows.reserve(group.partitions.size());
    for (const monitor::PartitionSnapshot& partition : group.partitions) {
        PartitionRow row;
        static_cast<monitor::PartitionSnapshot&>(row) = partition;
        row.timeLag = additions.timeLag(partition.topicPartition);
        row.lastCommitMs = additions.lastCommitMs(partition.topicPartition);
        rows.append(std::move(row));
    }
    return rows;
}

ChangedColumns PartitionTableModel::takeOver(PartitionRow& shown,
                                             const monitor::PartitionSnapshot& fresh,
                                             const lag::TimeLag& timeLag, int64_t lastCommitMs) {
    // Every field of PartitionSnapshot but the key, which is the same.
    ChangedColumns changed(ColumnCount, false);
    const bool errorChanged = assignIfDifferent(shown.error, fresh.error);
    changed[CommittedColumn] = assignIfDifferent(shown.committedOffset, fresh.committedOffset);
    changed[LogStartColumn] =
        assignIfDifferent(shown.logStartOffset, fresh.logStartOffset) || errorChanged;
    changed[LogEndColumn] =
        assignIfDifferent(shown.logEndOffset, fresh.logEndOffset) || errorChanged;
    changed[LagColumn] = assignIfDifferent(shown.lag, fresh.lag);
    changed[OwnerColumn] = assignIfDifferent(shown.owner, fresh.owner);
    changed[MetadataColumn] = assignIfDifferent(shown.commitMetadata, fresh.commitMetadata);
    changed[TimeLagColumn] = !sameTimeLag(shown.timeLag, timeLag);
    changed[EffectiveLagColumn] = changed[OldestRecordColumn] =
        assignIfDifferent(shown.lagDetail, fresh.lagDetail);
    shown.timeLag = timeLag;
    changed[LastCommitColumn] = assignIfDifferent(shown.lastCommitMs, lastCommitMs);
    return changed;
}

void PartitionTableModel::applySnapshot(const monitor::GroupSnapshot& group,
                                        const monitor::GroupMonitorSnapshot* detail) {
    if (const bool share = group.description.type == kafka::GroupType::Share;
        share != m_shareGroup) {
        m_shareGroup = share;
        emit headerDataChanged(Qt::Horizontal, CommittedColumn, CommittedColumn);
    }
    qlonglong maxLag = 0;
    for (const auto& partition : group.partitions)
        maxLag = std::max<qlonglong>(maxLag, partition.lag.value_or(0));
    MonitorAdditions additions(detail);
    const auto partitionKey =
        [](const monitor::PartitionSnapshot& partition) -> const kafka::TopicPartition& {
        return partition.topicPartition;
    };
    // The usual refresh (the same partitions): the shown rows take over what changed, so
    // nothing of 10,000 rows is copied or freed.
    if (showsKeysInOrder(group.partitions, partitionKey))
        updateRowsInPlace([&](PartitionRow& shown, int row) {
            const monitor::PartitionSnapshot& fresh = group.partitions.at(row);
            return takeOver(shown, fresh, additions.timeLag(fresh.topicPartition),
                            additions.lastCommitMs(fresh.topicPartition));
        });
    else
        applyRows(rowsOf(group, additions));
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
