#include "widgets/GroupBrowser.h"

#include "delegates/GroupStateBadgeDelegate.h"
#include "delegates/LagSparklineDelegate.h"
#include "delegates/TextCellDelegate.h"
#include "models/GroupListModel.h"
#include "widgets/PlaceholderTableView.h"
#include "widgets/TableCopy.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace groupscope::ui {

GroupBrowser::GroupBrowser(QWidget* parent)
    : QWidget(parent)
    , m_model(new GroupListModel(this))
    , m_proxy(new GroupFilterProxyModel(this))
    , m_view(new PlaceholderTableView(this))
    , m_filterEdit(new QLineEdit(this))
    , m_stateFilter(new QComboBox(this)) {
    m_proxy->setSourceModel(m_model);
    setUpFilters();
    setUpTable();
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(m_filterEdit, 1);
    filterRow->addWidget(m_stateFilter);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 0);
    layout->addLayout(filterRow);
    layout->addWidget(m_view);
}

void GroupBrowser::setUpFilters() {
    m_filterEdit->setObjectName(QStringLiteral("groupFilterEdit"));
    m_filterEdit->setPlaceholderText(tr("Filter by group or topic (Ctrl+F)"));
    m_filterEdit->setClearButtonEnabled(true);
    connect(m_filterEdit, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterText(text);
        updatePlaceholder();
    });
    m_stateFilter->setObjectName(QStringLiteral("stateFilterCombo"));
    m_stateFilter->addItem(tr("All states"), int(GroupFilterProxyModel::StateFilter::All));
    m_stateFilter->addItem(tr("Stable"), int(GroupFilterProxyModel::StateFilter::Stable));
    m_stateFilter->addItem(tr("Empty"), int(GroupFilterProxyModel::StateFilter::Empty));
    m_stateFilter->addItem(tr("Rebalancing"), int(GroupFilterProxyModel::StateFilter::Rebalancing));
    m_stateFilter->addItem(tr("Dead"), int(GroupFilterProxyModel::StateFilter::Dead));
    connect(m_stateFilter, &QComboBox::currentIndexChanged, this, [this] {
        m_proxy->setStateFilter(
            GroupFilterProxyModel::StateFilter(m_stateFilter->currentData().toInt()));
        updatePlaceholder();
    });
}

void GroupBrowser::setUpTable() {
    m_view->setObjectName(QStringLiteral("groupTable"));
    m_view->setAccessibleName(tr("Group list"));
    m_view->setModel(m_proxy);
    // Text cells, the health verdict's coloured one included, are painted straight
    // (TextCellDelegate): at 10,000 groups most visible cells change on every refresh.
    m_view->setItemDelegate(new TextCellDelegate(m_view));
    m_view->setItemDelegateForColumn(GroupListModel::StateColumn,
                                     new GroupStateBadgeDelegate(m_view));
    m_view->setItemDelegateForColumn(
        GroupListModel::LagTrendColumn,
        new LagSparklineDelegate(GroupListModel::LagTrendRole, m_view));
    m_view->setUpAsRowList(QAbstractItemView::ExtendedSelection);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(GroupListModel::GroupColumn, Qt::AscendingOrder);
    QHeaderView* header = m_view->horizontalHeader();
    header->setSectionResizeMode(GroupListModel::GroupColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(GroupListModel::WatchColumn, QHeaderView::Fixed);
    header->resizeSection(GroupListModel::WatchColumn, m_view->fontMetrics().height() + 14);
    header->resizeSection(GroupListModel::StateColumn, 150);
    header->resizeSection(GroupListModel::TypeColumn, 90);
    header->resizeSection(GroupListModel::MembersColumn, 90);
    header->resizeSection(GroupListModel::TopicsColumn, 80);
    header->resizeSection(GroupListModel::TotalLagColumn, 120);
    header->resizeSection(GroupListModel::TimeLagColumn, 100);
    header->resizeSection(GroupListModel::HealthColumn, 80);
    header->resizeSection(GroupListModel::LagTrendColumn, 130);
    header->resizeSection(GroupListModel::ProtocolColumn, 200);
    enableCopyAsTsv(m_view);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &GroupBrowser::updatePlaceholder);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &GroupBrowser::updatePlaceholder);
    // Enter and double-click both "activate" a row in Qt's views.
    connect(m_view, &QAbstractItemView::activated, this, [this](const QModelIndex& index) {
        emit groupActivated(index.data(GroupListModel::GroupIdRole).toString());
    });
}

QStringList GroupBrowser::selectedGroups() const {
    QStringList groups;
    for (const QModelIndex& index : m_view->selectionModel()->selectedRows())
        groups.append(index.data(GroupListModel::GroupIdRole).toString());
    if (groups.isEmpty() && m_view->currentIndex().isValid())
        groups.append(currentGroup());
    return groups;
}

QString GroupBrowser::currentGroup() const {
    return m_view->currentIndex().data(GroupListModel::GroupIdRole).toString();
}

void GroupBrowser::selectGroup(const QString& groupId) {
    const int row = m_model->rowOf(groupId);
    if (row < 0)
        return;
    const QModelIndex shown = m_proxy->mapFromSource(m_model->index(row, 0));
    if (shown.isValid() && m_view->currentIndex().row() != shown.row())
        m_view->selectionModel()->setCurrentIndex(shown, QItemSelectionModel::ClearAndSelect |
                                                             QItemSelectionModel::Rows);
}

void GroupBrowser::focusFilter() {
    m_filterEdit->setFocus(Qt::ShortcutFocusReason);
    m_filterEdit->selectAll();
}

void GroupBrowser::setUnavailableText(const QString& text) {
    m_unavailableText = text;
    updatePlaceholder();
}

void GroupBrowser::updatePlaceholder() {
    if (!m_unavailableText.isEmpty())
        m_view->setPlaceholderText(m_unavailableText);
    else if (m_model->rowCount() == 0)
        m_view->setPlaceholderText(tr("No consumer groups on this cluster yet.\nA group appears "
                                      "here once a consumer joins it or commits offsets."));
    else if (m_proxy->filterText().isEmpty())
        m_view->setPlaceholderText(
            tr("No group is in state “%1”.").arg(m_stateFilter->currentText()));
    else
        m_view->setPlaceholderText(
            tr("No group or topic matches “%1”.").arg(m_proxy->filterText()));
}

} // namespace groupscope::ui
