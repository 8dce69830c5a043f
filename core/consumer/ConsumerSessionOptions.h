#pragma once

#include "consumer/RepositionTarget.h"
#include "kafka/ConnectionProfile.h"

#include <QList>
#include <QPair>
#include <QString>

#include <chrono>

namespace groupscope::consumer {

struct ConsumerSessionOptions {
    kafka::ConnectionProfile profile;
    // Empty: no group. Partitions are then assigned by hand and nothing can be committed.
    QString groupId;
    // "range" or "roundrobin" rebalance EAGERly; "cooperative-sticky" COOPERATIVEly.
    QString assignmentStrategy = QStringLiteral("range");
    // Messages buffered per partition before the partition is paused in librdkafka.
    size_t bufferCapacity = 10000;
    // Where a partition without a committed offset starts.
    RepositionTarget whenNoCommittedOffset = RepositionTarget::earliest();
    // Where a partition whose position fell outside the log continues.
    RepositionTarget afterOutOfRange = RepositionTarget::earliest();
    // Commit the processed positions of partitions taken away by a rebalance.
    bool commitOnRevoke = true;
    // Bound on every blocking broker request the session makes (resolve, seek, commit).
    std::chrono::milliseconds operationTimeout{10000};
    // Further librdkafka properties; they win over the session's defaults.
    QList<QPair<QString, QString>> properties;
};

} // namespace groupscope::consumer
