#pragma once

#include "models/KeyedTableModel.h"
#include "snapshot/GroupSnapshot.h"

#include <QSet>

#include <optional>

namespace groupscope::ui {

// What one row of the group list shows, reduced from a GroupSnapshot so that comparing
// two refreshes compares exactly what is on screen.
struct GroupListRow {
    QString groupId;
    kafka::GroupState state = kafka::GroupState::Unknown;
    kafka::GroupType type = kafka::GroupType::Unknown;
    int memberCount = 0;
    QStringList topics;
    QString protocolType;
    QString assignor;
    std::optional<int64_t> totalLag; // empty when no partition has a commit
    int withoutCommit = 0;           // partitions not counted in totalLag
    lag::TimeLag timeLag;
    QString timeLagText; // formatted once per refresh: the diff and the view both need it
    lag::GroupStatus health = lag::GroupStatus::NotFound;
    QString healthReason;
    lag::RebalanceHealth rebalance; // in the health tooltip
    QList<qint64> lagTrend;
    QString error;

    static GroupListRow from(const monitor::GroupSnapshot& group);
};

// One row per consumer group of the latest ClusterSnapshot. applySnapshot() updates the
// rows as a diff keyed by group id (KeyedTableModel): changed cells get dataChanged, new
// and vanished groups are inserted and removed, so views keep their selection, sort order
// and scroll position across refreshes. Rows are kept in group id order; sorting is the
// proxy's job, with lessThan() below: at 10,000 groups a re-sort makes some 140,000
// comparisons per refresh, which must not each build QVariants and fold case.
class GroupListModel : public KeyedTableModel<GroupListRow, QString> {
    Q_OBJECT
public:
    enum Column {
        // ★ for a group watched for alerts, ☆ otherwise (AlertController decides).
        WatchColumn,
        GroupColumn,
        // The rebalance protocol: Classic or Consumer (KIP-848).
        TypeColumn,
        StateColumn,
        MembersColumn,
        TopicsColumn,
        TotalLagColumn,
        // How far behind in time (the worst partition), Burrow's verdict, the recent lag.
        TimeLagColumn,
        HealthColumn,
        LagTrendColumn,
        // The protocol type and assignor ("consumer · range"): tells a cooperative group
        // from an eager one at a glance.
        ProtocolColumn,
        ColumnCount
    };
    enum Role {
        // A value that orders the column: numbers as qlonglong (time lag as double), text as
        // QString.
        SortRole = Qt::UserRole + 1,
        GroupIdRole,
        // kafka::GroupState, as int: lets a delegate draw the state without parsing text.
        StateRole,
        // The group's topic names, as QStringList, for filtering.
        TopicsRole,
        // The recent total lag, oldest first, as QList<qint64>, for the sparkline.
        LagTrendRole,
        // Whether the group is watched for alerts, as bool.
        WatchedRole,
    };

    explicit GroupListModel(QObject* parent = nullptr);

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    void applySnapshot(const monitor::ClusterSnapshot& snapshot);
    // The row of a group, or -1.
    int rowOf(const QString& groupId) const { return rowOfKey(groupId); }
    // Whether row `left` sorts before row `right` by `column`'s values (numbers as numbers,
    // text case-insensitively), ties broken by group id.
    bool lessThan(int left, int right, int column) const;
    // The groups watched for alerts: their star column shows ★.
    void setWatchedGroups(const QSet<QString>& groups);

protected:
    const QString& keyOf(const GroupListRow& row) const override { return row.groupId; }
    bool sameCell(const GroupListRow& shown, const GroupListRow& fresh, int column) const override;
    ChangedCellBlocks::Precision cellSignalPrecision() const override {
        return ChangedCellBlocks::Precision::ReadOnly;
    }

private:
    using Row = GroupListRow;

    static QString protocolText(const Row& row);
    QVariant displayValue(const Row& row, int column) const;
    QVariant sortValue(const Row& row, int column) const;
    QString toolTip(const Row& row, int column) const;

    QSet<QString> m_watched;
};

} // namespace groupscope::ui
