#include "lag/OffsetRateWindow.h"

#include <algorithm>

namespace groupscope::lag {

void OffsetRateWindow::add(int64_t offset, int64_t timeMs) {
    if (!m_samples.empty() && timeMs < m_samples.back().timeMs)
        return;
    // A rate needs the oldest and the newest sample of the window, not every poll between:
    // a sample closer than an eighth of the window to the one before the newest replaces
    // the newest. At most some 10 samples then cover the window, where one every 2 s poll
    // made 30, and the rate spans at least seven eighths of it (100,000 group partitions
    // at 10,000 groups: about 50 MB less than one sample per poll).
    const int64_t spacingMs = m_windowMs / 8;
    if (m_samples.size() >= 2 && timeMs - m_samples[m_samples.size() - 2].timeMs < spacingMs) {
        m_samples.back() = {offset, timeMs};
        return;
    }
    if (m_samples.empty())
        m_samples.reserve(std::min(m_sampleLimit, 10));
    m_samples.push_back({offset, timeMs});
    // The samples past the limit or out of the window go in one erase.
    auto keep = m_samples.begin() + std::max(0, int(m_samples.size()) - m_sampleLimit);
    while (keep->timeMs < timeMs - m_windowMs)
        ++keep;
    m_samples.erase(m_samples.begin(), keep);
}

std::optional<double> OffsetRateWindow::ratePerSecond(int64_t nowMs) const {
    const int64_t windowStart = nowMs - m_windowMs;
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
