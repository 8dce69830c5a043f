#pragma once

#include <qcustomplot.h>

#include <cstdint>

namespace groupscope::ui {

class MemberDirectory;
class TimelineScene;
struct TimelineTheme;

// What the pointer is over; layers draw it emphasised.
struct TimelineHover {
    int generationIndex = -1;
    int lane = -1;
    QString memberId; // a legend entry under the pointer: that member's bars stand out

    friend bool operator==(const TimelineHover&, const TimelineHover&) = default;
};

// Everything a layer reads; owned by the widget, outliving the layers.
struct TimelineContext {
    const TimelineScene* scene = nullptr;
    const MemberDirectory* members = nullptr;
    const TimelineTheme* theme = nullptr;
    const TimelineHover* hover = nullptr;
};

// A layer of the timeline that paints straight from the TimelineScene: one object per
// concern instead of thousands of plot items, so a refresh swaps data and a replot only
// paints what is inside the visible range. Time is on the x axis in seconds since the
// epoch (what QCPAxisTickerDateTime expects); lane i is centred on y = i.
class TimelineLayer : public QCPLayerable {
public:
    TimelineLayer(QCPAxisRect* axisRect, const QString& layerName, const TimelineContext& context);

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override;
    QRect clipRect() const override;

    QCPAxisRect* axisRect() const { return m_axisRect; }
    const TimelineContext& context() const { return m_context; }
    double pixelX(int64_t timeMs) const;
    double pixelY(double lane) const;
    double laneHeightPixels() const;
    int64_t visibleStartMs() const;
    int64_t visibleEndMs() const;
    // First and last lanes (inclusive) that show, clamped to the scene's lanes.
    std::pair<int, int> visibleLanes() const;

private:
    QCPAxisRect* m_axisRect;
    TimelineContext m_context;
};

} // namespace groupscope::ui
