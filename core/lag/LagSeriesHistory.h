#pragma once

#include <QList>

#include <cstdint>
#include <vector>

namespace groupscope::lag {

// One point of a lag series as the plots get it. A raw sample has resolutionMs 0 and
// min == max == mean == last; an aggregated bucket starts at timeMs and spans resolutionMs.
struct LagHistoryPoint {
    int64_t timeMs = 0;
    int64_t resolutionMs = 0;
    double min = 0;
    double max = 0;
    double mean = 0;
    double last = 0;
};

// How much history a series keeps. The defaults bound a series to about 16 KB: the last
// 300 samples at full resolution (10 minutes at the 2 s poll interval), one-minute buckets
// for 6 hours, half-hour buckets for 7 days; 10,000 partitions then fit in ~160 MB.
struct LagHistoryOptions {
    struct Tier {
        int64_t bucketMs;
        int bucketCount;
    };
    int rawSampleCount = 300;
    // Each tier's bucket width must be a multiple of the previous tier's, so a query can
    // switch tiers on a bucket boundary without overlap or gap.
    std::vector<Tier> tiers{{60'000, 360}, {1'800'000, 336}};
};

// The bounded history of one lag series. Each sample goes into a ring of raw samples and
// into the open bucket of every tier at once, so a tier always holds the complete picture
// of its window and nothing has to be moved when the raw ring wraps. Aggregates are
// floats: exact for lags up to 2^24, within 1e-7 relative beyond, which a plot cannot show,
// and it halves a bucket's size.
class LagSeriesHistory {
public:
    explicit LagSeriesHistory(const LagHistoryOptions& options);

    // Samples must come in time order; an older one than the newest recorded is ignored
    // (returns false) so a late poll result cannot scramble the buckets.
    bool record(int64_t timeMs, int64_t lag);

    // Points overlapping [fromMs, toMs], sorted by time: raw samples where they are still
    // kept, the finest tier's buckets before that, the coarsest tier's before that.
    QList<LagHistoryPoint> points(int64_t fromMs, int64_t toMs) const;

    bool isEmpty() const { return m_rawCount == 0; }
    int64_t newestTimeMs() const { return m_newestTimeMs; }
    // Heap bytes held, for the benchmark and the memory budget.
    size_t memoryBytes() const;

private:
    struct RawSample {
        int64_t timeMs;
        int64_t lag;
    };
    struct Bucket {
        float min;
        float max;
        float mean; // NaN: no sample fell into this bucket
        float last;
    };
    struct TierRing {
        int64_t bucketMs = 0;
        int capacity = 0;
        std::vector<Bucket> buckets; // allocated on first use
        int64_t newestIndex = 0;     // absolute bucket number: floor(time / bucketMs)
        uint32_t openCount = 0;      // samples in the newest bucket, for its running mean

        void add(int64_t timeMs, double lag);
        int64_t oldestIndex() const { return newestIndex - capacity + 1; }
        const Bucket& at(int64_t index) const { return buckets[size_t(index % capacity)]; }
    };

    const RawSample& rawAt(int indexFromOldest) const;
    void appendRaw(int64_t notBefore, int64_t from, int64_t to, QList<LagHistoryPoint>& out) const;
    void appendTier(const TierRing& tier, int64_t fromBucketStart, int64_t toBucketStart,
                    int64_t from, int64_t to, QList<LagHistoryPoint>& out) const;

    std::vector<RawSample> m_raw; // ring, allocated on first use
    int m_rawCapacity;
    int m_rawNext = 0; // slot the next sample goes to
    int m_rawCount = 0;
    int64_t m_newestTimeMs = 0;
    int64_t m_firstTimeMs = 0;
    int64_t m_totalSamples = 0;
    std::vector<TierRing> m_tiers;
};

} // namespace groupscope::lag
