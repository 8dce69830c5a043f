#pragma once

#include "widgets/timeline/TimelineLayer.h"

namespace groupscope::ui {

// The start of every generation as a vertical rule across all lanes (dashed when the time
// is approximate), labelled "gen 12" in the band above the lanes, and "now" on the right.
// Labels that would overlap give way to newer ones: the recent past matters most.
class GenerationMarkersLayer : public TimelineLayer {
public:
    using TimelineLayer::TimelineLayer;

    // Height of the label band above the lanes that the widget reserves as top margin.
    static constexpr int kLabelBandHeight = 22;

protected:
    QRect clipRect() const override;
    void draw(QCPPainter* painter) override;
};

} // namespace groupscope::ui
