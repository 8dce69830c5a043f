#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace groupscope::lag {

// Makes room for one more element of a vector that never holds more than `most`: its
// capacity doubles up to `most` and never passes it. For the rate windows kept per group
// partition (OffsetRateWindow): most group partitions of a big cluster commit rarely
// or have stopped, so most windows hold one entry, and room for ten at the first was tens
// of megabytes of the exporter's memory at 10,000 idle groups (heaptrack).
template <typename T> void reserveOneMoreUpTo(std::vector<T>& items, size_t most) {
    if (items.size() == items.capacity() && items.size() < most)
        items.reserve(std::min(most, std::max<size_t>(1, 2 * items.size())));
}

} // namespace groupscope::lag
