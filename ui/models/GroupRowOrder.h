#pragma once

#include "monitor/GroupSummary.h"

#include <QList>
#include <QSet>
#include <QString>

namespace groupscope::ui {

// The group list's filter and sort as a value: which of GroupListModel's rows are shown, and
// in which order. It reads nothing but the rows it is given, which the model shares with
// the pipeline's view and never changes once made, so GroupFilterProxyModel can work it out
// on a pool thread when the list is long.
//
// The filter keeps rows whose group id or one of whose topics contains `filterText`
// (case-insensitively) and whose state matches `stateFilter`. The sort orders by the typed
// values of `sortColumn` (GroupListModel's keys: numbers as numbers, so a lag of 1,200
// sorts after 900 and a time lag of 10 min after 9 min); equal values keep the rows' own
// order, by group id, in either direction.
struct GroupRowOrder {
    // The state filter's choices; rebalancing covers both rebalance phases.
    enum class StateFilter { All, Stable, Empty, Rebalancing, Dead };

    QString filterText; // trimmed
    StateFilter stateFilter = StateFilter::All;
    int sortColumn = -1; // -1: the rows' own order (by group id)
    Qt::SortOrder sortOrder = Qt::AscendingOrder;

    // The indexes into `rows` of the rows to show, in the order to show them. `watched`:
    // the groups watched for alerts, which the star column sorts by.
    QList<int> shownRows(const QList<monitor::GroupSummary>& rows,
                         const QSet<QString>& watched) const;
    // Whether the rows shown, or their order, can change when only the rows' values do
    // (their group ids staying): false for every group in the rows' own order or by id.
    bool dependsOnValues() const;

private:
    bool accepts(const monitor::GroupSummary& row) const;
    void sortByText(const QList<monitor::GroupSummary>& rows, QList<int>& shown) const;
    void sortByNumber(const QList<monitor::GroupSummary>& rows, const QSet<QString>& watched,
                      QList<int>& shown) const;
};

} // namespace groupscope::ui
