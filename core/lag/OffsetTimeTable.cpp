#include "lag/OffsetTimeTable.h"

#include <cstddef>

namespace groupscope::lag {

bool OffsetTimeTable::addPoint(int64_t logEndOffset, int64_t timeMs) {
    if (!m_points.empty()) {
        const Point& newest = m_points.back();
        if (timeMs <= newest.timeMs || logEndOffset < newest.offset)
            return false;
        const bool flatRun = m_points.size() > 1 && newest.offset == logEndOffset &&
                             m_points[m_points.size() - 2].offset == logEndOffset;
        if (flatRun) {
            // Stretch the flat segment instead of adding a third equal point.
            m_points.back() = {logEndOffset, timeMs};
            return true;
        }
    }
    if (int(m_points.size()) == m_capacity)
        m_points.pop_front();
    m_points.push_back({logEndOffset, timeMs});
    return true;
}

OffsetTimeTable::Lookup OffsetTimeTable::lookup(int64_t offset) const {
    Lookup result;
    if (m_points.empty())
        return result; // TooFewPoints
    if (offset >= m_points.back().offset) {
        // kafka-lag-exporter calls an offset equal to the newest log end "lag is zero". A
        // commit past the newest sample only means the log grew since we sampled it.
        result.kind = Lookup::Kind::AtLogEnd;
        return result;
    }
    if (m_points.size() < 2)
        return result; // TooFewPoints

    // The newest pair of neighbours that surrounds the offset: with flat runs in the table,
    // the newest one is the moment the log end last moved past the offset.
    const Point* left = nullptr;
    const Point* right = nullptr;
    for (std::size_t i = m_points.size() - 1; i > 0; --i) {
        if (m_points[i - 1].offset <= offset && offset <= m_points[i].offset) {
            left = &m_points[i - 1];
            right = &m_points[i];
            break;
        }
    }
    if (!left) {
        // Older than the whole table: follow the trend from the oldest to the newest sample.
        left = &m_points.front();
        right = &m_points.back();
        result.extrapolated = true;
    }
    const double deltaOffset = double(right->offset - left->offset);
    if (deltaOffset <= 0) {
        // Only possible when extrapolating over a flat table: no production was seen, so
        // the offset's time is unknown (and at least as old as the table).
        result.kind = Lookup::Kind::NoProduction;
        result.timeMs = double(m_points.front().timeMs);
        return result;
    }
    const double deltaTime = double(right->timeMs - left->timeMs);
    result.kind = Lookup::Kind::Predicted;
    result.timeMs =
        double(right->timeMs) - double(right->offset - offset) * deltaTime / deltaOffset;
    return result;
}

std::optional<int64_t> OffsetTimeTable::offsetAt(int64_t timeMs) const {
    if (m_points.empty() || timeMs > m_points.back().timeMs)
        return std::nullopt;
    if (timeMs <= m_points.front().timeMs)
        return m_points.front().offset;
    for (std::size_t i = m_points.size() - 1; i > 0; --i) {
        const Point& left = m_points[i - 1];
        const Point& right = m_points[i];
        if (left.timeMs <= timeMs && timeMs <= right.timeMs) {
            const double fraction =
                double(timeMs - left.timeMs) / double(right.timeMs - left.timeMs);
            return left.offset + int64_t(fraction * double(right.offset - left.offset));
        }
    }
    return std::nullopt; // unreachable: the samples are in time order
}

} // namespace groupscope::lag
