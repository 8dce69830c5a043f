#pragma once
// `describe --lag-detail`: after Kafka's own table (unchanged), what each lag is made of.

#include "snapshot/GroupSnapshot.h"

#include <QTextStream>

namespace groupscope::cli {

// One row per partition: plain lag, last stable offset and the lag to it, effective lag
// and why, the oldest unconsumed record's age; then the group's totals (with the
// partitions without a commit counted apart) and each figure that could not be computed.
void printLagDetail(QTextStream& out, const monitor::GroupSnapshot& group, int64_t nowMs);

} // namespace groupscope::cli
