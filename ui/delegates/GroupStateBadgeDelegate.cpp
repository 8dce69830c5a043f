#include "delegates/GroupStateBadgeDelegate.h"

#include "models/GroupListModel.h"

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
    // The cell's selection and focus as the other cells draw them; the badge replaces the
    // text.
    paintFrame(painter, option);
    const auto state = GroupState(index.data(GroupListModel::StateRole).toInt());
    // The state cell carries a tooltip only when the group could not be described.
    const bool failed = !index.data(Qt::ToolTipRole).toString().isEmpty();
    const Colours colours = coloursFor(state, failed);
    const Look look{index.data(Qt::DisplayRole).toString(), colours.background.rgba(),
                    colours.text.rgba(), option.rect.size()};
    painter->drawPixmap(option.rect.topLeft(),
                        badge(look, option.font, painter->device()->devicePixelRatio()));
}

const QPixmap& GroupStateBadgeDelegate::badge(const Look& look, const QFont& font,
                                              qreal pixelRatio) const {
    if (font != m_badgeFont || pixelRatio != m_pixelRatio || m_badges.size() > maxLooks) {
        m_badges.clear();
        m_badgeFont = font;
        m_pixelRatio = pixelRatio;
    }
    if (const auto found = m_badges.constFind(look); found != m_badges.cend())
        return *found;
    QPixmap pixmap(look.cell * pixelRatio);
    pixmap.setDevicePixelRatio(pixelRatio);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    paintBadge(&painter, look, font);
    painter.end();
    return *m_badges.insert(look, pixmap);
}

void GroupStateBadgeDelegate::paintBadge(QPainter* painter, const Look& look, const QFont& font) {
    const QFontMetrics metrics(font);
    const int badgeWidth = metrics.horizontalAdvance(look.text) + 2 * horizontalPadding;
    const int badgeHeight =
        std::min(look.cell.height() - 2 * verticalMargin, metrics.height() + 2 * verticalMargin);
    // Centred as on the cell itself (QRect::center() rounds down).
    const QRect badge(leftMargin, (look.cell.height() - 1) / 2 - badgeHeight / 2 + 1,
                      std::min(badgeWidth, look.cell.width() - 2 * leftMargin), badgeHeight);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    painter->setBrush(QColor::fromRgba(look.background));
    painter->drawRoundedRect(badge, badgeHeight / 2.0, badgeHeight / 2.0);
    painter->setFont(font);
    painter->setPen(QColor::fromRgba(look.foreground));
    painter->drawText(badge, Qt::AlignCenter,
                      metrics.elidedText(look.text, Qt::ElideRight, badge.width() - 4));
}

QSize GroupStateBadgeDelegate::sizeHint(const QStyleOptionViewItem& option,
                                        const QModelIndex& index) const {
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    size.rwidth() += 2 * horizontalPadding + leftMargin;
    return size;
}

} // namespace groupscope::ui
