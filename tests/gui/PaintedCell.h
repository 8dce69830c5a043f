#pragma once
// A delegate's painting of a model's first cell, into a white image of the cell's size: what
// the delegate tests compare pixel by pixel.

#include <QFont>
#include <QImage>
#include <QPainter>
#include <QStyleOptionViewItem>
#include <QStyledItemDelegate>
#include <QTableView>

namespace groupscope::test {

inline QImage paintedCell(const QStyledItemDelegate& delegate, const QTableView& view, QSize cell,
                          const QFont& font) {
    QImage image(cell, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    QStyleOptionViewItem option;
    option.initFrom(&view);
    option.widget = &view;
    option.rect = QRect(QPoint(0, 0), cell);
    option.font = font;
    delegate.paint(&painter, option, view.model()->index(0, 0));
    return image;
}

} // namespace groupscope::test
