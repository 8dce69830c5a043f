#pragma once

#include "models/GroupRowOrder.h"
#include "monitor/ThreadMailbox.h"

#include <QAbstractProxyModel>
#include <QList>
#include <QPersistentModelIndex>

#include <algorithm>
#include <future>
#include <optional>

namespace groupscope::ui {

class GroupListModel;

// Filters and sorts GroupListModel rows as a GroupRowOrder says (a text that matches the
// group id or one of its topics, a state, a column to sort by). Its only source model is a
// GroupListModel.
//
// Not a QSortFilterProxyModel: at 10,000 groups whose lag moves on every refresh, that
// proxy's dynamic sort handles the refresh's dataChanged by taking every changed row out
// of its mapping and inserting it back, some 40 ms per refresh on the GUI thread. This one
// forwards dataChanged at once and re-filters and re-sorts once per refresh, when the
// model says it is done (GroupListModel::refreshed); an order that did not change costs
// one pass to check, a new one a single layoutChanged that keeps the selection on its
// groups. A list of backgroundSortRows or more is re-sorted after a refresh on a thread of
// BackgroundSortPool (17.5 ms of a refresh at 100,000 groups was this sort), at a lower
// priority than the GUI thread: the refreshed values show with the new order when the sort
// is done, in one repaint (or in the last order, when it stays). What the user changes
// (filter, sort column) and structural changes of the source are applied at once, on the
// GUI thread.
class GroupFilterProxyModel : public QAbstractProxyModel {
    Q_OBJECT
public:
    explicit GroupFilterProxyModel(QObject* parent = nullptr);
    // Waits for a sort still running on a pool thread (milliseconds), which posts here.
    ~GroupFilterProxyModel() override;

    using StateFilter = GroupRowOrder::StateFilter;
    // From this many rows a refresh's re-sort runs on a pool thread; below, it takes under
    // 4 ms and the new order shows with the new values.
    static constexpr qsizetype backgroundSortRows = 20'000;

    QString filterText() const { return m_order.filterText; }
    void setFilterText(const QString& text);
    StateFilter stateFilter() const { return m_order.stateFilter; }
    void setStateFilter(StateFilter filter);

    // Must be a GroupListModel.
    void setSourceModel(QAbstractItemModel* source) override;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    QModelIndex mapToSource(const QModelIndex& proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex& sourceIndex) const override;
    // -1 for the source's order (by group id).
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    int sortColumn() const { return m_order.sortColumn; }
    Qt::SortOrder sortOrder() const { return m_order.sortOrder; }

private:
    // The source rows to show, filtered and sorted, worked out here and now.
    QList<int> shownRows() const;
    // Shows `rows` in place of the current ones as one layout change.
    void relayout(QList<int> rows);
    // Re-filters and re-sorts at once; signals only if what is shown changed. Any sort still
    // running on a pool thread is then out of date.
    void refilterAndResort();
    // After a refresh of the source: at once for a short list, on a pool thread for a long one.
    void resortAfterRefresh();
    // Whether the source is long enough that a refresh is re-sorted on a pool thread.
    bool resortsRefreshInBackground() const;
    void startBackgroundSort();
    void takeBackgroundSort();
    void rebuildRowOfSource();

    // Changed cells, as proxy rows and columns (inclusive).
    struct ChangedBlock {
        int firstRow;
        int lastRow;
        int firstColumn;
        int lastColumn;
        ChangedBlock around(const ChangedBlock& other) const {
            return {std::min(firstRow, other.firstRow), std::max(lastRow, other.lastRow),
                    std::min(firstColumn, other.firstColumn),
                    std::max(lastColumn, other.lastColumn)};
        }
    };
    void forwardDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight,
                            const QList<int>& roles);
    void emitDataChanged(const ChangedBlock& block, const QList<int>& roles);
    // Emits the cells a long list's refresh changed, held for its re-sort, if any.
    void emitHeldChange();
    // Structural changes of the source: held as a layout change of ours (selection kept).
    void beginSourceChange();
    void endSourceChange();

    const GroupListModel* groups() const;

    GroupRowOrder m_order;
    QList<int> m_shown;       // proxy row -> source row
    QList<int> m_rowOfSource; // source row -> proxy row, or -1 when filtered out
    // Bumped whenever m_shown is worked out anew here, or the source's rows change in
    // number: a pool thread's sort started before is then not applied.
    quint64 m_shownGeneration = 0;
    // The rows a sort on another thread worked out, and m_shownGeneration when it began.
    struct BackgroundSort {
        quint64 generation = 0;
        QList<int> rows;
    };
    monitor::ThreadMailbox<BackgroundSort> m_sorted;
    std::future<void> m_backgroundSort; // valid from the start of one until it is taken
    bool m_backgroundSortAgain = false; // a refresh came while one ran
    // A long list's changed cells since its last re-sort was taken (proxy rows).
    std::optional<ChangedBlock> m_heldChange;
    // Across a structural change of the source: our persistent indexes and the source
    // cells they stood on.
    QModelIndexList m_heldProxy;
    QList<QPersistentModelIndex> m_heldSource;
};

} // namespace groupscope::ui
