#pragma once
// The group protocol client's requests per coordinator and the reading of their answers
// into Groupscope's value types (GroupTypes.h). Internal to GroupProtocolClient.

#include "kafka/GroupTypes.h"
#include "kafka/protocol/BrokerConnection.h"

#include <QHash>
#include <QStringList>

namespace groupscope::kafka::detail {

GroupListing listingOf(const protocol::Struct& group);

struct DescribeBatch {
    protocol::BrokerConnection& connection;
    protocol::BrokerConnection::Deadline deadline;
    QString coordinatorName; // for errors
};

struct DescribeOutcome {
    QList<GroupDescription> described; // including per-group failures
    QStringList coordinatorMoved;      // to look up and ask again
};

// Describes groups of one type on their coordinator with one request: DescribeGroups for
// classic groups, ConsumerGroupDescribe, ShareGroupDescribe or StreamsGroupDescribe for
// the others. A consumer group that the coordinator no longer knows as one (it became
// classic, or was deleted) is described again with DescribeGroups in the same batch.
DescribeOutcome describeOfType(const DescribeBatch& batch, GroupType type,
                               const QStringList& groupIds);

// OffsetFetch for the groups of one coordinator: one request from v8 on, one per group on
// older brokers. Adds each group's committed offsets to `offsets` (partitions without a
// commit are left out) and its failure to `failures`; returns the groups whose
// coordinator moved.
QStringList fetchCommittedOffsets(protocol::BrokerConnection& connection, int16_t newestVersion,
                                  const QStringList& groupIds,
                                  protocol::BrokerConnection::Deadline deadline,
                                  QHash<QString, QList<CommittedOffset>>& offsets,
                                  QHash<QString, KafkaError>& failures);

} // namespace groupscope::kafka::detail
