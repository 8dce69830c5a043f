#pragma once

#include "models/KeyedTableModel.h"
#include "monitor/TopicSummary.h"

namespace groupscope::ui {

// The Topics view: one row per topic and group that reads it, in topic order, from the
// ClusterView's topicConsumers (made on the pipeline's thread, shared, diffed by
// fingerprint as the group list is). Which groups read this topic, and how far behind is
// each: the same lag as the group list, from the same poll.
class TopicConsumerModel : public KeyedTableModel<monitor::TopicConsumer, QString> {
    Q_OBJECT
public:
    using Row = monitor::TopicConsumer;
    enum Column {
        TopicColumn,
        PartitionsColumn, // the group's partitions of the topic, of the topic's
        LogSizeColumn,
        GroupColumn,
        TypeColumn,
        StateColumn,
        LagColumn,
        TimeLagColumn,
        ColumnCount
    };
    enum Role { GroupIdRole = Qt::UserRole + 1, TopicRole };

    explicit TopicConsumerModel(QObject* parent = nullptr);

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    void applyConsumers(const QList<monitor::TopicConsumer>& rows);
    // The row of a group on a topic, or -1.
    int rowOf(const QString& topic, const QString& groupId) const;

protected:
    const QString& keyOf(const Row& row) const override { return row.key; }
    bool sameCell(const Row& shown, const Row& fresh, int column) const override;
    ChangedCellBlocks::Precision cellSignalPrecision() const override {
        return ChangedCellBlocks::Precision::ReadOnly;
    }

private:
    QVariant displayValue(const Row& row, int column) const;
};

} // namespace groupscope::ui
