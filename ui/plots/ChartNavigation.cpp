#include "plots/ChartNavigation.h"

#include <algorithm>
#include <cmath>

namespace groupscope::ui {

ChartNavigation::ChartNavigation(double maximumSpanSeconds)
    : m_maximumSpan(maximumSpanSeconds) {}

void ChartNavigation::reset(double nowSeconds) {
    m_oldest = m_newest = std::numeric_limits<double>::quiet_NaN();
    m_span = defaultSpanSeconds;
    m_following = true;
    m_range = {nowSeconds - m_span, nowSeconds};
}

void ChartNavigation::setDataExtent(double oldest, double newest) {
    m_oldest = oldest;
    m_newest = newest;
    if (m_following)
        followNow();
}

void ChartNavigation::followNow() {
    if (!hasData())
        return;
    // A young series fills the view instead of sitting at the right edge of an empty hour.
    const double dataSpan = (m_newest - m_oldest) / (1 - 2 * followMarginShare);
    const double span = std::min(m_span, std::max(minimumFollowSpanSeconds, dataSpan));
    const double upper = m_newest + span * followMarginShare;
    m_range = {upper - span, upper};
}

void ChartNavigation::setFollowing(bool following) {
    m_following = following;
    if (following)
        followNow();
}

void ChartNavigation::zoomBy(double factor) {
    m_span = std::clamp(m_span * factor, minimumSpanSeconds, m_maximumSpan);
    if (m_following) {
        followNow();
    } else {
        const double center = m_range.center();
        m_range = {center - m_span / 2, center + m_span / 2};
    }
}

void ChartNavigation::panBy(double fractionOfSpan) {
    const double shift = m_range.size() * fractionOfSpan;
    if (hasData() && m_range.upper + shift >= m_newest) {
        setFollowing(true); // panned back to now
        return;
    }
    m_range = {m_range.lower + shift, m_range.upper + shift};
    m_following = false;
}

void ChartNavigation::resetZoom() {
    // Everything, however long: this is the one way to see a whole day at once.
    const double dataSpan =
        std::isnan(m_oldest) ? 0 : (m_newest - m_oldest) / (1 - followMarginShare);
    m_span = std::max(defaultSpanSeconds, dataSpan);
    setFollowing(true);
}

void ChartNavigation::userMovedTo(const Range& range) {
    m_range = range;
    if (m_range.size() < minimumSpanSeconds) {
        const double center = m_range.center();
        m_range = {center - minimumSpanSeconds / 2, center + minimumSpanSeconds / 2};
    }
    m_span = m_range.size();
    // Following means "now is in view": zooming at the right edge keeps it, going back in
    // time ends it.
    const bool nowInView = hasData() && m_range.upper >= m_newest;
    if (nowInView != m_following)
        setFollowing(nowInView);
}

} // namespace groupscope::ui
