#pragma once
// Health verdicts in Burrow's terms (linkedin/Burrow, core/internal/evaluator).

#include "kafka/TopicPartition.h"

#include <QList>
#include <QString>

#include <cstdint>
#include <optional>

namespace groupscope::lag {

// Ordered by severity, as Burrow orders them.
enum class PartitionStatus { Ok, Warning, Stop, Stall, Rewind };
// Stop, Stall and Rewind partitions make a group Error.
enum class GroupStatus { NotFound, Ok, Warning, Error };

// "OK", "WARN", "STOP", "STALL", "REWIND": Burrow's spelling, which users know.
QString partitionStatusName(PartitionStatus status);
// "NOTFOUND", "OK", "WARN", "ERR".
QString groupStatusName(GroupStatus status);

// A commit as the evaluator keeps it: the offset, the lag it left (log end at that time
// minus the offset) and when it was made.
struct CommitObservation {
    int64_t offset = -1;
    int64_t lag = 0;
    int64_t timestampMs = 0;
    friend bool operator==(const CommitObservation&, const CommitObservation&) = default;
};

struct PartitionHealth {
    kafka::TopicPartition topicPartition;
    PartitionStatus status = PartitionStatus::Ok;
    std::optional<int64_t> currentLag;
    // Share of the window filled with commits (Burrow's "complete"): below 1 the verdict
    // rests on fewer commits than configured.
    double complete = 0;
    std::optional<CommitObservation> start; // oldest commit in the window
    std::optional<CommitObservation> end;   // newest commit in the window
    QString reason;                         // why this verdict, for a tooltip
};

struct GroupHealth {
    QString group;
    GroupStatus status = GroupStatus::NotFound;
    QList<PartitionHealth> partitions; // sorted by topic, then partition
    int64_t totalLag = 0;
    std::optional<PartitionHealth> maxLag; // the partition with the highest current lag
    double complete = 0;                   // share of partitions with a full window
};

} // namespace groupscope::lag
