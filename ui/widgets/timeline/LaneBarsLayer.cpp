#include "widgets/timeline/LaneBarsLayer.h"

#include "widgets/timeline/MemberDirectory.h"
#include "widgets/timeline/TimelineScene.h"
#include "widgets/timeline/TimelineTheme.h"

#include <algorithm>
#include <cmath>

namespace groupscope::ui {

namespace {

QColor faded(const QColor& colour, const QColor& background) {
    constexpr double kKeep = 0.25;
    return QColor::fromRgbF(float(colour.redF() * kKeep + background.redF() * (1 - kKeep)),
                            float(colour.greenF() * kKeep + background.greenF() * (1 - kKeep)),
                            float(colour.blueF() * kKeep + background.blueF() * (1 - kKeep)));
}

} // namespace

QList<LaneBarsLayer::VisibleBar> LaneBarsLayer::visibleBars(double barHeight) const {
    const QRect area = axisRect()->rect();
    const int64_t viewStart = visibleStartMs();
    const int64_t viewEnd = visibleEndMs();
    const auto [first, last] = visibleLanes();
    QList<VisibleBar> bars;
    for (int laneIndex = first; laneIndex <= last; ++laneIndex) {
        const double top = pixelY(laneIndex) - barHeight / 2;
        for (const TimelineScene::Bar& bar : context().scene->lanes()[laneIndex].bars) {
            if (bar.endMs < viewStart || bar.startMs > viewEnd)
                continue;
            // Clamp to just outside the view: huge off-screen rectangles draw slowly.
            const double left = std::max(area.left() - 8.0, pixelX(bar.startMs));
            const double right = std::min(area.right() + 8.0, pixelX(bar.endMs));
            // One pixel of air between bars keeps every generation's edge visible.
            const QRectF rect(left + 1.0, top + 0.5, std::max(1.0, right - left - 2.0),
                              barHeight - 1.0);
            const double revokingFromX = bar.revokingFromMs
                                             ? std::max(rect.left(), pixelX(*bar.revokingFromMs))
                                             : rect.left() - 1;
            bars.append({rect, &bar.ownerId, bar.ownerChangedAtStart, revokingFromX});
        }
    }
    return bars;
}

QColor LaneBarsLayer::fillOf(const QString& ownerId) const {
    const TimelineTheme& theme = *context().theme;
    const QColor colour = context().members->colour(ownerId, theme.dark);
    const QString& emphasised = context().hover->memberId;
    return emphasised.isEmpty() || emphasised == ownerId ? colour : faded(colour, theme.background);
}

void LaneBarsLayer::draw(QCPPainter* painter) {
    const TimelineTheme& theme = *context().theme;
    const double barHeight = std::max(3.0, laneHeightPixels() * kBarHeight);
    const QList<VisibleBar> bars = visibleBars(barHeight);
    const bool detailed = bars.size() <= kDetailedBarLimit;
    const double radius = detailed ? std::min(3.0, barHeight / 4) : 0.0;
    painter->setAntialiasing(detailed);

    for (const VisibleBar& bar : bars) {
        const QRectF rect = detailed ? bar.rect : bar.rect.toAlignedRect().toRectF();
        if (bar.ownerId->isEmpty()) {
            painter->setPen(QPen(theme.unowned, 1, Qt::DotLine));
            painter->setBrush(QBrush(theme.unowned, Qt::BDiagPattern));
            painter->drawRoundedRect(rect, radius, radius);
            continue;
        }
        const QColor fill = fillOf(*bar.ownerId);
        painter->setPen(QPen(fill.darker(theme.dark ? 100 : 118), 1));
        painter->setBrush(fill);
        painter->drawRoundedRect(rect, radius, radius);
        if (bar.revokingFromX >= rect.left())
            drawRevocation(painter, bar);
        if (bar.ownerChangedAtStart && rect.width() > 8) {
            // A notch in the background colour: "the partition arrived here".
            painter->setPen(Qt::NoPen);
            painter->setBrush(theme.background);
            const double notch = std::min(4.0, barHeight / 3);
            const double middle = rect.center().y();
            const QPointF points[] = {QPointF(rect.left() - 0.5, middle - notch),
                                      QPointF(rect.left() + notch, middle),
                                      QPointF(rect.left() - 0.5, middle + notch)};
            painter->drawPolygon(points, 3);
        }
    }
    drawRebalanceVeil(painter);

    QFont labelFont = mParentPlot->font();
    labelFont.setPointSizeF(labelFont.pointSizeF() * 0.85);
    const QFontMetricsF metrics(labelFont);
    // Names inside bars only where they fit in height; in width, each bar decides.
    if (barHeight < metrics.height() + 1)
        return;
    painter->setFont(labelFont);
    painter->setAntialiasing(true);
    for (const VisibleBar& bar : bars)
        if (!bar.ownerId->isEmpty())
            drawOwnerName(painter, bar.rect, context().members->displayName(*bar.ownerId),
                          fillOf(*bar.ownerId), metrics);
}

void LaneBarsLayer::drawRevocation(QCPPainter* painter, const VisibleBar& bar) const {
    const QRectF tail(bar.revokingFromX, bar.rect.top(),
                      std::max(1.0, bar.rect.right() - bar.revokingFromX), bar.rect.height());
    painter->setPen(Qt::NoPen);
    painter->setBrush(QBrush(context().theme->background, Qt::BDiagPattern));
    painter->drawRect(tail);
}

void LaneBarsLayer::drawRebalanceVeil(QCPPainter* painter) const {
    const TimelineScene& scene = *context().scene;
    const TimelineTheme& theme = *context().theme;
    const QRect area = axisRect()->rect();
    const int64_t viewStart = visibleStartMs();
    const int64_t viewEnd = visibleEndMs();
    QColor veil = theme.background;
    veil.setAlpha(120);
    painter->setPen(Qt::NoPen);
    // Whole pixels without antialiasing: the fast path for plain and patterned fills.
    painter->setAntialiasing(false);
    for (const timeline::StateSpan& span : scene.timeline().states) {
        if (span.state != kafka::GroupState::PreparingRebalance &&
            span.state != kafka::GroupState::CompletingRebalance)
            continue;
        const int64_t endMs = span.endMs.value_or(scene.nowMs());
        if (endMs < viewStart || span.startMs > viewEnd)
            continue;
        const int left = int(std::max(double(area.left()), std::round(pixelX(span.startMs))));
        const int right = int(std::min(double(area.right() + 1), std::round(pixelX(endMs))));
        const QRect band(left, area.top(), std::max(2, right - left), area.height());
        // Ownership is in flux while the group rebalances: the bars fade and take the
        // phase's stripes.
        painter->setBrush(veil);
        painter->drawRect(band);
        painter->setBrush(QBrush(theme.stateColour(span.state), Qt::BDiagPattern));
        painter->drawRect(band);
    }
}

void LaneBarsLayer::drawOwnerName(QCPPainter* painter, const QRectF& bar, const QString& name,
                                  const QColor& fill, const QFontMetricsF& metrics) {
    constexpr double kPadding = 7;
    // The visible part of the bar: a long bar's name stays in view while panning.
    const QRect area = axisRect()->rect();
    const double left = std::max(bar.left(), double(area.left())) + kPadding;
    const double right = std::min(bar.right(), double(area.right())) - kPadding;
    if (right - left < 20)
        return;
    const QString font = painter->font().toString();
    if (font != m_nameWidthsFont) {
        m_nameWidths.clear();
        m_nameWidthsFont = font;
    }
    auto width = m_nameWidths.find(name);
    if (width == m_nameWidths.end())
        width = m_nameWidths.insert(name, metrics.horizontalAdvance(name));
    if (right - left < *width)
        return;
    // Dark text on light fills, light text on dark ones (relative luminance).
    const double luminance = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    painter->setPen(luminance > 0.55 ? QColor(0x1a1a1a) : QColor(0xffffff));
    painter->drawText(QRectF(left, bar.top(), right - left, bar.height()),
                      Qt::AlignLeft | Qt::AlignVCenter, name);
}

} // namespace groupscope::ui
