#include "models/GroupFilterProxyModel.h"

#include "models/BackgroundSortPool.h"
#include "models/GroupListModel.h"

#include <algorithm>
#include <memory>

namespace groupscope::ui {

GroupFilterProxyModel::GroupFilterProxyModel(QObject* parent)
    : QAbstractProxyModel(parent)
    , m_sorted(this, &GroupFilterProxyModel::takeBackgroundSort) {}

GroupFilterProxyModel::~GroupFilterProxyModel() {
    if (m_backgroundSort.valid())
        m_backgroundSort.wait();
}

const GroupListModel* GroupFilterProxyModel::groups() const {
    return static_cast<const GroupListModel*>(sourceModel());
}

void GroupFilterProxyModel::setSourceModel(QAbstractItemModel* source) {
    Q_ASSERT(!source || qobject_cast<GroupListModel*>(source));
    beginResetModel();
    if (sourceModel())
        disconnect(sourceModel(), nullptr, this, nullptr);
    QAbstractProxyModel::setSourceModel(source);
    ++m_shownGeneration;
    m_shown.clear();
    m_rowOfSource.clear();
    if (auto* model = qobject_cast<GroupListModel*>(source)) {
        connect(model, &QAbstractItemModel::dataChanged, this,
                &GroupFilterProxyModel::forwardDataChanged);
        connect(model, &GroupListModel::refreshed, this,
                &GroupFilterProxyModel::resortAfterRefresh);
        connect(model, &QAbstractItemModel::rowsAboutToBeInserted, this,
                &GroupFilterProxyModel::beginSourceChange);
        connect(model, &QAbstractItemModel::rowsInserted, this,
                &GroupFilterProxyModel::endSourceChange);
        connect(model, &QAbstractItemModel::rowsAboutToBeRemoved, this,
                &GroupFilterProxyModel::beginSourceChange);
        connect(model, &QAbstractItemModel::rowsRemoved, this,
                &GroupFilterProxyModel::endSourceChange);
        connect(model, &QAbstractItemModel::layoutAboutToBeChanged, this,
                &GroupFilterProxyModel::beginSourceChange);
        connect(model, &QAbstractItemModel::layoutChanged, this,
                &GroupFilterProxyModel::endSourceChange);
        connect(model, &QAbstractItemModel::modelAboutToBeReset, this,
                &GroupFilterProxyModel::beginResetModel);
        connect(model, &QAbstractItemModel::modelReset, this, [this] {
            m_heldChange.reset();
            ++m_shownGeneration;
            m_shown = shownRows();
            rebuildRowOfSource();
            endResetModel();
        });
        connect(model, &QAbstractItemModel::headerDataChanged, this,
                &QAbstractItemModel::headerDataChanged);
        m_shown = shownRows();
        rebuildRowOfSource();
    }
    endResetModel();
}

void GroupFilterProxyModel::setFilterText(const QString& text) {
    const QString trimmed = text.trimmed();
    if (trimmed == m_order.filterText)
        return;
    m_order.filterText = trimmed;
    refilterAndResort();
}

void GroupFilterProxyModel::setStateFilter(StateFilter filter) {
    if (filter == m_order.stateFilter)
        return;
    m_order.stateFilter = filter;
    refilterAndResort();
}

void GroupFilterProxyModel::sort(int column, Qt::SortOrder order) {
    if (column == m_order.sortColumn && order == m_order.sortOrder)
        return;
    m_order.sortColumn = column;
    m_order.sortOrder = order;
    refilterAndResort();
}

QModelIndex GroupFilterProxyModel::index(int row, int column, const QModelIndex& parent) const {
    if (parent.isValid() || row < 0 || row >= m_shown.size() || column < 0 ||
        column >= columnCount())
        return {};
    return createIndex(row, column);
}

QModelIndex GroupFilterProxyModel::parent(const QModelIndex& child) const {
    Q_UNUSED(child);
    return {};
}

int GroupFilterProxyModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_shown.size());
}

int GroupFilterProxyModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() || !sourceModel() ? 0 : sourceModel()->columnCount();
}

bool GroupFilterProxyModel::hasChildren(const QModelIndex& parent) const {
    return !parent.isValid() && !m_shown.isEmpty();
}

QModelIndex GroupFilterProxyModel::mapToSource(const QModelIndex& proxyIndex) const {
    if (!proxyIndex.isValid() || !sourceModel() || proxyIndex.row() >= m_shown.size())
        return {};
    return sourceModel()->index(m_shown.at(proxyIndex.row()), proxyIndex.column());
}

QModelIndex GroupFilterProxyModel::mapFromSource(const QModelIndex& sourceIndex) const {
    if (!sourceIndex.isValid() || sourceIndex.row() >= m_rowOfSource.size())
        return {};
    const int row = m_rowOfSource.at(sourceIndex.row());
    return row < 0 ? QModelIndex() : createIndex(row, sourceIndex.column());
}

QList<int> GroupFilterProxyModel::shownRows() const {
    return groups() ? m_order.shownRows(groups()->rows(), groups()->watchedGroups()) : QList<int>();
}

void GroupFilterProxyModel::rebuildRowOfSource() {
    m_rowOfSource.fill(-1, sourceModel() ? sourceModel()->rowCount() : 0);
    for (int row = 0; row < m_shown.size(); ++row)
        m_rowOfSource[m_shown.at(row)] = row;
}

