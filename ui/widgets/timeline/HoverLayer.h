#pragma once

#include "widgets/timeline/TimelineLayer.h"

namespace groupscope::ui {

// The generation and the lane under the pointer, outlined. Lives on its own buffered plot
// layer so following the pointer repaints only this layer, not the bars.
class HoverLayer : public TimelineLayer {
public:
    using TimelineLayer::TimelineLayer;

protected:
    void draw(QCPPainter* painter) override;
};

} // namespace groupscope::ui
