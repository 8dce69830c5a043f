#pragma once

#include <cstdint>
#include <deque>
#include <optional>

namespace groupscope::lag {

// When did the log end of one partition pass a given offset? A bounded table of
// (logEndOffset, time) samples, searched the way kafka-lag-exporter's LookupTable does:
// linear interpolation between the two newest samples that surround the offset, and
// extrapolation along the table's overall trend when the offset is outside it.
class OffsetTimeTable {
public:
    struct Point {
        int64_t offset;
        int64_t timeMs;
    };
    struct Lookup {
        enum class Kind {
            Predicted,    // timeMs is when the log end was at the offset
            AtLogEnd,     // the offset is the newest log end or past it: nothing to wait for
            TooFewPoints, // fewer than two samples: no trend yet
            NoProduction, // the table is flat: the offset was produced before it began
        };
        Kind kind = Kind::TooFewPoints;
        double timeMs = 0;
        bool extrapolated = false;
    };

    explicit OffsetTimeTable(int capacity = 60)
        : m_capacity(capacity < 2 ? 2 : capacity) {}

    // Samples out of time order or with a log end lower than the newest are ignored (a
    // table that is not monotonic cannot be interpolated). A run of equal log ends is kept
    // as its first and last sample only, so a quiet partition does not flush the table.
    bool addPoint(int64_t logEndOffset, int64_t timeMs);
    Lookup lookup(int64_t offset) const;
    // The other direction: the log end at a moment, interpolated between the samples around
    // it. Before the oldest sample, the oldest log end (an upper bound); after the newest,
    // nothing: the next sample decides.
    std::optional<int64_t> offsetAt(int64_t timeMs) const;

    const std::deque<Point>& points() const { return m_points; }
    void clear() { m_points.clear(); }

private:
    int m_capacity;
    std::deque<Point> m_points;
};

} // namespace groupscope::lag
