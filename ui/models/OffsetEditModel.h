#pragma once

#include "models/KeyedTableModel.h"
#include "offsets/RecordPreviewer.h"
#include "offsets/ResetPlan.h"
#include "snapshot/GroupSnapshot.h"

namespace groupscope::ui {

// One partition of the offsets table: what the cluster says (live), what the user asked
// for (edit) and what planning made of it (preview).
// The live part (PartitionPosition) comes from the group's snapshot, or from the plan for
// partitions added by topic.
struct OffsetEditRow : kafka::PartitionPosition {
    // edit
    offsets::ResetSpec spec; // ToCurrent: leave the partition alone
    QString valueText;
    bool addedByUser = false; // "add topic…" or an imported file, not a commit of the group
    // preview
    bool planned = false;
    std::optional<int64_t> newOffset;
    QStringList warnings;
    QString error;
    // The record the group would read next at newOffset, once previewed.
    std::optional<offsets::RecordPreview> nextRecord;

    bool edited() const { return spec.mode != offsets::ResetMode::ToCurrent; }
};

// The editable offsets table of one group (issue 6: resets). Live columns follow the
// ClusterPoller's snapshots as a diff; Mode and Value are the user's and are never touched
// by a refresh (an open editor stays open, with what the user typed); the preview columns
// are filled from a ResetPlan made on a worker thread, and Next record from the record
// preview that follows it.
class OffsetEditModel : public KeyedTableModel<OffsetEditRow, kafka::TopicPartition> {
    Q_OBJECT
public:
    // The first six are positionColumns::Column (the PartitionPosition fields).
    enum Column {
        TopicColumn,
        PartitionColumn,
        CurrentColumn,
        LogStartColumn,
        LogEndColumn,
        LagColumn,
        ModeColumn,
        ValueColumn,
        NewOffsetColumn,
        DeltaColumn,
        NextRecordColumn,
        NotesColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, ModeRole };

    explicit OffsetEditModel(QObject* parent = nullptr);

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    // Mode takes a ResetMode (as int) in Qt::EditRole; Value takes the text and refuses
    // what does not parse for the row's mode (lastRefusal() says why).
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    const QString& groupId() const { return m_groupId; }
    // Another group: drops every row and edit.
    void setGroup(const QString& groupId);
    void applySnapshot(const monitor::GroupSnapshot& group);

    // Sets the same mode and value on the given rows; false (nothing changed) with the
    // reason in lastRefusal() when the value does not parse.
    bool setSpec(const QList<int>& rows, offsets::ResetMode mode, const QString& valueText);
    // Copies a row's mode and value to every row of its topic.
    void fillTopic(int row);
    // Adds partitions (e.g. all of a topic) the group has no commit on yet.
    void addPartitions(const QList<kafka::TopicPartition>& partitions);
    // Every edit back to "current".
    void clearEdits();
    QString lastRefusal() const { return m_lastRefusal; }

    // The edited rows as plan requests; `generation` tells a preview apart from an older one.
    QList<offsets::RowRequest> requests() const;
    quint64 generation() const { return m_generation; }
    void applyPlan(const offsets::ResetPlan& plan, quint64 generation);
    // Fills the Next record column from a record preview of the plan of `generation`.
    void applyRecordPreviews(
        const QHash<offsets::RecordPreviewer::Key, offsets::RecordPreview>& previews,
        quint64 generation);
    // True when a planned row has a new offset whose record has not been previewed.
    bool needsRecordPreview() const;
    // True when the preview matches the current edits.
    bool previewIsCurrent() const { return m_plannedGeneration == m_generation; }
    const offsets::ResetPlan& plan() const { return m_plan; }
    bool hasEdits() const;

    // The value a row gets when its mode changes, so the editor opens on something sensible.
    static QString defaultValue(offsets::ResetMode mode, const OffsetEditRow& row);

signals:
    // The edits changed: the preview is stale and planning should run again.
    void editsChanged();

protected:
    const kafka::TopicPartition& keyOf(const OffsetEditRow& row) const override {
        return row.topicPartition;
    }
    bool sameCell(const OffsetEditRow& shown, const OffsetEditRow& fresh,
                  int column) const override;
    OffsetEditRow merged(const OffsetEditRow& shown, OffsetEditRow&& fresh) const override;
    bool keepsVanished(const OffsetEditRow& shown) const override {
        return shown.addedByUser || shown.edited();
    }

private:
    QVariant displayText(const OffsetEditRow& row, int column) const;
    static QString nextRecordText(const OffsetEditRow& row);
    static QString nextRecordToolTip(const OffsetEditRow& row);
    bool setRowSpec(int row, const offsets::ResetSpec& spec, const QString& text);
    void editsDone();

    QString m_groupId;
    quint64 m_generation = 0;
    quint64 m_plannedGeneration = ~quint64(0);
    offsets::ResetPlan m_plan;
    QString m_lastRefusal;
};

} // namespace groupscope::ui
