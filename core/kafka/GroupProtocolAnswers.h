#pragma once
// The group protocol client's requests per coordinator and the reading of their answers
// into Groupscope's value types (GroupTypes.h). Internal to GroupProtocolClient.

#include "kafka/GroupTypes.h"
#include "kafka/protocol/BrokerConnection.h"

#include <QHash>
#include <QStringList>

#include <functional>
#include <optional>

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
// the others. A group the coordinator does not know as one of this type is described
// once more as the other consumer type when `retype` (a classic group converts to a
// consumer group and back); one that is not found either way is Dead with no members.
// In two halves, so that every coordinator has its request before any answer is read:
// sendDescribe() sends the request, readDescribe() reads its answer.
struct SentDescribe {
    GroupType type = GroupType::Classic; // the type described (classic on a broker too old
                                         // to know consumer groups)
    QStringList groupIds;
    bool retype = true;
    std::optional<protocol::BrokerConnection::PendingAnswer> pending; // none: not supported
};
SentDescribe sendDescribe(const DescribeBatch& batch, GroupType type, const QStringList& groupIds,
                          bool retype = true);
DescribeOutcome readDescribe(const DescribeBatch& batch, const SentDescribe& sent);
DescribeOutcome describeOfType(const DescribeBatch& batch, GroupType type,
                               const QStringList& groupIds, bool retype = true);

// OffsetFetch for a batch of one coordinator's groups: one request from v8 on, one per
// group on older brokers. Sends it and returns the reader of the answer, which adds each group's
// committed offsets to `offsets` (partitions without a commit are left out) and its
// failure to `failures`, and returns the groups whose coordinator moved.
std::function<QStringList()> fetchCommittedOffsets(protocol::BrokerConnection& connection,
                                                   int16_t newestVersion,
                                                   const QStringList& groupIds,
                                                   protocol::BrokerConnection::Deadline deadline,
                                                   QHash<QString, QList<CommittedOffset>>& offsets,
                                                   QHash<QString, KafkaError>& failures);

} // namespace groupscope::kafka::detail
