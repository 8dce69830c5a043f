#pragma once

#include "timeline/GroupTimeline.h"
#include "widgets/timeline/MemberDirectory.h"
#include "widgets/timeline/TimelineLayer.h"
#include "widgets/timeline/TimelineScene.h"
#include "widgets/timeline/TimelineTheme.h"

#include <QPointF>
#include <QWidget>

#include <cstdint>
#include <memory>

class QCustomPlot;
class QCPAxisTickerText;
class QLabel;
class QScrollBar;
class QToolButton;

namespace groupscope::ui {

class BackdropLayer;
class GenerationMarkersLayer;
class HoverLayer;
class LaneBarsLayer;
class MemberLegend;

// A consumer group's rebalance history as a timeline: time runs left to right, each
// topic-partition has a lane, and a lane is coloured by the member that owned the
// partition in each generation. Generation starts are labelled rules, rebalance phases and
// Empty stretches are shaded behind the lanes, and pointing at a moment tells its
// generation: members, who joined and left, which partitions changed hands.
//
// Live: the view follows "now" (the last few minutes, scrolling with every refresh) until
// the user zooms (wheel) or pans (drag); Follow or the F key returns to it. Many
// partitions scroll vertically (Shift+wheel, the wheel over the lane labels, or the scroll
// bar) at a legible minimum lane height.
//
// Plot coordinates: x is seconds since the epoch, lane i is centred on y = i.
class RebalanceTimelineWidget : public QWidget {
    Q_OBJECT
public:
    explicit RebalanceTimelineWidget(QWidget* parent = nullptr);
    ~RebalanceTimelineWidget() override;

    // The whole timeline on every refresh. Keeps the user's zoom, scroll and hover; only
    // data changes, and the plot repaints once on the next event loop turn.
    void setTimeline(const timeline::GroupTimeline& timeline, int64_t nowMs, bool approximate,
                     const QString& note);
    void clear();

    // The rich-text tooltip for a point in plot coordinates; empty where nothing is known.
    QString describeAt(QPointF plotCoords) const;
    static QPointF plotCoords(int64_t timeMs, double lane) {
        return {double(timeMs) / 1000.0, lane};
    }

    bool isFollowingNow() const { return m_following; }
    void followNow();
    void showWholeHistory();
    // As a user's zoom or pan does: stops following.
    void setVisibleTimeRange(int64_t startMs, int64_t endMs);
    QPair<int64_t, int64_t> visibleTimeRange() const;
    // How much time the view shows while it follows now.
    int64_t followWindowMs() const { return m_followWindowMs; }

    // The generation and lane under the pointer (-1: none).
    int hoveredGeneration() const { return m_hover.generationIndex; }
    int hoveredLane() const { return m_hover.lane; }

    QStringList laneLabels() const;
    QColor memberColour(const QString& memberId) const;
    QString memberName(const QString& memberId) const { return m_members.displayName(memberId); }
    const TimelineScene& scene() const { return m_scene; }
    QCustomPlot* plot() const { return m_plot; }
    MemberLegend* legend() const { return m_legend; }
    QLabel* approximateBanner() const { return m_banner; }
    QLabel* summaryLabel() const { return m_summary; }
    QScrollBar* laneScrollBar() const { return m_laneScroll; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void setUpPlot();
    void requestReplot();
    void applyTheme();
    void setTimeRange(double lowerSeconds, double upperSeconds);
    void onTimeRangeChanged(const QCPRange& range);
    void updateTimeTicker(const QCPRange& range);
    void updateLaneLabels();
    bool layOutLanes(); // true when the lane range changed
    void scrollLanesTo(double firstLane);
    void updateLegend();
    void updateSummary(bool approximate, const QString& note);
    void updateHover(const QPoint& pixel);
    void clearHover();
    void setFollowing(bool following);
    bool handleWheel(QWheelEvent* event);

    QCustomPlot* m_plot;
    QScrollBar* m_laneScroll;
    QLabel* m_summary;
    QLabel* m_banner;
    QToolButton* m_followButton;
    QToolButton* m_fitButton;
    MemberLegend* m_legend;
    QSharedPointer<QCPAxisTickerText> m_laneTicker;

    TimelineScene m_scene;
    MemberDirectory m_members;
    TimelineTheme m_theme;
    TimelineHover m_hover;
    std::unique_ptr<BackdropLayer> m_backdrop;
    std::unique_ptr<LaneBarsLayer> m_bars;
    std::unique_ptr<GenerationMarkersLayer> m_markers;
    std::unique_ptr<HoverLayer> m_hoverLayer;

    bool m_following = true;
    bool m_settingTimeRange = false;
    bool m_settingLaneRange = false;
    bool m_replotWhenShown = false;
    int64_t m_followWindowMs;
    double m_firstLane = 0; // top lane shown when the lanes do not all fit
    QPoint m_lastPointer{-1, -1};
};

} // namespace groupscope::ui
