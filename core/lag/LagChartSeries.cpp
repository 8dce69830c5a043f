#include "lag/LagChartSeries.h"

#include <algorithm>
#include <cmath>

namespace groupscope::lag {

namespace {

double keyOf(int64_t timeMs) {
    return double(timeMs) / 1000.0;
}

// The first point at or after `key`.
LagChartPoints::iterator firstAtOrAfter(LagChartPoints& points, double key) {
    return std::lower_bound(points.begin(), points.end(), key,
                            [](const LagChartPoint& point, double k) { return point.key < k; });
}

// A trail column's first keys.size() values, paired with those keys, in front of what
// `points` holds.
template <typename Column>
void prependColumn(LagChartPoints& points, const std::vector<double>& keys, const Column& column) {
    const size_t count = std::min(keys.size(), size_t(column.size()));
    LagChartPoints merged;
    merged.reserve(count + points.size());
    for (size_t i = 0; i < count; ++i)
        merged.push_back({keys[i], double(column[qsizetype(i)])});
    merged.insert(merged.end(), points.begin(), points.end());
    points = std::move(merged);
}

} // namespace

double LagChartSeries::oldestKey() const {
    return m_total.empty() ? std::nan("") : m_total.front().key;
}

double LagChartSeries::newestKey() const {
    return m_total.empty() ? std::nan("") : m_total.back().key;
}

std::optional<LagChartSeries::KeySpan> LagChartSeries::historySpan() const {
    if (m_history.isEmpty() || m_total.empty())
        return std::nullopt;
    const double start = m_total.front().key;
    const double end = std::isnan(m_firstLiveKey) ? m_total.back().key : m_firstLiveKey;
    if (!(start < end))
        return std::nullopt;
    return KeySpan{start, end};
}

std::vector<LagChartPoints*> LagChartSeries::allSeries() {
    std::vector<LagChartPoints*> series{&m_total, &m_timeLag};
    for (LagChartPoints& topic : m_topics)
        series.push_back(&topic);
    return series;
}

bool LagChartSeries::appendLive(const LagChartSample& sample) {
    const double key = keyOf(sample.timeMs);
    if (!std::isnan(m_lastLiveKey) && key <= m_lastLiveKey)
        return false; // a late or repeated poll would scramble the time order
    if (std::isnan(m_firstLiveKey)) {
        m_firstLiveKey = key;
        // A history that reaches past the first live sample gives way to it.
        if (!m_total.empty() && m_total.back().key >= key) {
            removeFrom(key);
            ++m_revision;
        }
    }
    m_lastLiveKey = key;
    m_total.push_back({key, double(sample.totalLag)});
    m_timeLag.push_back({key, sample.maxTimeLagSeconds});
    for (auto it = sample.topicLag.cbegin(); it != sample.topicLag.cend(); ++it)
        m_topics[it.key()].push_back({key, double(it.value())});
    dropExpired();
    return true;
}

bool LagChartSeries::setHistory(const LagTrail& trail) {
    if (trail.timesMs == m_history.timesMs)
        return false;
    // Take out the previous history (everything before the first live sample), then put the
    // new one in front of the live samples.
    const double historyEnd =
        std::isnan(m_firstLiveKey) ? std::numeric_limits<double>::infinity() : m_firstLiveKey;
    if (!m_history.isEmpty())
        for (LagChartPoints* points : allSeries())
            points->erase(points->begin(), firstAtOrAfter(*points, historyEnd));
    m_history = trail;

    // The keys once for every column: a day of 50 series is two million points.
    std::vector<double> keys;
    keys.reserve(size_t(trail.size()));
    for (const int64_t timeMs : trail.timesMs) {
        if (keyOf(timeMs) >= historyEnd)
            break;
        keys.push_back(keyOf(timeMs));
    }
    if (!keys.empty()) {
        prependColumn(m_total, keys, trail.totalLag);
        prependColumn(m_timeLag, keys, trail.maxTimeLagSeconds);
        for (auto it = trail.topicLag.cbegin(); it != trail.topicLag.cend(); ++it)
            prependColumn(m_topics[it.key()], keys, it.value());
    }
    ++m_revision;
    return true;
}

void LagChartSeries::clear() {
    m_total.clear();
    m_timeLag.clear();
    m_topics.clear();
    m_history = {};
    m_firstLiveKey = std::nan("");
    m_lastLiveKey = std::nan("");
    ++m_revision;
}

void LagChartSeries::removeFrom(double key) {
    for (LagChartPoints* points : allSeries())
        points->erase(firstAtOrAfter(*points, key), points->end());
}

void LagChartSeries::dropExpired() {
    const double cutoff = m_lastLiveKey - double(retentionMs) / 1000.0;
    if (m_total.empty() || m_total.front().key >= cutoff - double(expiryBatchMs) / 1000.0)
        return;
    for (LagChartPoints* points : allSeries())
        points->erase(points->begin(), firstAtOrAfter(*points, cutoff));
}

} // namespace groupscope::lag
