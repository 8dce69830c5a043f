#include "widgets/AlertPanel.h"

#include "models/AlertListModel.h"
#include "widgets/TableCopy.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace groupscope::ui {

AlertPanel::AlertPanel(AlertListModel* model, QWidget* parent)
    : QDockWidget(tr("Alerts"), parent)
    , m_model(model)
    , m_view(new QTableView(this))
    , m_footer(new QLabel(this)) {
    setObjectName(QStringLiteral("alertPanel"));
    m_view->setObjectName(QStringLiteral("alertTable"));
    m_view->setModel(model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->setShowGrid(false);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->resizeSection(AlertListModel::TimeColumn, 70);
    m_view->horizontalHeader()->resizeSection(AlertListModel::GroupColumn, 160);
    m_view->horizontalHeader()->resizeSection(AlertListModel::KindColumn, 130);
    m_view->horizontalHeader()->resizeSection(AlertListModel::ChangeColumn, 190);
    enableCopyAsTsv(m_view);
    // Enter and double-click both "activate" a row.
    connect(m_view, &QAbstractItemView::activated, this, [this](const QModelIndex& index) {
        emit groupActivated(index.data(AlertListModel::GroupIdRole).toString());
    });

    auto* clear = new QPushButton(tr("C&lear"), this);
    clear->setObjectName(QStringLiteral("clearAlerts"));
    connect(clear, &QPushButton::clicked, model, &AlertListModel::clear);
    auto* footerRow = new QHBoxLayout;
    footerRow->addWidget(m_footer, 1);
    footerRow->addWidget(clear);
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_view);
    layout->addLayout(footerRow);
    setWidget(content);
    m_footer->setWordWrap(true);
    updateFooter();
}

void AlertPanel::setNotifierDescription(const QString& description) {
    m_notifier = description;
    updateFooter();
}

void AlertPanel::setWatchedCount(int groups) {
    m_watched = groups;
    updateFooter();
}

void AlertPanel::updateFooter() {
    const QString watched =
        m_watched == 0 ? tr("No group is watched: mark one with ★ in the group list (Ctrl+D).")
                       : tr("%n group(s) watched", nullptr, m_watched);
    m_footer->setText(
        m_notifier.isEmpty() ? watched : tr("%1 · alerts also go to %2").arg(watched, m_notifier));
}

} // namespace groupscope::ui
