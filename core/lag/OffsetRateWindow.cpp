#include "lag/OffsetRateWindow.h"

#include "lag/BoundedVector.h"

#include <algorithm>

namespace groupscope::lag {

void OffsetRateWindow::add(int64_t offset, int64_t timeMs, const RateWindowOptions& options) {
    if (!m_samples.empty() && timeMs < m_samples.back().timeMs)
        return;
    const int sampleLimit = std::max(2, options.sampleLimit);
    // The samples out of the window, or past the limit, go first, in one erase.
    auto keep = m_samples.begin() + std::max(0, int(m_samples.size()) - (sampleLimit - 1));
    while (keep != m_samples.end() && keep->timeMs < timeMs - options.windowMs)
        ++keep;
    m_samples.erase(m_samples.begin(), keep);
    // A rate needs the oldest and the newest sample of the window, not every poll between:
    // the newest sample moves forward until it is an eighth of the window past the one
    // before it, and only then stays and a new newest follows. Every sample but the newest
    // is then at least an eighth of the window after the one before it, so at most 10 are
    // kept at any poll interval (one per 2 s poll made 30). The rate then spans at least
    // the window less an eighth and one poll interval.
    if (m_samples.size() >= 2 && m_samples.back().timeMs - m_samples[m_samples.size() - 2].timeMs <
                                     options.windowMs / spacingsPerWindow) {
        m_samples.back() = {offset, timeMs};
        return;
    }
    // The vector grows with its samples up to those 10 (9.6 MB less at 10,000 idle groups).
    reserveOneMoreUpTo(m_samples, size_t(std::min(sampleLimit, maxSamplesKept())));
    m_samples.push_back({offset, timeMs});
}

std::optional<double> OffsetRateWindow::ratePerSecond(int64_t nowMs,
                                                      const RateWindowOptions& options) const {
    const int64_t windowStart = nowMs - options.windowMs;
    const Sample* oldest = nullptr;
    for (const Sample& sample : m_samples) {
        if (sample.timeMs >= windowStart && sample.timeMs <= nowMs) {
            oldest = &sample;
            break;
        }
    }
    const Sample* newest = nullptr;
    for (auto it = m_samples.rbegin(); it != m_samples.rend(); ++it) {
        if (it->timeMs <= nowMs && it->timeMs >= windowStart) {
            newest = &*it;
            break;
        }
    }
    if (!oldest || !newest || newest->timeMs <= oldest->timeMs)
        return std::nullopt;
    return double(newest->offset - oldest->offset) * 1000.0 /
           double(newest->timeMs - oldest->timeMs);
}

} // namespace groupscope::lag
