#pragma once

#include "models/KeyedTableModel.h"
#include "monitor/ClusterView.h"
#include "monitor/GroupSummary.h"

#include <QSet>

#include <optional>

namespace groupscope::ui {

// One row per group of the latest ClusterView: its GroupSummary list, made on the
// pipeline's thread. applySummaries() updates the rows as a diff keyed by group id
// (KeyedTableModel): changed cells get dataChanged, new and vanished groups are inserted
// and removed, so views keep their selection, sort order and scroll position across
// refreshes. The rows are the view's own summaries, shared, never copied. Rows are kept in
// group id order; sorting is the proxy's job, with the keys below: at 10,000 groups a
// re-sort makes some 140,000 comparisons per refresh, which must not each build QVariants.
class GroupListModel : public KeyedTableModel<monitor::GroupSummary, QString> {
    Q_OBJECT
public:
    using Row = monitor::GroupSummary;

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
        // The recent total lag, oldest first, as monitor::LagSparkline, for the sparkline.
        LagTrendRole,
        // Whether the group is watched for alerts, as bool.
        WatchedRole,
    };

    explicit GroupListModel(QObject* parent = nullptr);

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // The summaries of a ClusterView (ClusterView::groupList), sorted by group id.
    void applySummaries(const QList<monitor::GroupSummary>& summaries);
    // The row of a group, or -1.
    int rowOf(const QString& groupId) const { return rowOfKey(groupId); }
    // How `left` orders against `right` by a column that does not order by number (group,
    // type, protocol: text, case-insensitively): negative, 0 or positive. Ties are the
    // caller's to break.
    static int compareText(const Row& left, const Row& right, int column);
    // What a column that orders by number (every column but group, type and protocol)
    // orders by, as one integer: integer columns as they are, every digit kept; the time
    // lag's seconds, a double, as an integer of the same order; the star column by
    // `watched`. The proxy sorts on these keys read once per row rather than on rows
    // compared 140,000 times. Static, from the row alone: the proxy may sort a long list on
    // a pool thread (GroupRowOrder).
    static bool ordersByNumber(int column);
    static qint64 numberKey(const Row& row, int column, bool watched);
    // The groups watched for alerts: their star column shows ★.
    void setWatchedGroups(const QSet<QString>& groups);
    const QSet<QString>& watchedGroups() const { return m_watched; }

signals:
    // A refresh (or a change of the watched groups) is complete: every row and cell it
    // changed has been signalled. The sorting proxy re-sorts once, here.
    void refreshed();

protected:
    const QString& keyOf(const Row& row) const override { return row.groupId; }
    bool sameCell(const Row& shown, const Row& fresh, int column) const override;
    ChangedCellBlocks::Precision cellSignalPrecision() const override {
        return ChangedCellBlocks::Precision::ReadOnly;
    }

private:
    static QString protocolText(const Row& row);
    QVariant displayValue(const Row& row, int column) const;
    QVariant sortValue(const Row& row, int column) const;
    // The columns that sort by integers (all but group, type, protocol and time lag).
    static qlonglong integerSortKey(const Row& row, int column, bool watched);
    QString toolTip(const Row& row, int column) const;

    QSet<QString> m_watched;
};

} // namespace groupscope::ui
