#include "models/OffsetEditModel.h"

#include "models/PositionColumns.h"
#include "models/ResetModeText.h"
#include "models/TableText.h"

#include <QDateTime>
#include <QFont>
#include <QPalette>

namespace groupscope::ui {

static_assert(int(OffsetEditModel::CurrentColumn) == int(positionColumns::Committed) &&
              int(OffsetEditModel::LagColumn) == int(positionColumns::Lag));

using offsets::ResetMode;
using offsets::ResetSpec;

namespace {

bool isNumeric(int column) {
    return column == OffsetEditModel::PartitionColumn ||
           (column >= OffsetEditModel::CurrentColumn && column <= OffsetEditModel::LagColumn) ||
           column == OffsetEditModel::NewOffsetColumn || column == OffsetEditModel::DeltaColumn;
}

std::optional<int64_t> deltaOf(const OffsetEditRow& row) {
    if (!row.newOffset || !row.committedOffset)
        return std::nullopt;
    return *row.newOffset - *row.committedOffset;
}

} // namespace

OffsetEditModel::OffsetEditModel(QObject* parent)
    : KeyedTableModel(parent) {}

int OffsetEditModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

bool OffsetEditModel::sameCell(const OffsetEditRow& shown, const OffsetEditRow& fresh,
                               int column) const {
    switch (column) {
    case TopicColumn:
    case PartitionColumn:
        return shown.topicPartition == fresh.topicPartition;
    case CurrentColumn:
        return shown.committedOffset == fresh.committedOffset;
    case LogStartColumn:
        return shown.logStartOffset == fresh.logStartOffset;
    case LogEndColumn:
        return shown.logEndOffset == fresh.logEndOffset;
    case LagColumn:
        return shown.lag == fresh.lag;
    case ModeColumn:
        return shown.spec.mode == fresh.spec.mode;
    case ValueColumn:
        return shown.valueText == fresh.valueText && shown.spec.mode == fresh.spec.mode;
    case NewOffsetColumn:
        return shown.newOffset == fresh.newOffset && shown.planned == fresh.planned &&
               shown.edited() == fresh.edited();
    case DeltaColumn:
        return deltaOf(shown) == deltaOf(fresh) && shown.planned == fresh.planned;
    case NextRecordColumn:
        return shown.nextRecord == fresh.nextRecord && shown.planned == fresh.planned &&
               shown.newOffset == fresh.newOffset && shown.edited() == fresh.edited();
    case NotesColumn:
        return shown.warnings == fresh.warnings && shown.error == fresh.error &&
               shown.planned == fresh.planned;
    }
    return true;
}

OffsetEditRow OffsetEditModel::merged(const OffsetEditRow& shown, OffsetEditRow&& fresh) const {
    // Only the live columns come from the snapshot; edits and preview stay the user's.
    OffsetEditRow row = shown;
    row.setPosition(fresh);
    return row;
}

QVariant OffsetEditModel::displayText(const OffsetEditRow& row, int column) const {
    if (column < positionColumns::Count)
        return positionColumns::displayText(row, column);
    switch (column) {
    case ModeColumn:
        return ResetModeText::label(row.spec.mode);
    case ValueColumn:
        return row.valueText;
    case NewOffsetColumn:
        if (!row.edited())
            return tr("unchanged");
        return row.planned ? tableText::offset(row.newOffset) : tr("…");
    case DeltaColumn:
        if (!row.edited() || !row.planned)
            return {};
        if (const auto delta = deltaOf(row)) {
            if (*delta < 0)
                return tr("%1 (replays %2)").arg(*delta).arg(-*delta);
            if (*delta > 0)
                return tr("+%1 (skips %1)").arg(*delta);
            return QStringLiteral("0");
        }
        return tableText::none();
    case NextRecordColumn:
        return nextRecordText(row);
    case NotesColumn:
        if (!row.error.isEmpty())
            return tr("Error: %1").arg(row.error);
        return row.warnings.join(QStringLiteral("; "));
    }
    return {};
}

QVariant OffsetEditModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const OffsetEditRow& row = m_rows.at(index.row());
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return displayText(row, column);
    case Qt::EditRole:
        if (column == ModeColumn)
            return int(row.spec.mode);
        if (column == ValueColumn)
            return row.valueText;
        return data(index, Qt::DisplayRole);
    case ModeRole:
        return int(row.spec.mode);
    case Qt::TextAlignmentRole:
        return isNumeric(column) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                 : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        // Placeholder text colour for "nothing to do here", so the edited rows stand out
        // in any palette.
        if (!row.edited() && column >= ModeColumn)
            return QPalette().brush(QPalette::PlaceholderText);
        if (column == NotesColumn && !row.error.isEmpty())
            return QPalette().brush(QPalette::Link);
        return {};
    case Qt::FontRole:
        if (row.edited() &&
            (column == ModeColumn || column == ValueColumn || column == NewOffsetColumn)) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::ToolTipRole:
        if (column == ValueColumn)
            return ResetModeText::hint(row.spec.mode);
        if (column == NotesColumn)
            return data(index, Qt::DisplayRole);
        if (column == NextRecordColumn)
            return nextRecordToolTip(row);
        if (column == TopicColumn && row.addedByUser && !row.committedOffset)
            return tr("Added by you: the group has no committed offset here yet");
        return {};
    case SortRole:
        if (column < positionColumns::Count)
            return positionColumns::sortValue(row, column);
        switch (column) {
        case NewOffsetColumn:
            return qlonglong(row.newOffset.value_or(-1));
        case DeltaColumn:
            return qlonglong(deltaOf(row).value_or(0));
        case NextRecordColumn:
            return qlonglong(row.nextRecord ? row.nextRecord->timestampMs : -1);
        }
        return data(index, Qt::DisplayRole);
    }
    return {};
}

