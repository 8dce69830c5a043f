#pragma once

#include <QAbstractProxyModel>
#include <QList>
#include <QPersistentModelIndex>

namespace groupscope::ui {

class GroupListModel;

// Filters GroupListModel rows by a text that matches the group id or one of its topics
// (case-insensitively) and by state, and sorts them by their typed values
// (GroupListModel::compare: numbers as numbers, so a lag of 1,200 sorts after 900 and a
// time lag of 10 min after 9 min). Its only source model is a GroupListModel.
//
// Not a QSortFilterProxyModel: at 10,000 groups whose lag moves on every refresh, that
// proxy's dynamic sort handles the refresh's dataChanged by taking every changed row out
// of its mapping and inserting it back, some 40 ms per refresh on the GUI thread. This one
// forwards dataChanged at once and re-filters and re-sorts once per refresh, when the
// model says it is done (GroupListModel::refreshed); an order that did not change costs
// one pass to check, a new one a single layoutChanged that keeps the selection on its
// groups.
class GroupFilterProxyModel : public QAbstractProxyModel {
    Q_OBJECT
public:
    explicit GroupFilterProxyModel(QObject* parent = nullptr);

    // The state filter's choices; rebalancing covers both rebalance phases.
    enum class StateFilter { All, Stable, Empty, Rebalancing, Dead };

    QString filterText() const { return m_filterText; }
    void setFilterText(const QString& text);
    StateFilter stateFilter() const { return m_stateFilter; }
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
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }

private:
    bool accepts(int sourceRow) const;
    bool sortsBefore(int leftSourceRow, int rightSourceRow) const;
    // Puts accepted source rows in the shown order (m_sortColumn, m_sortOrder).
    void sortRows(QList<int>& rows) const;
    void sortRowsByNumber(QList<int>& rows) const;
    // The source rows to show, filtered and sorted.
    QList<int> shownRows() const;
    // Shows `rows` in place of the current ones as one layout change.
    void relayout(QList<int> rows);
    // Re-filters and re-sorts; signals only if what is shown changed.
    void refilterAndResort();
    void rebuildRowOfSource();

    void forwardDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight,
                            const QList<int>& roles);
    // Structural changes of the source: held as a layout change of ours (selection kept).
    void beginSourceChange();
    void endSourceChange();

    const GroupListModel* groups() const;

    QString m_filterText;
    StateFilter m_stateFilter = StateFilter::All;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    QList<int> m_shown;       // proxy row -> source row
    QList<int> m_rowOfSource; // source row -> proxy row, or -1 when filtered out
    // Across a structural change of the source: our persistent indexes and the source
    // cells they stood on.
    QModelIndexList m_heldProxy;
    QList<QPersistentModelIndex> m_heldSource;
};

} // namespace groupscope::ui
