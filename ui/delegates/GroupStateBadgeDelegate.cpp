#include "delegates/GroupStateBadgeDelegate.h"

#include "models/GroupListModel.h"

#include <QApplication>
#include <QPainter>

namespace groupscope::ui {

using kafka::GroupState;

namespace {

constexpr int horizontalPadding = 8;
constexpr int verticalMargin = 3;
constexpr int leftMargin = 4;

} // namespace

GroupStateBadgeDelegate::Colours GroupStateBadgeDelegate::coloursFor(GroupState state,
                                                                     bool failed) {
    if (failed)
        return {QColor(0xfd, 0xe2, 0xe1), QColor(0xb4, 0x23, 0x18)};
    switch (state) {
    case GroupState::Stable:
        return {QColor(0xdc, 0xf3, 0xe3), QColor(0x1a, 0x73, 0x3a)};
    case GroupState::PreparingRebalance:
    case GroupState::CompletingRebalance:
    case GroupState::Assigning:
    case GroupState::Reconciling:
    case GroupState::NotReady:
        return {QColor(0xfe, 0xf0, 0xc7), QColor(0x8a, 0x52, 0x00)};
    case GroupState::Dead:
        return {QColor(0xfd, 0xe2, 0xe1), QColor(0xb4, 0x23, 0x18)};
    case GroupState::Empty:
    case GroupState::Unknown:
        break;
    }
    return {QColor(0xe8, 0xea, 0xed), QColor(0x4a, 0x50, 0x57)};
}

void GroupStateBadgeDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                    const QModelIndex& index) const {
    // The cell background (selection, hover, alternating rows) as the style draws it, but
    // without text: the badge replaces it.
    QStyleOptionViewItem cell = option;
    initStyleOption(&cell, index);
    const QString text = cell.text;
    cell.text.clear();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &cell, painter, widget);

    const auto state = GroupState(index.data(GroupListModel::StateRole).toInt());
    // The state cell carries a tooltip only when the group could not be described.
    const bool failed = !index.data(Qt::ToolTipRole).toString().isEmpty();
    const Colours colours = coloursFor(state, failed);

    const QFontMetrics metrics(option.font);
    const int badgeWidth = metrics.horizontalAdvance(text) + 2 * horizontalPadding;
    const int badgeHeight =
        std::min(option.rect.height() - 2 * verticalMargin, metrics.height() + 2 * verticalMargin);
    const QRect badge(option.rect.left() + leftMargin,
                      option.rect.center().y() - badgeHeight / 2 + 1,
                      std::min(badgeWidth, option.rect.width() - 2 * leftMargin), badgeHeight);

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    painter->setBrush(colours.background);
    painter->drawRoundedRect(badge, badgeHeight / 2.0, badgeHeight / 2.0);
    painter->setPen(colours.text);
    painter->drawText(badge, Qt::AlignCenter,
                      metrics.elidedText(text, Qt::ElideRight, badge.width() - 4));
    painter->restore();
}

QSize GroupStateBadgeDelegate::sizeHint(const QStyleOptionViewItem& option,
                                        const QModelIndex& index) const {
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    size.rwidth() += 2 * horizontalPadding + leftMargin;
    return size;
}

} // namespace groupscope::ui
