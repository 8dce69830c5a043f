#include "widgets/timeline/HoverLayer.h"

#include "widgets/timeline/TimelineScene.h"
#include "widgets/timeline/TimelineTheme.h"

#include <algorithm>

namespace groupscope::ui {

void HoverLayer::draw(QCPPainter* painter) {
    const TimelineScene& scene = *context().scene;
    const TimelineTheme& theme = *context().theme;
    const TimelineHover& hover = *context().hover;
    const QRect area = axisRect()->rect();

    if (hover.generationIndex >= 0 && hover.generationIndex < scene.timeline().generations.size()) {
        const timeline::Generation& generation =
            scene.timeline().generations[hover.generationIndex];
        const double left = std::max(double(area.left()), pixelX(generation.startMs));
        const double right =
            std::min(double(area.right() + 1), pixelX(generation.endMs.value_or(scene.nowMs())));
        if (right > left) {
            QColor fill = theme.highlight;
            fill.setAlpha(theme.dark ? 34 : 22);
            painter->setPen(Qt::NoPen);
            painter->setBrush(fill);
            painter->drawRect(QRectF(left, area.top(), right - left, area.height()));
        }
    }
    if (hover.lane >= 0 && hover.lane < scene.lanes().size()) {
        QColor outline = theme.highlight;
        outline.setAlpha(200);
        painter->setPen(QPen(outline, 1));
        painter->setBrush(Qt::NoBrush);
        const double top = std::min(pixelY(hover.lane - 0.5), pixelY(hover.lane + 0.5));
        painter->drawRect(QRectF(area.left() + 0.5, std::round(top) + 0.5, area.width() - 1,
                                 std::round(laneHeightPixels()) - 1));
    }
}

} // namespace groupscope::ui
