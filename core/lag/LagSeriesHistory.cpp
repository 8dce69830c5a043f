#include "lag/LagSeriesHistory.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace groupscope::lag {

namespace {

// Floor division and alignment that also behave for times before the epoch.
int64_t floorDiv(int64_t value, int64_t divisor) {
    const int64_t quotient = value / divisor;
    return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient;
}
int64_t alignDown(int64_t timeMs, int64_t width) {
    return floorDiv(timeMs, width) * width;
}
int64_t alignUp(int64_t timeMs, int64_t width) {
    const int64_t down = alignDown(timeMs, width);
    return down == timeMs ? down : down + width;
}

} // namespace

LagSeriesHistory::LagSeriesHistory(const LagHistoryOptions& options)
    : m_rawCapacity(std::max(1, options.rawSampleCount)) {
    m_tiers.reserve(options.tiers.size());
    for (const LagHistoryOptions::Tier& tier : options.tiers) {
        TierRing ring;
        ring.bucketMs = std::max<int64_t>(1, tier.bucketMs);
        ring.capacity = std::max(1, tier.bucketCount);
        m_tiers.push_back(std::move(ring));
    }
}

void LagSeriesHistory::TierRing::add(int64_t timeMs, double lag) {
    const bool firstSample = buckets.empty();
    if (firstSample)
        buckets.resize(size_t(capacity), Bucket{0, 0, std::numeric_limits<float>::quiet_NaN(), 0});
    const int64_t index = floorDiv(timeMs, bucketMs);
    const auto value = float(lag);
    if (firstSample || index != newestIndex) {
        // Buckets skipped since the last sample stay visible as gaps, not as stale data.
        const int64_t firstToClear =
            firstSample ? index : std::max(newestIndex + 1, index - capacity + 1);
        for (int64_t i = firstToClear; i < index; ++i)
            buckets[size_t(((i % capacity) + capacity) % capacity)].mean =
                std::numeric_limits<float>::quiet_NaN();
        newestIndex = index;
        openCount = 0;
        buckets[size_t(((index % capacity) + capacity) % capacity)] = {value, value, value, value};
    }
    Bucket& bucket = buckets[size_t(((index % capacity) + capacity) % capacity)];
    ++openCount;
    bucket.min = std::min(bucket.min, value);
    bucket.max = std::max(bucket.max, value);
    bucket.last = value;
    // A running mean: exact enough in float for the few hundred samples of a bucket.
    bucket.mean += (value - bucket.mean) / float(openCount);
}

bool LagSeriesHistory::record(int64_t timeMs, int64_t lag) {
    if (m_rawCount > 0 && timeMs < m_newestTimeMs)
        return false;
    if (m_raw.empty())
        m_raw.resize(size_t(m_rawCapacity));
    if (m_totalSamples == 0)
        m_firstTimeMs = timeMs;
    ++m_totalSamples;
    m_raw[size_t(m_rawNext)] = {timeMs, lag};
    m_rawNext = (m_rawNext + 1) % m_rawCapacity;
    m_rawCount = std::min(m_rawCount + 1, m_rawCapacity);
    m_newestTimeMs = timeMs;
    for (TierRing& tier : m_tiers)
        tier.add(timeMs, double(lag));
    return true;
}

const LagSeriesHistory::RawSample& LagSeriesHistory::rawAt(int indexFromOldest) const {
    const int oldestSlot = (m_rawNext - m_rawCount + m_rawCapacity) % m_rawCapacity;
    return m_raw[size_t((oldestSlot + indexFromOldest) % m_rawCapacity)];
}

void LagSeriesHistory::appendRaw(int64_t notBefore, int64_t from, int64_t to,
                                 QList<LagHistoryPoint>& out) const {
    for (int i = 0; i < m_rawCount; ++i) {
        const RawSample& sample = rawAt(i);
        if (sample.timeMs < notBefore || sample.timeMs < from || sample.timeMs > to)
            continue;
        const auto lag = double(sample.lag);
        out.append({sample.timeMs, 0, lag, lag, lag, lag});
    }
}

void LagSeriesHistory::appendTier(const TierRing& tier, int64_t fromBucketStart,
                                  int64_t toBucketStart, int64_t from, int64_t to,
                                  QList<LagHistoryPoint>& out) const {
    for (int64_t start = fromBucketStart; start < toBucketStart; start += tier.bucketMs) {
        if (start + tier.bucketMs <= from || start > to)
            continue;
        const int64_t index = floorDiv(start, tier.bucketMs);
        if (index < tier.oldestIndex() || index > tier.newestIndex)
            continue;
        const Bucket& bucket = tier.at(index);
        if (std::isnan(bucket.mean))
            continue;
        out.append({start, tier.bucketMs, bucket.min, bucket.max, bucket.mean, bucket.last});
    }
}

QList<LagHistoryPoint> LagSeriesHistory::points(int64_t fromMs, int64_t toMs) const {
    QList<LagHistoryPoint> out;
    if (m_rawCount == 0 || fromMs > toMs)
        return out;
    // While the raw ring still holds every sample, it alone is the whole history.
    if (m_totalSamples == m_rawCount || m_tiers.empty()) {
        appendRaw(std::numeric_limits<int64_t>::min(), fromMs, toMs, out);
        return out;
    }

    // Where each level takes over from the coarser one before it, finest first. Each
    // boundary is aligned to the coarser tier's buckets so no bucket is shown twice.
    const int64_t rawStart = alignUp(rawAt(0).timeMs, m_tiers.front().bucketMs);
    struct Range {
        int64_t start;
        int64_t end;
    };
    std::vector<Range> tierRanges;
    int64_t end = rawStart;
    for (size_t k = 0; k < m_tiers.size(); ++k) {
        const TierRing& tier = m_tiers[k];
        const int64_t firstBucketStart = alignDown(m_firstTimeMs, tier.bucketMs);
        const int64_t oldestKept = tier.oldestIndex() * tier.bucketMs;
        if (oldestKept <= firstBucketStart || k + 1 == m_tiers.size()) {
            // This tier reaches back to the first sample (or nothing coarser exists).
            tierRanges.push_back({std::max(firstBucketStart, oldestKept), end});
            break;
        }
        const int64_t start = std::min(alignUp(oldestKept, m_tiers[k + 1].bucketMs), end);
        tierRanges.push_back({start, end});
        end = start;
    }
    for (size_t k = tierRanges.size(); k-- > 0;)
        appendTier(m_tiers[k], tierRanges[k].start, tierRanges[k].end, fromMs, toMs, out);
    appendRaw(rawStart, fromMs, toMs, out);
    return out;
}

size_t LagSeriesHistory::memoryBytes() const {
    size_t bytes = m_raw.capacity() * sizeof(RawSample) + m_tiers.capacity() * sizeof(TierRing);
    for (const TierRing& tier : m_tiers)
        bytes += tier.buckets.capacity() * sizeof(Bucket);
    return bytes;
}

} // namespace groupscope::lag
