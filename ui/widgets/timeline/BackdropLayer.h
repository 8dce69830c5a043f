#pragma once

#include "widgets/timeline/TimelineLayer.h"

namespace groupscope::ui {

// Behind the bars: alternate lane stripes, the group's rebalance phases and Empty or Dead
// stretches as full-height shading (hatched where the time is only approximate), and a
// rule between the lanes of two topics.
class BackdropLayer : public TimelineLayer {
public:
    using TimelineLayer::TimelineLayer;

protected:
    void draw(QCPPainter* painter) override;

private:
    void drawLaneStripes(QCPPainter* painter, const QRect& area) const;
    void drawStateShading(QCPPainter* painter, const QRect& area) const;
    void drawTopicSeparators(QCPPainter* painter, const QRect& area) const;
};

} // namespace groupscope::ui
