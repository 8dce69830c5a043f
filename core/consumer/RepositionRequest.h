#pragma once

#include "consumer/RepositionTarget.h"
#include "kafka/TopicPartition.h"

#include <QMap>

namespace groupscope::consumer {

// One call to the reposition engine: a target per partition, and whether the new
// positions are committed to the group once the seek is done.
struct RepositionRequest {
    QMap<kafka::TopicPartition, RepositionTarget> targets;
    bool commit = false;
};

} // namespace groupscope::consumer
