#include "widgets/timeline/MemberLegend.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace groupscope::ui {

namespace {

constexpr int kSwatch = 10;
constexpr int kChipGap = 14;
constexpr int kRowGap = 4;
constexpr int kMargin = 4;

} // namespace

MemberLegend::MemberLegend(QWidget* parent)
    : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
}

void MemberLegend::setChips(const QList<Chip>& chips) {
    const bool sameText = chips.size() == m_chips.size() &&
                          std::equal(chips.cbegin(), chips.cend(), m_chips.cbegin(),
                                     [](const Chip& a, const Chip& b) {
                                         return a.text == b.text && a.dimmed == b.dimmed &&
                                                a.colour == b.colour && a.toolTip == b.toolTip;
                                     });
    if (sameText)
        return; // a refresh that changed nothing here repaints and relayouts nothing
    m_chips = chips;
    updateGeometry();
    update();
}

QList<QRect> MemberLegend::layoutChips(int width) const {
    const QFontMetrics metrics(font());
    const int rowHeight = std::max(metrics.height(), kSwatch);
    QList<QRect> rects;
    int x = kMargin;
    int y = kMargin;
    for (const Chip& chip : m_chips) {
        const int chipWidth = kSwatch + 5 + metrics.horizontalAdvance(chip.text);
        if (x > kMargin && x + chipWidth > width - kMargin) {
            x = kMargin;
            y += rowHeight + kRowGap;
        }
        rects.append(QRect(x, y, chipWidth, rowHeight));
        x += chipWidth + kChipGap;
    }
    return rects;
}

int MemberLegend::heightForWidth(int width) const {
    const QList<QRect> rects = layoutChips(width);
    return rects.isEmpty() ? 0 : rects.last().bottom() + 1 + kMargin;
}

QSize MemberLegend::sizeHint() const {
    return {400, heightForWidth(std::max(width(), 400))};
}

QSize MemberLegend::minimumSizeHint() const {
    return {100, heightForWidth(std::max(width(), 100))};
}

int MemberLegend::chipAt(const QPoint& position) const {
    const QList<QRect> rects = layoutChips(width());
    for (qsizetype i = 0; i < rects.size(); ++i)
        if (rects[i].adjusted(-2, -2, 2, 2).contains(position))
            return int(i);
    return -1;
}

bool MemberLegend::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const int index = chipAt(help->pos());
        if (index >= 0 && !m_chips[index].toolTip.isEmpty())
            QToolTip::showText(help->globalPos(), m_chips[index].toolTip, this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void MemberLegend::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QList<QRect> rects = layoutChips(width());
    const QColor text = palette().color(QPalette::WindowText);
    QColor dimmedText = text;
    dimmedText.setAlphaF(0.55f);
    for (qsizetype i = 0; i < rects.size(); ++i) {
        const Chip& chip = m_chips[i];
        const QRect& rect = rects[i];
        const QRectF swatch(rect.left() + 0.5, rect.center().y() - kSwatch / 2.0 + 0.5, kSwatch - 1,
                            kSwatch - 1);
        QColor fill = chip.colour;
        if (chip.dimmed)
            fill.setAlphaF(0.55f);
        painter.setPen(QPen(chip.hatched ? chip.colour : fill.darker(115), 1,
                            chip.hatched ? Qt::DotLine : Qt::SolidLine));
        painter.setBrush(chip.hatched ? QBrush(chip.colour, Qt::BDiagPattern) : QBrush(fill));
        painter.drawRoundedRect(swatch, 2, 2);
        QFont chipFont = font();
        chipFont.setUnderline(!chip.memberId.isEmpty() && chip.memberId == m_hoveredMember);
        painter.setFont(chipFont);
        painter.setPen(chip.dimmed ? dimmedText : text);
        painter.drawText(rect.adjusted(kSwatch + 5, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                         chip.text);
    }
}

void MemberLegend::mouseMoveEvent(QMouseEvent* event) {
    const int index = chipAt(event->position().toPoint());
    const QString member = index >= 0 ? m_chips[index].memberId : QString();
    if (member == m_hoveredMember)
        return;
    m_hoveredMember = member;
    update();
    emit memberHovered(member);
}

void MemberLegend::leaveEvent(QEvent*) {
    if (m_hoveredMember.isEmpty())
        return;
    m_hoveredMember.clear();
    update();
    emit memberHovered(QString());
}

} // namespace groupscope::ui
