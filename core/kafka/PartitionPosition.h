#pragma once

#include "kafka/GroupTypes.h"
#include "kafka/TopicPartition.h"

#include <cstdint>
#include <optional>

namespace groupscope::kafka {

// Where a group stands on one partition and the log around it: the fields that every
// view of a partition shares (a poll's PartitionSnapshot, the monitor's MonitoredPartition,
// a reset plan's PlanRow, the offsets table's OffsetEditRow). Those types derive from it,
// so copying a position from one to another is one call instead of four assignments.
struct PartitionPosition {
    TopicPartition topicPartition;
    std::optional<int64_t> committedOffset; // none: the group has no commit here
    int64_t logStartOffset = -1;            // -1: not known
    int64_t logEndOffset = -1;              // -1: not known
    std::optional<int64_t> lag;             // lag::offsetLag of the two above

    // Takes over every field above from `other` and nothing else of a derived type.
    void setPosition(const PartitionPosition& other) { *this = other; }
    // Takes over the log's start and end.
    void setLogRange(const LogOffsets& log) {
        logStartOffset = log.logStartOffset;
        logEndOffset = log.logEndOffset;
    }
    friend bool operator==(const PartitionPosition&, const PartitionPosition&) = default;
};

} // namespace groupscope::kafka
