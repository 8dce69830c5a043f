#pragma once

#include "kafka/GroupTypes.h"
#include "models/KeyedTableModel.h"

namespace groupscope::ui {

// The live members of one group (the group detail's Members tab), keyed by member id.
class MemberTableModel : public KeyedTableModel<kafka::MemberDescription, QString> {
    Q_OBJECT
public:
    enum Column {
        MemberIdColumn,
        InstanceIdColumn,
        ClientIdColumn,
        HostColumn,
        // Consumer, share and streams groups: the member's epoch, and its target's.
        EpochColumn,
        // Partitions; for a streams-group member its active, standby and warm-up tasks.
        AssignmentColumn,
        // Consumer-protocol groups only (KIP-848): what the coordinator wants the member to
        // own, and how far it is from there.
        TargetColumn,
        ReconciliationColumn,
        ColumnCount
    };

    explicit MemberTableModel(QObject* parent = nullptr);

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    void applyMembers(const QList<kafka::MemberDescription>& members);

    // "orders: 0, 1; payments: 2"
    static QString assignmentText(const QList<kafka::TopicPartition>& assignment);
    // "active 0_0, 0_1; standby 1_0": a streams member's tasks (subtopology_partition).
    static QString tasksText(const kafka::StreamsTasks& tasks);
    // "reconciling: revokes orders: 3; receives orders: 4", "done", or empty for a member
    // without a target (classic protocol).
    static QString reconciliationText(const kafka::MemberDescription& member);

protected:
    const QString& keyOf(const kafka::MemberDescription& row) const override {
        return row.memberId;
    }
    bool sameCell(const kafka::MemberDescription& shown, const kafka::MemberDescription& fresh,
                  int column) const override;
};

} // namespace groupscope::ui
