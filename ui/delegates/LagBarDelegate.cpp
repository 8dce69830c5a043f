#include "delegates/LagBarDelegate.h"

#include <QApplication>
#include <QPainter>

namespace groupscope::ui {

LagBarDelegate::LagBarDelegate(int lagRole, int maxLagRole, QObject* parent)
    : QStyledItemDelegate(parent)
    , m_lagRole(lagRole)
    , m_maxLagRole(maxLagRole) {}

void LagBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                           const QModelIndex& index) const {
    QStyleOptionViewItem cell = option;
    initStyleOption(&cell, index);
    const QString text = cell.text;
    cell.text.clear();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &cell, painter, widget);

    const qlonglong lag = index.data(m_lagRole).toLongLong();
    const qlonglong maxLag = index.data(m_maxLagRole).toLongLong();
    const QRect area = option.rect.adjusted(3, 4, -3, -4);
    painter->save();
    if (lag > 0 && maxLag > 0) {
        const int width = std::max(2, int(double(area.width()) * double(lag) / double(maxLag)));
        // The palette's highlight, faded: readable in light and dark themes alike.
        QColor bar = option.palette.color(QPalette::Highlight);
        bar.setAlphaF(0.35f);
        painter->fillRect(QRect(area.left(), area.top(), width, area.height()), bar);
    }
    const bool selected = option.state & QStyle::State_Selected;
    painter->setPen(option.palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
    painter->drawText(area.adjusted(2, 0, -2, 0), Qt::AlignRight | Qt::AlignVCenter, text);
    painter->restore();
}

} // namespace groupscope::ui
