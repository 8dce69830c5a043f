#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace groupscope::lag {

// A rate window's settings. Every window of an estimator has the same, so windows are given
// them rather than keeping a copy each (16 of a window's 40 bytes, one window per group
// partition: 16 MB at 100,000 groups of ten partitions).
struct RateWindowOptions {
    int64_t windowMs = 60'000;
    int sampleLimit = 128; // fewer than 2 counts as 2: a rate needs two samples
};

// The rate at which an offset moves (messages per second) over a sliding time window:
// a partition's log end (production) or a group's committed offset (consumption).
class OffsetRateWindow {
public:
    // Samples out of time order are ignored.
    void add(int64_t offset, int64_t timeMs, const RateWindowOptions& options);
    // Offset change per second between the oldest and newest sample within the window that
    // ends at nowMs; std::nullopt with fewer than two samples there. Negative after a
    // rewind or a log truncation: the caller decides what that means.
    std::optional<double> ratePerSecond(int64_t nowMs, const RateWindowOptions& options) const;
    // How many samples are kept now (never more than the limit, nor than 10).
    int sampleCount() const { return int(m_samples.size()); }

    // The most samples the window keeps: one per eighth of it, ends included, and the
    // newest.
    static constexpr int maxSamplesKept() { return spacingsPerWindow + 2; }

private:
    static constexpr int spacingsPerWindow = 8;

    struct Sample {
        int64_t offset;
        int64_t timeMs;
    };
    // A vector, not a deque: libstdc++'s deque allocates a 512-byte block even when
    // empty, and there is one window per group partition (100,000 at 10,000 groups).
    std::vector<Sample> m_samples;
};

} // namespace groupscope::lag