QVariant OffsetEditModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::TextAlignmentRole)
        return isNumeric(section) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                  : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        if (section == DeltaColumn)
            return tr("New minus current: negative replays messages, positive skips them");
        if (section == NextRecordColumn)
            return tr("The record the group would read first after the reset: its time, key "
                      "and the start of its value");
        if (section == ModeColumn || section == ValueColumn)
            return tr("Editable: double-click, F2 or just type");
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TopicColumn:
        return tr("Topic");
    case PartitionColumn:
        return tr("Partition");
    case CurrentColumn:
        return tr("Current");
    case LogStartColumn:
        return tr("Log start");
    case LogEndColumn:
        return tr("Log end");
    case LagColumn:
        return tr("Lag");
    case ModeColumn:
        return tr("Mode");
    case ValueColumn:
        return tr("Value");
    case NewOffsetColumn:
        return tr("New offset");
    case DeltaColumn:
        return tr("Delta");
    case NextRecordColumn:
        return tr("Next record");
    case NotesColumn:
        return tr("Warnings / errors");
    }
    return {};
}

Qt::ItemFlags OffsetEditModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags flags = KeyedTableModel::flags(index);
    if (!index.isValid())
        return flags;
    if (index.column() == ModeColumn)
        flags |= Qt::ItemIsEditable;
    if (index.column() == ValueColumn &&
        ResetModeText::takesValue(m_rows.at(index.row()).spec.mode))
        flags |= Qt::ItemIsEditable;
    return flags;
}

bool OffsetEditModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    if (index.column() == ModeColumn)
        return setSpec({index.row()}, ResetMode(value.toInt()),
                       defaultValue(ResetMode(value.toInt()), m_rows.at(index.row())));
    if (index.column() == ValueColumn)
        return setSpec({index.row()}, m_rows.at(index.row()).spec.mode, value.toString());
    return false;
}

