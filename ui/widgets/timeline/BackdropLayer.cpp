#include "widgets/timeline/BackdropLayer.h"

#include "widgets/timeline/TimelineScene.h"
#include "widgets/timeline/TimelineTheme.h"

#include <algorithm>

namespace groupscope::ui {

void BackdropLayer::draw(QCPPainter* painter) {
    // Everything here is whole-pixel rectangles: antialiasing would only slow the fills.
    painter->setAntialiasing(false);
    const QRect area = axisRect()->rect();
    drawLaneStripes(painter, area);
    drawStateShading(painter, area);
    drawTopicSeparators(painter, area);
}

void BackdropLayer::drawLaneStripes(QCPPainter* painter, const QRect& area) const {
    const auto [first, last] = visibleLanes();
    painter->setPen(Qt::NoPen);
    painter->setBrush(context().theme->laneStripe);
    for (int lane = first; lane <= last; ++lane) {
        if (lane % 2 == 0)
            continue;
        const double top = std::round(std::min(pixelY(lane - 0.5), pixelY(lane + 0.5)));
        painter->drawRect(
            QRect(area.left(), int(top), area.width(), int(std::round(laneHeightPixels()))));
    }
}

void BackdropLayer::drawStateShading(QCPPainter* painter, const QRect& area) const {
    const TimelineScene& scene = *context().scene;
    const TimelineTheme& theme = *context().theme;
    const int64_t viewStart = visibleStartMs();
    const int64_t viewEnd = visibleEndMs();
    painter->setPen(Qt::NoPen);
    for (const timeline::StateSpan& span : scene.timeline().states) {
        const int64_t endMs = span.endMs.value_or(scene.nowMs());
        if (endMs < viewStart || span.startMs > viewEnd)
            continue;
        const QColor shade = theme.stateShade(span.state);
        if (!shade.isValid())
            continue;
        const int left = int(std::max(double(area.left()), std::round(pixelX(span.startMs))));
        const int right = int(std::min(double(area.right() + 1), std::round(pixelX(endMs))));
        // A rebalance of a few hundred ms still deserves to be seen at any zoom.
        const QRect band(left, area.top(), std::max(2, right - left), area.height());
        painter->setBrush(shade);
        painter->drawRect(band);
        if (span.approximate || span.state == kafka::GroupState::Empty) {
            QColor hatch = shade;
            hatch.setAlpha(std::min(255, shade.alpha() * 2));
            painter->setBrush(QBrush(hatch, Qt::BDiagPattern));
            painter->drawRect(band);
        }
    }
}

void BackdropLayer::drawTopicSeparators(QCPPainter* painter, const QRect& area) const {
    const auto [first, last] = visibleLanes();
    const QList<TimelineScene::Lane>& lanes = context().scene->lanes();
    painter->setPen(QPen(context().theme->topicSeparator, 1));
    for (int lane = std::max(first, 1); lane <= last; ++lane) {
        if (!lanes[lane].firstOfTopic)
            continue;
        const double y = std::round(pixelY(lane - 0.5)) + 0.5;
        painter->drawLine(QPointF(area.left(), y), QPointF(area.right() + 1, y));
    }
}

} // namespace groupscope::ui