void GroupFilterProxyModel::refilterAndResort() {
    ++m_shownGeneration;
    QList<int> rows = shownRows();
    if (rows != m_shown)
        relayout(std::move(rows));
    else
        emitHeldChange();
}

void GroupFilterProxyModel::resortAfterRefresh() {
    // A change of the source's rows was applied at once (endSourceChange); a refresh of their
    // values alone cannot change an order by group id.
    if (!m_order.dependsOnValues())
        return;
    if (!resortsRefreshInBackground())
        refilterAndResort();
    else if (m_backgroundSort.valid())
        m_backgroundSortAgain = true; // one more when this one is done, not one per refresh
    else
        startBackgroundSort();
}

bool GroupFilterProxyModel::resortsRefreshInBackground() const {
    return groups() && groups()->rowCount() >= backgroundSortRows;
}

void GroupFilterProxyModel::startBackgroundSort() {
    auto done = std::make_shared<std::promise<void>>();
    m_backgroundSort = done->get_future();
    // Copies: the rows are shared with the view they came from, and the model replaces its
    // list on a refresh rather than changing it, so the pool thread reads them safely.
    BackgroundSortPool::start([done, mailbox = &m_sorted, generation = m_shownGeneration,
                               order = m_order, rows = groups()->rows(),
                               watched = groups()->watchedGroups()] {
        mailbox->post({generation, order.shownRows(rows, watched)});
        done->set_value();
    });
}

void GroupFilterProxyModel::takeBackgroundSort() {
    m_backgroundSort.get(); // done: it posted
    for (BackgroundSort& sorted : m_sorted.takeAll()) {
        // Worked out for rows that are still the source's (the same groups, their values
        // maybe a refresh older), unless the user or the source has changed what is shown
        // since.
        if (sorted.generation == m_shownGeneration && sorted.rows != m_shown)
            relayout(std::move(sorted.rows));
    }
    emitHeldChange(); // in the order it was worked out for, when that order stays
    if (std::exchange(m_backgroundSortAgain, false))
        resortAfterRefresh();
}

void GroupFilterProxyModel::relayout(QList<int> rows) {
    m_heldChange.reset(); // a new layout repaints every row
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList held = persistentIndexList();
    QList<int> sourceRows;
    sourceRows.reserve(held.size());
    for (const QModelIndex& index : held)
        sourceRows.append(m_shown.at(index.row()));
    m_shown = std::move(rows);
    rebuildRowOfSource();
    for (qsizetype i = 0; i < held.size(); ++i) {
        const int row = m_rowOfSource.at(sourceRows.at(i));
        changePersistentIndex(held.at(i),
                              row < 0 ? QModelIndex() : createIndex(row, held.at(i).column()));
    }
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void GroupFilterProxyModel::forwardDataChanged(const QModelIndex& topLeft,
                                               const QModelIndex& bottomRight,
                                               const QList<int>& roles) {
    // One block around where the changed rows are shown: the order they are shown in is
    // not the source's, and one repaint of the rows between costs less than many signals.
    int first = int(m_shown.size());
    int last = -1;
    for (int source = topLeft.row(); source <= bottomRight.row(); ++source) {
        const int row = source < m_rowOfSource.size() ? m_rowOfSource.at(source) : -1;
        if (row < 0)
            continue;
        first = std::min(first, row);
        last = std::max(last, row);
    }
    if (last < 0)
        return;
    const ChangedBlock block{first, last, topLeft.column(), bottomRight.column()};
    // A long list is re-sorted on a pool thread once the source's refresh is done (every
    // change of a GroupListModel ends with refreshed()): its cells wait for that sort, so
    // that the view repaints once for the new values and the new order, not once for each
    // (a repaint of the list is some 5 ms at 100,000 groups).
    if (m_order.dependsOnValues() && resortsRefreshInBackground()) {
        m_heldChange = m_heldChange ? m_heldChange->around(block) : block;
        return;
    }
    emitDataChanged(block, roles);
}

void GroupFilterProxyModel::emitDataChanged(const ChangedBlock& block, const QList<int>& roles) {
    emit dataChanged(createIndex(block.firstRow, block.firstColumn),
                     createIndex(block.lastRow, block.lastColumn), roles);
}

void GroupFilterProxyModel::emitHeldChange() {
    if (const std::optional<ChangedBlock> held = std::exchange(m_heldChange, std::nullopt))
        emitDataChanged(*held, {});
}

void GroupFilterProxyModel::beginSourceChange() {
    m_heldChange.reset(); // so does a change of the source's rows
    emit layoutAboutToBeChanged();
    m_heldProxy = persistentIndexList();
    m_heldSource.clear();
    for (const QModelIndex& index : std::as_const(m_heldProxy))
        m_heldSource.append(QPersistentModelIndex(mapToSource(index)));
}

void GroupFilterProxyModel::endSourceChange() {
    ++m_shownGeneration;
    m_shown = shownRows();
    rebuildRowOfSource();
    for (qsizetype i = 0; i < m_heldProxy.size(); ++i)
        changePersistentIndex(m_heldProxy.at(i), mapFromSource(m_heldSource.at(i)));
    m_heldProxy.clear();
    m_heldSource.clear();
    emit layoutChanged();
}

} // namespace groupscope::ui
