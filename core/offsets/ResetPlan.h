#pragma once

#include "kafka/PartitionPosition.h"
#include "kafka/TopicPartition.h"
#include "offsets/ResetSpec.h"

#include <QList>
#include <QStringList>

#include <optional>

namespace groupscope::offsets {

// What the user asked for one partition of one group.
struct RowRequest {
    QString groupId;
    kafka::TopicPartition topicPartition;
    ResetSpec spec;
    QString origin{}; // where the row came from, e.g. "plan.csv:7"; prefixes its errors
};

// One partition of a resolved plan: where the group is, where the log is, where the reset
// would put it, and anything the user should know before applying it.
// The position fields (partition, committed offset, log range) come from PartitionPosition;
// `lag` is left empty: a plan speaks of the new offset's delta instead.
struct PlanRow : kafka::PartitionPosition {
    QString groupId;
    ResetSpec spec;
    std::optional<int64_t> newOffset; // empty when the row has an error
    QStringList warnings;             // e.g. clamped to the log end
    QString error;                    // the row cannot be applied
    QString origin;                   // as RowRequest::origin

    // New minus committed: positive skips that many messages, negative replays them.
    std::optional<int64_t> delta() const {
        if (!newOffset || !committedOffset)
            return std::nullopt;
        return *newOffset - *committedOffset;
    }
    bool changes() const { return newOffset && newOffset != committedOffset; }
};

struct ResetPlan {
    QList<PlanRow> rows; // sorted by group, topic, partition
    int64_t plannedAtMs = 0;

    int errorCount() const;
    QStringList groups() const;
    QList<PlanRow> rowsOf(const QString& groupId) const;
    // Messages the plan replays (sum of negative deltas, as a positive number) and skips.
    int64_t messagesReplayed() const;
    int64_t messagesSkipped() const;
};

} // namespace groupscope::offsets
