#pragma once

#include "kafka/GroupTypes.h"
#include "kafka/LibrdkafkaConnection.h"

#include <QHash>
#include <QList>
#include <QStringList>

namespace groupscope::kafka {

// The librdkafka fallback's group requests: listing, describing, committed offsets read,
// altered and deleted, whole groups deleted. librdkafka asks one group per request for
// describes and offsets; they run concurrently.
class LibrdkafkaGroupRequests {
public:
    using Deadline = LibrdkafkaConnection::Deadline;

    explicit LibrdkafkaGroupRequests(LibrdkafkaConnection& connection)
        : m_connection(connection) {}

    Result<QList<GroupListing>> listGroups();
    Result<QList<GroupDescription>> describeGroups(const QStringList& groupIds);
    Result<QHash<QString, QList<CommittedOffset>>>
    listCommittedOffsets(const QStringList& groupIds);
    Result<QList<PartitionOutcome>>
    alterCommittedOffsets(const QString& groupId,
                          const QList<QPair<TopicPartition, int64_t>>& offsets,
                          const QHash<TopicPartition, QString>& metadata);
    Result<QList<PartitionOutcome>> deleteCommittedOffsets(const QString& groupId,
                                                           const QList<TopicPartition>& partitions);
    Result<QHash<QString, KafkaError>> deleteGroups(const QStringList& groupIds);

private:
    // One ListConsumerGroups round within `until`; sets `brokerStillLoading` when a broker
    // answered that it is still loading its groups.
    Result<QList<GroupListing>> listGroupsOnce(Deadline until, bool& brokerStillLoading);
    // Waits for an alter or delete result of one group and turns it into outcomes.
    Result<QList<PartitionOutcome>> collectGroupWrite(const Deadline& until, const QString& what,
                                                      bool isDelete);

    LibrdkafkaConnection& m_connection;
};

} // namespace groupscope::kafka
