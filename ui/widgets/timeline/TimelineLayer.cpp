#include "widgets/timeline/TimelineLayer.h"

#include "widgets/timeline/TimelineScene.h"

#include <algorithm>
#include <cmath>

namespace groupscope::ui {

TimelineLayer::TimelineLayer(QCPAxisRect* axisRect, const QString& layerName,
                             const TimelineContext& context)
    : QCPLayerable(axisRect->parentPlot(), layerName)
    , m_axisRect(axisRect)
    , m_context(context) {}

void TimelineLayer::applyDefaultAntialiasingHint(QCPPainter* painter) const {
    applyAntialiasingHint(painter, mAntialiased, QCP::aePlottables);
}

QRect TimelineLayer::clipRect() const {
    return m_axisRect->rect();
}

double TimelineLayer::pixelX(int64_t timeMs) const {
    return m_axisRect->axis(QCPAxis::atBottom)->coordToPixel(double(timeMs) / 1000.0);
}

double TimelineLayer::pixelY(double lane) const {
    return m_axisRect->axis(QCPAxis::atLeft)->coordToPixel(lane);
}

double TimelineLayer::laneHeightPixels() const {
    return std::abs(pixelY(1.0) - pixelY(0.0));
}

int64_t TimelineLayer::visibleStartMs() const {
    return int64_t(std::floor(m_axisRect->axis(QCPAxis::atBottom)->range().lower * 1000.0));
}

int64_t TimelineLayer::visibleEndMs() const {
    return int64_t(std::ceil(m_axisRect->axis(QCPAxis::atBottom)->range().upper * 1000.0));
}

std::pair<int, int> TimelineLayer::visibleLanes() const {
    const QCPRange range = m_axisRect->axis(QCPAxis::atLeft)->range();
    const int laneCount = int(m_context.scene->lanes().size());
    const int first = std::max(0, int(std::floor(range.lower + 0.5)));
    const int last = std::min(laneCount - 1, int(std::ceil(range.upper - 0.5)));
    return {first, last};
}

} // namespace groupscope::ui
