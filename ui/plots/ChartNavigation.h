#pragma once

#include <limits>

namespace groupscope::ui {

// Where a live time chart looks, as the user steers it: the range maths behind following
// "now", zooming, panning and resetting, apart from any plot so it can be tested alone.
// Times are seconds since the epoch.
//
// While following, the view keeps the newest sample near its right edge. Zooming at "now"
// keeps following; going back in time (a pan, a drag, a zoom around the past) ends it, and
// reaching "now" again resumes it. The span never goes below minimumSpanSeconds.
class ChartNavigation {
public:
    struct Range {
        double lower = 0;
        double upper = 0;

        double size() const { return upper - lower; }
        double center() const { return (lower + upper) / 2; }
        friend bool operator==(const Range&, const Range&) = default;
    };

    static constexpr double defaultSpanSeconds = 3600;
    static constexpr double minimumSpanSeconds = 30;
    // The narrowest view while following, so the first samples do not fill the whole width.
    static constexpr double minimumFollowSpanSeconds = 120;
    // Room right of the newest sample while following, as a share of the span, so the
    // newest point is not glued to the axis.
    static constexpr double followMarginShare = 0.02;

    // `maximumSpanSeconds`: the widest zoom, what the chart keeps of the past.
    explicit ChartNavigation(double maximumSpanSeconds);

    const Range& range() const { return m_range; }
    bool isFollowing() const { return m_following; }
    // The span the user chose; a following view of young data can be narrower.
    double span() const { return m_span; }

    // Forgets the data and the user's zoom: the default span ending at `nowSeconds`.
    void reset(double nowSeconds);
    // The keys of the oldest and newest sample (NaN: no data). A following view moves along.
    void setDataExtent(double oldest, double newest);

    void setFollowing(bool following);
    void zoomBy(double factor);        // < 1 zooms in
    void panBy(double fractionOfSpan); // < 0 goes back in time
    void resetZoom();                  // all the data, following
    // The user dragged or wheeled the view to `range`: kept (widened to the minimum span),
    // and following as far as "now" is still in view.
    void userMovedTo(const Range& range);

private:
    bool hasData() const { return m_newest == m_newest; } // not NaN
    void followNow();

    double m_maximumSpan;
    double m_oldest = std::numeric_limits<double>::quiet_NaN();
    double m_newest = std::numeric_limits<double>::quiet_NaN();
    double m_span = defaultSpanSeconds;
    bool m_following = true;
    Range m_range;
};

} // namespace groupscope::ui
