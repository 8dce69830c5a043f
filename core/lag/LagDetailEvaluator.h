#pragma once

#include "kafka/LogReads.h"
#include "kafka/PartitionPosition.h"
#include "snapshot/LagDetail.h"

namespace groupscope::lag {

// Decides a partition's LagDetail from its position, its last stable offset and the
// records read after its commit. Pure: the reads are done elsewhere (LagDetailReader).
class LagDetailEvaluator {
public:
    // `stable` and `read` may be null (not asked); `notReadReason` says why the log was not
    // read when `read` is null and the lag is positive.
    static LagDetail evaluate(const kafka::PartitionPosition& position,
                              const kafka::StableOffset* stable, const kafka::LogRead* read,
                              const QString& notReadReason = {});

private:
    static void classify(const kafka::PartitionPosition& position, const kafka::LogRead& read,
                         LagDetail& detail);
};

} // namespace groupscope::lag
