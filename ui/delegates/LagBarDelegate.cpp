#include "delegates/LagBarDelegate.h"

#include <QPainter>

namespace groupscope::ui {

LagBarDelegate::LagBarDelegate(int lagRole, int maxLagRole, QObject* parent)
    : TextCellDelegate(parent)
    , m_lagRole(lagRole)
    , m_maxLagRole(maxLagRole) {}

void LagBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                           const QModelIndex& index) const {
    QStyleOptionViewItem cell = option;
    withText(cell, index);
    paintFrame(painter, cell);
    const qlonglong lag = index.data(m_lagRole).toLongLong();
    const qlonglong maxLag = index.data(m_maxLagRole).toLongLong();
    const QRect area = option.rect.adjusted(3, 4, -3, -4);
    if (lag > 0 && maxLag > 0) {
        const int width = std::max(2, int(double(area.width()) * double(lag) / double(maxLag)));
        // The palette's highlight, faded: readable in light and dark themes alike.
        QColor bar = option.palette.color(QPalette::Highlight);
        bar.setAlphaF(0.35f);
        painter->fillRect(QRect(area.left(), area.top(), width, area.height()), bar);
    }
    cell.rect = area;
    cell.displayAlignment = Qt::AlignRight | Qt::AlignVCenter;
    paintText(painter, cell);
}

} // namespace groupscope::ui
