#pragma once

#include "consumer/RepositionTarget.h"
#include "kafka/ConnectionProfile.h"

#include <QList>
#include <QPair>
#include <QString>

#include <chrono>

namespace groupscope::consumer {

// How a session with a group joins it: the classic protocol (JoinGroup/SyncGroup, the
// client's assignor) or the consumer protocol of KIP-848 (the broker assigns, partitions
// move one at a time). librdkafka refuses a client-side assignor with the latter.
enum class GroupProtocol { Classic, Consumer };

struct ConsumerSessionOptions {
    kafka::ConnectionProfile profile;
    // Empty: no group. Partitions are then assigned by hand and nothing can be committed.
    QString groupId;
    GroupProtocol groupProtocol = GroupProtocol::Classic;
    // Classic protocol only: "range" or "roundrobin" rebalance EAGERly;
    // "cooperative-sticky" COOPERATIVEly. The consumer protocol is always incremental.
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
