#pragma once

#include "kafka/TopicPartition.h"

#include <cstdint>
#include <optional>

namespace groupscope::lag {

// Lag exactly as Kafka's own tool reports it: log end minus committed, which can be
// negative when the log was truncated below a commit. No commit means no lag value.
inline std::optional<int64_t> offsetLag(std::optional<int64_t> committedOffset,
                                        int64_t logEndOffset) {
    if (!committedOffset || logEndOffset < 0)
        return std::nullopt;
    return logEndOffset - *committedOffset;
}

} // namespace groupscope::lag
