#include "widgets/TopicsView.h"

#include "delegates/TextCellDelegate.h"
#include "models/TopicConsumerModel.h"
#include "widgets/PlaceholderTableView.h"
#include "widgets/TableCopy.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QVBoxLayout>

namespace groupscope::ui {

TopicsView::TopicsView(QWidget* parent)
    : QWidget(parent)
    , m_model(new TopicConsumerModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new PlaceholderTableView(this))
    , m_filterEdit(new QLineEdit(this)) {
    // The rows stay in (topic, group) order, the topic's groups together; filtering needs
    // no re-check on every refresh (names do not change), so nothing is dynamic.
    m_proxy->setSourceModel(m_model);
    m_proxy->setDynamicSortFilter(false);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_filterEdit->setObjectName(QStringLiteral("topicFilterEdit"));
    m_filterEdit->setPlaceholderText(tr("Filter by topic or group"));
    m_filterEdit->setClearButtonEnabled(true);
    connect(m_filterEdit, &QLineEdit::textChanged, this, [this](const QString& text) {
        // Topic or group: the two name columns, as one alternative.
        const QString escaped = QRegularExpression::escape(text.trimmed());
        m_proxy->setFilterKeyColumn(-1);
        m_proxy->setFilterRegularExpression(
            QRegularExpression(escaped, QRegularExpression::CaseInsensitiveOption));
        updatePlaceholder();
    });

    m_view->setObjectName(QStringLiteral("topicTable"));
    m_view->setAccessibleName(tr("Topics tab"));
    m_view->setModel(m_proxy);
    m_view->setItemDelegate(new TextCellDelegate(m_view));
    m_view->setUpAsRowList(QAbstractItemView::SingleSelection);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->resizeSection(TopicConsumerModel::TopicColumn, 220);
    m_view->horizontalHeader()->resizeSection(TopicConsumerModel::GroupColumn, 220);
    enableCopyAsTsv(m_view);
    connect(m_view, &QAbstractItemView::activated, this, [this](const QModelIndex& index) {
        emit groupActivated(index.data(TopicConsumerModel::GroupIdRole).toString());
    });
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &TopicsView::updatePlaceholder);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &TopicsView::updatePlaceholder);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_filterEdit);
    layout->addWidget(m_view);
    updatePlaceholder();
}

void TopicsView::applyConsumers(const QList<monitor::TopicConsumer>& rows) {
    m_latest = rows;
    m_behind = true;
    if (isVisible())
        catchUp();
}

void TopicsView::showEvent(QShowEvent* event) {
    catchUp();
    QWidget::showEvent(event);
}

void TopicsView::catchUp() {
    if (!m_behind)
        return;
    m_behind = false;
    m_model->applyConsumers(m_latest);
    updatePlaceholder();
}

void TopicsView::updatePlaceholder() {
    if (m_model->rowCount() == 0)
        m_view->setPlaceholderText(tr("No group commits on any topic yet."));
    else if (m_proxy->rowCount() == 0)
        m_view->setPlaceholderText(
            tr("No topic or group matches “%1”.").arg(m_filterEdit->text().trimmed()));
    else
        m_view->setPlaceholderText({});
}

} // namespace groupscope::ui
