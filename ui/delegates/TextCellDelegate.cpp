#include "delegates/TextCellDelegate.h"

#include <QApplication>
#include <QPainter>
#include <QStaticText>

#include <utility>

namespace groupscope::ui {

namespace {

QStyle* styleOf(const QStyleOptionViewItem& option) {
    return option.widget ? option.widget->style() : QApplication::style();
}

QPalette::ColorGroup colorGroupOf(const QStyleOptionViewItem& option) {
    if (!(option.state & QStyle::State_Enabled))
        return QPalette::Disabled;
    return option.state & QStyle::State_Active ? QPalette::Normal : QPalette::Inactive;
}

} // namespace

void TextCellDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                             const QModelIndex& index) const {
    QStyleOptionViewItem cell = option;
    withText(cell, index);
    paintFrame(painter, cell);
    paintText(painter, cell);
}

void TextCellDelegate::withText(QStyleOptionViewItem& option, const QModelIndex& index) {
    const QVariant alignment = index.data(Qt::TextAlignmentRole);
    option.text = index.data(Qt::DisplayRole).toString();
    option.features |= QStyleOptionViewItem::HasDisplay;
    option.displayAlignment =
        alignment.isValid() ? Qt::Alignment(alignment.toInt()) : Qt::AlignLeft | Qt::AlignVCenter;
    // As QStyledItemDelegate: the colour of unselected text; selected text keeps the
    // palette's highlighted text colour.
    const QVariant foreground = index.data(Qt::ForegroundRole);
    if (foreground.canConvert<QBrush>())
        option.palette.setBrush(QPalette::Text, qvariant_cast<QBrush>(foreground));
}

void TextCellDelegate::paintFrame(QPainter* painter, const QStyleOptionViewItem& option) {
    const QWidget* widget = option.widget;
    QStyle* style = styleOf(option);
    // The style's own item panel: the selection as the other tables draw it. Without a
    // selection or a background it draws nothing, and asking costs a style call per cell.
    if (option.state & QStyle::State_Selected || option.backgroundBrush.style() != Qt::NoBrush)
        style->drawPrimitive(QStyle::PE_PanelItemViewItem, &option, painter, widget);
    if (!(option.state & QStyle::State_HasFocus))
        return;
    QStyleOptionFocusRect focus;
    focus.QStyleOption::operator=(option);
    focus.rect = style->subElementRect(QStyle::SE_ItemViewItemFocusRect, &option, widget);
    focus.state |= QStyle::State_KeyboardFocusChange | QStyle::State_Item;
    focus.backgroundColor = option.palette.color(
        colorGroupOf(option),
        option.state & QStyle::State_Selected ? QPalette::Highlight : QPalette::Window);
    style->drawPrimitive(QStyle::PE_FrameFocusRect, &focus, painter, widget);
}

void TextCellDelegate::paintText(QPainter* painter, const QStyleOptionViewItem& option) const {
    if (option.text.isEmpty())
        return;
    // The margin QCommonStyle leaves around an item's text.
    const int margin =
        styleOf(option)->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, option.widget) + 1;
    const QRect area = option.rect.adjusted(margin, 0, -margin, 0);
    const QStaticText& text = laidOut(option.text, option.font, area.width());
    const QSizeF size = text.size();
    const Qt::Alignment alignment =
        QStyle::visualAlignment(option.direction, option.displayAlignment);
    qreal x = area.left();
    if (alignment & Qt::AlignRight)
        x = area.right() + 1 - size.width();
    else if (alignment & Qt::AlignHCenter)
        x = area.left() + (area.width() - size.width()) / 2;
    const qreal y = area.top() + (area.height() - size.height()) / 2;
    const QPen pen = painter->pen();
    const QFont font = painter->font();
    painter->setFont(option.font);
    painter->setPen(option.palette.color(colorGroupOf(option), option.state & QStyle::State_Selected
                                                                   ? QPalette::HighlightedText
                                                                   : QPalette::Text));
    painter->drawStaticText(QPointF(x, y), text);
    painter->setPen(pen);
    painter->setFont(font);
}

const QStaticText& TextCellDelegate::laidOut(const QString& text, const QFont& font,
                                             int width) const {
    if (font != m_textFont) {
        m_texts.clear();
        m_olderTexts.clear();
        m_textFont = font;
    }
    auto found = m_texts.find(text);
    if (found == m_texts.end()) {
        if (m_texts.size() >= textCacheGeneration) {
            m_olderTexts = std::exchange(m_texts, {});
            m_texts.reserve(textCacheGeneration);
        }
        found = m_texts.insert(text, m_olderTexts.take(text));
    }
    LaidOutText& entry = *found;
    if (entry.width == width)
        return entry.text;
    const QFontMetrics metrics(font);
    entry.width = width;
    entry.text.setText(metrics.horizontalAdvance(text) > width
                           ? metrics.elidedText(text, Qt::ElideRight, width)
                           : text);
    entry.text.setTextFormat(Qt::PlainText);
    entry.text.prepare(QTransform(), font);
    return entry.text;
}

} // namespace groupscope::ui
