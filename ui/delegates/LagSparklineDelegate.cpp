#include "delegates/LagSparklineDelegate.h"

#include "snapshot/LagSparkline.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace groupscope::ui {

LagSparklineDelegate::LagSparklineDelegate(int trendRole, QObject* parent)
    : QStyledItemDelegate(parent)
    , m_trendRole(trendRole) {}

void LagSparklineDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                 const QModelIndex& index) const {
    QStyleOptionViewItem cell = option;
    initStyleOption(&cell, index);
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &cell, painter, widget);

    const auto trend = index.data(m_trendRole).value<monitor::LagSparkline>();
    if (trend.size() < 2)
        return;
    const QRectF area = QRectF(option.rect).adjusted(4, 5, -7, -5);
    const auto [lowest, highest] = std::minmax_element(trend.cbegin(), trend.cend());
    // A flat line sits at the bottom when it is zero, in the middle otherwise.
    const double low = std::min<double>(*lowest, 0);
    const double span = std::max<double>(double(*highest) - low, 1);
    const auto pointAt = [&](qsizetype i) {
        const double x = area.left() + area.width() * double(i) / double(trend.size() - 1);
        const double y = area.bottom() - area.height() * (double(trend.at(i)) - low) / span;
        return QPointF(x, y);
    };
    QPainterPath line(pointAt(0));
    for (qsizetype i = 1; i < trend.size(); ++i)
        line.lineTo(pointAt(i));

    const bool selected = option.state & QStyle::State_Selected;
    // Rising lag is drawn in a warning colour; otherwise the palette's own accent.
    const bool rising = trend.last() > trend.first();
    QColor color = selected ? option.palette.color(QPalette::HighlightedText)
                   : rising ? QColor(0xe0, 0x6c, 0x00)
                            : option.palette.color(QPalette::Highlight);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    QPainterPath fill = line;
    fill.lineTo(area.right(), area.bottom());
    fill.lineTo(area.left(), area.bottom());
    fill.closeSubpath();
    QColor fillColor = color;
    fillColor.setAlphaF(0.18f);
    painter->fillPath(fill, fillColor);
    painter->setPen(QPen(color, 1.4));
    painter->drawPath(line);
    painter->setBrush(color);
    painter->drawEllipse(pointAt(trend.size() - 1), 2.2, 2.2);
    painter->restore();
}

QSize LagSparklineDelegate::sizeHint(const QStyleOptionViewItem& option,
                                     const QModelIndex& index) const {
    return QStyledItemDelegate::sizeHint(option, index).expandedTo(QSize(110, 0));
}

} // namespace groupscope::ui