QString OffsetEditModel::defaultValue(ResetMode mode, const OffsetEditRow& row) {
    switch (mode) {
    case ResetMode::ToOffset:
        return QString::number(
            row.committedOffset.value_or(std::max<int64_t>(row.logStartOffset, 0)));
    case ResetMode::ToDatetime:
        return QDateTime::currentDateTimeUtc().addSecs(-3600).toString(
            QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzzZ"));
    case ResetMode::ByDuration:
        return QStringLiteral("PT1H");
    case ResetMode::ShiftBy:
        return QStringLiteral("0");
    default:
        return {};
    }
}

bool OffsetEditModel::setSpec(const QList<int>& rows, ResetMode mode, const QString& valueText) {
    const QString text = ResetModeText::takesValue(mode) ? valueText.trimmed() : QString();
    auto parsed = ResetSpec::parse(mode, text);
    if (!parsed) {
        m_lastRefusal = parsed.error().message;
        return false;
    }
    m_lastRefusal.clear();
    bool changed = false;
    for (int row : rows)
        if (row >= 0 && row < m_rows.size())
            changed |= setRowSpec(row, parsed.value(), text);
    if (changed)
        editsDone();
    return true;
}

bool OffsetEditModel::setRowSpec(int row, const ResetSpec& spec, const QString& text) {
    OffsetEditRow fresh = m_rows.at(row);
    if (fresh.spec == spec && fresh.valueText == text)
        return false;
    fresh.spec = spec;
    fresh.valueText = text;
    fresh.planned = false;
    fresh.newOffset.reset();
    fresh.warnings.clear();
    fresh.error.clear();
    fresh.nextRecord.reset();
    updateRow(row, fresh);
    return true;
}

void OffsetEditModel::fillTopic(int row) {
    if (row < 0 || row >= m_rows.size())
        return;
    const OffsetEditRow source = m_rows.at(row);
    bool changed = false;
    for (int other = 0; other < m_rows.size(); ++other)
        if (m_rows.at(other).topicPartition.topic == source.topicPartition.topic)
            changed |= setRowSpec(other, source.spec, source.valueText);
    if (changed)
        editsDone();
}

void OffsetEditModel::addPartitions(const QList<kafka::TopicPartition>& partitions) {
    QList<OffsetEditRow> rows = m_rows;
    for (const auto& tp : partitions) {
        if (rowOfKey(tp) >= 0)
            continue;
        OffsetEditRow row;
        row.topicPartition = tp;
        row.addedByUser = true;
        rows.append(row);
    }
    applyRows(rows);
}

void OffsetEditModel::clearEdits() {
    bool changed = false;
    for (int row = 0; row < m_rows.size(); ++row)
        changed |= setRowSpec(row, ResetSpec::logical(ResetMode::ToCurrent), {});
    if (changed)
        editsDone();
}

void OffsetEditModel::editsDone() {
    ++m_generation;
    emit editsChanged();
}

bool OffsetEditModel::hasEdits() const {
    return std::any_of(m_rows.cbegin(), m_rows.cend(),
                       [](const auto& row) { return row.edited(); });
}

void OffsetEditModel::setGroup(const QString& groupId) {
    if (groupId == m_groupId)
        return;
    beginResetModel();
    m_groupId = groupId;
    m_rows.clear();
    m_plan = {};
    ++m_generation;
    endResetModel();
}

void OffsetEditModel::applySnapshot(const monitor::GroupSnapshot& group) {
    if (group.groupId() != m_groupId)
        return;
    QList<OffsetEditRow> fresh;
    fresh.reserve(group.partitions.size());
    for (const monitor::PartitionSnapshot& partition : group.partitions) {
        // The scope of a reset is what the group has commits on, plus what the user added.
        if (!partition.committedOffset && rowOfKey(partition.topicPartition) < 0)
            continue;
        OffsetEditRow row;
        row.setPosition(partition);
        fresh.append(row);
    }
    applyRows(fresh);
}

QList<offsets::RowRequest> OffsetEditModel::requests() const {
    QList<offsets::RowRequest> requests;
    for (const OffsetEditRow& row : m_rows)
        if (row.edited())
            requests.append({m_groupId, row.topicPartition, row.spec});
    return requests;
}

void OffsetEditModel::applyPlan(const offsets::ResetPlan& plan, quint64 generation) {
    if (generation != m_generation)
        return; // planned for edits that have changed since
    m_plan = plan;
    m_plannedGeneration = generation;
    QHash<kafka::TopicPartition, const offsets::PlanRow*> byPartition;
    for (const offsets::PlanRow& planRow : m_plan.rows)
        if (planRow.groupId == m_groupId)
            byPartition.insert(planRow.topicPartition, &planRow);
    for (int row = 0; row < m_rows.size(); ++row) {
        OffsetEditRow fresh = m_rows.at(row);
        const offsets::PlanRow* planRow = byPartition.value(fresh.topicPartition);
        const std::optional<int64_t> newOffset = planRow ? planRow->newOffset : std::nullopt;
        // A preview stays right while the new offset stays, unless it found the log's end
        // and the log has grown since: then a record is there now.
        if (newOffset != fresh.newOffset || (fresh.nextRecord && fresh.nextRecord->atLogEnd &&
                                             planRow && planRow->logEndOffset > *newOffset))
            fresh.nextRecord.reset();
        fresh.planned = planRow != nullptr;
        fresh.newOffset = newOffset;
        fresh.warnings = planRow ? planRow->warnings : QStringList();
        fresh.error = planRow ? planRow->error : QString();
        // Partitions added by topic have no snapshot row yet: the plan knows their log.
        if (planRow && fresh.logEndOffset < 0) {
            fresh.setPosition(*planRow); // a plan row has no lag: none is shown until a poll
        }
        updateRow(row, fresh);
    }
}

void OffsetEditModel::applyRecordPreviews(
    const QHash<offsets::RecordPreviewer::Key, offsets::RecordPreview>& previews,
    quint64 generation) {
    if (generation != m_generation || generation != m_plannedGeneration)
        return; // previewed for a plan that has been replaced since
    for (int row = 0; row < m_rows.size(); ++row) {
        const OffsetEditRow& shown = m_rows.at(row);
        if (!shown.edited() || !shown.newOffset)
            continue;
        const auto found = previews.constFind({shown.topicPartition, *shown.newOffset});
        if (found == previews.cend() || shown.nextRecord == *found)
            continue;
        OffsetEditRow fresh = shown;
        fresh.nextRecord = *found;
        updateRow(row, fresh);
    }
}

bool OffsetEditModel::needsRecordPreview() const {
    return std::any_of(m_rows.cbegin(), m_rows.cend(), [](const OffsetEditRow& row) {
        return row.edited() && row.planned && row.newOffset && !row.nextRecord;
    });
}

QString OffsetEditModel::nextRecordText(const OffsetEditRow& row) {
    if (!row.edited() || !row.planned || !row.newOffset)
        return {};
    if (!row.nextRecord)
        return tr("…");
    const offsets::RecordPreview& record = *row.nextRecord;
    if (!record.error.isEmpty())
        return tr("(%1)").arg(record.error);
    if (record.atLogEnd)
        return tr("at the log end: waits for new records");
    QStringList parts;
    if (record.timestampMs >= 0) {
        // Today's records by their time alone: the column has room for the key and value.
        const QDateTime written = QDateTime::fromMSecsSinceEpoch(record.timestampMs);
        parts.append(written.toString(written.date() == QDate::currentDate()
                                          ? QStringLiteral("HH:mm:ss")
                                          : QStringLiteral("yyyy-MM-dd HH:mm")));
    }
    if (!record.keyHead.isNull())
        parts.append(record.keyText());
    parts.append(record.valueText());
    return parts.join(QStringLiteral(" · "));
}

QString OffsetEditModel::nextRecordToolTip(const OffsetEditRow& row) {
    if (!row.nextRecord || !row.nextRecord->error.isEmpty() || row.nextRecord->atLogEnd)
        return nextRecordText(row);
    const offsets::RecordPreview& record = *row.nextRecord;
    QString text = tr("Offset %1").arg(record.offset);
    if (record.offset != record.requestedOffset)
        text += tr(" (the first record from offset %1 on)").arg(record.requestedOffset);
    if (record.timestampMs >= 0)
        text += tr("\nWritten %1")
                    .arg(QDateTime::fromMSecsSinceEpoch(record.timestampMs)
                             .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz t")));
    text += tr("\nKey: %1").arg(record.keyHead.isNull() ? tr("none") : record.keyText());
    text += tr("\nValue (%n byte(s)): %1", nullptr, int(record.valueSize)).arg(record.valueText());
    return text;
}

} // namespace groupscope::ui
