#pragma once

#include "snapshot/GroupSnapshot.h"

#include <QAbstractTableModel>
#include <QSet>

#include <optional>

namespace groupscope::ui {

// One row per consumer group of the latest ClusterSnapshot. applySnapshot() updates the
// rows as a diff keyed by group id: changed cells get dataChanged, new and vanished groups
// are inserted and removed, so views keep their selection, sort order and scroll position
// across refreshes. Rows are kept in group id order; sorting is the proxy's job.
class GroupListModel : public QAbstractTableModel {
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

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    void applySnapshot(const monitor::ClusterSnapshot& snapshot);
    // The row of a group, or -1.
    int rowOf(const QString& groupId) const;
    // The groups watched for alerts: their star column shows ★.
    void setWatchedGroups(const QSet<QString>& groups);

private:
    // What one row shows, reduced from a GroupSnapshot so that comparing two refreshes
    // compares exactly what is on screen.
    struct Row {
        QString groupId;
        kafka::GroupState state = kafka::GroupState::Unknown;
        kafka::GroupType type = kafka::GroupType::Unknown;
        int memberCount = 0;
        QStringList topics;
        QString protocolType;
        QString assignor;
        std::optional<int64_t> totalLag; // empty when no partition has a commit
        lag::TimeLag timeLag;
        lag::GroupStatus health = lag::GroupStatus::NotFound;
        QString healthReason;
        lag::RebalanceHealth rebalance; // in the health tooltip
        QList<qint64> lagTrend;
        QString error;

        static Row from(const monitor::GroupSnapshot& group);
        bool sameCell(const Row& other, int column) const;
    };

    static QString protocolText(const Row& row);
    void updateRow(int row, const Row& fresh);
    QVariant displayValue(const Row& row, int column) const;
    QVariant sortValue(const Row& row, int column) const;
    QString toolTip(const Row& row, int column) const;

    QList<Row> m_rows;
    QSet<QString> m_watched;
};

} // namespace groupscope::ui
