#pragma once

#include "offsets/ResetPlan.h"

#include <QHash>
#include <QPair>

namespace groupscope::offsets {

// What the cluster said about the partitions of a plan, fetched once by
// ResetPlanner::fetchFacts (the network step) and read by the resolution below (pure), so
// every rule of a reset can be tested on facts written by hand, without a broker.
struct PlanFacts {
    int64_t plannedAtMs = 0; // "now" for by-duration
    // Topic -> partition -> leader broker (-1: no leader). A topic is either here or in
    // topicErrors: one missing topic marks its own rows instead of failing the plan.
    QHash<QString, QHash<int32_t, int32_t>> leadersByTopic;
    QHash<QString, QString> topicErrors;
    // (group, partition) -> the group's committed offset; absent: no commit there.
    QHash<QPair<QString, kafka::TopicPartition>, int64_t> committed;
    QHash<kafka::TopicPartition, kafka::LogOffsets> logs;
    // (timestamp, partition) -> first offset at or after it, -1 when no record is that new.
    QHash<QPair<int64_t, kafka::TopicPartition>, int64_t> offsetsForTimes;
};

// Resolves one request the way Kafka's tool does: offsets and shifts clamped to
// [log start, log end] with a warning; a time after the last record falls back to the log
// end with a warning; a shift without a commit or one that overflows is an error on the
// row; to-current without a commit takes the log end; unknown partitions, partitions
// without a leader and log-offset errors are errors on the row; to-group takes the
// source group's commit, clamped, and leaves a partition it has no commit for unchanged
// with a warning. Errors carry no origin.
PlanRow resolveResetRow(const RowRequest& request, const PlanFacts& facts);

// Every request resolved: a second row for the same group and partition is an error,
// errors are prefixed with their row's origin, rows are sorted by group, topic, partition.
ResetPlan resolveResetPlan(const QList<RowRequest>& requests, const PlanFacts& facts);

} // namespace groupscope::offsets
