#pragma once
// The words every view (CLI, GUI, exporter help) uses for a LagDetail, in one place so
// the same figure is never labelled two ways.

#include "snapshot/LagDetail.h"

#include <QString>

#include <optional>

namespace groupscope::lag {

// "0", "12", or "–" when not decided; "no commit" without a commit.
QString effectiveLagText(const LagDetail& detail, bool hasCommit);
// The oldest unconsumed record, labelled: "4m 10s old (exact)", "≥ 2s old (batch time)",
// "no timestamp", "caught up", "in an open transaction", "–" when not read.
QString oldestRecordText(const LagDetail& detail, int64_t nowMs);
// Its age in milliseconds at `nowMs`, when the record's time is known.
std::optional<int64_t> oldestRecordAgeMs(const LagDetail& detail, int64_t nowMs);
// Machine names for JSON and metrics: "exact", "batchTime", "noTimestamp", "heldBack",
// "notRead", "notNeeded".
QString oldestRecordStatusName(LagDetail::OldestRecord status);
// The group total's note: "2 partitions without a commit", empty for none.
QString withoutCommitText(int partitions);

} // namespace groupscope::lag
