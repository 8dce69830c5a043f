#include "widgets/PlaceholderTableView.h"

#include <QHeaderView>
#include <QPainter>

namespace groupscope::ui {

void PlaceholderTableView::setPlaceholderText(const QString& text) {
    if (text == m_placeholderText)
        return;
    m_placeholderText = text;
    viewport()->update();
}

void PlaceholderTableView::paintEvent(QPaintEvent* event) {
    QTableView::paintEvent(event);
    if (m_placeholderText.isEmpty() || (model() && model()->rowCount(rootIndex()) > 0))
        return;
    QPainter painter(viewport());
    QColor colour = palette().color(QPalette::PlaceholderText);
    painter.setPen(colour);
    const QRect area = viewport()->rect().adjusted(24, 24, -24, -24);
    painter.drawText(area, Qt::AlignCenter | Qt::TextWordWrap, m_placeholderText);
}

void PlaceholderTableView::setUpAsRowList(SelectionMode mode) {
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(mode);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setAlternatingRowColors(true);
    setShowGrid(false);
    setWordWrap(false);
    verticalHeader()->hide();
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 12);
    horizontalHeader()->setHighlightSections(false);
}

} // namespace groupscope::ui
