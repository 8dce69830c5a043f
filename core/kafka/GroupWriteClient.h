#pragma once

#include "kafka/CoordinatorRequests.h"
#include "kafka/GroupTypes.h"
#include "kafka/Result.h"

#include <QHash>
#include <QList>
#include <QStringList>

#include <chrono>

namespace groupscope::kafka {

// The own protocol client's writes to group coordinators: committed offsets written (as an
// admin, no member and no generation, as Kafka's AlterConsumerGroupOffsets) and deleted, a
// share group's start offsets set and deleted, whole groups deleted. Each partition's or
// group's outcome is reported; a group-level refusal on every partition it concerns.
class GroupWriteClient {
public:
    using Milliseconds = std::chrono::milliseconds;

    GroupWriteClient(CoordinatorRequests& coordinators, Milliseconds timeout)
        : m_coordinators(coordinators)
        , m_timeout(timeout) {}

    void setTimeout(Milliseconds timeout) { m_timeout = timeout; }

    // OffsetCommit with the commit metadata given for a partition. The broker refuses a
    // group with members.
    Result<QList<PartitionOutcome>>
    commitOffsets(const QString& groupId, const QList<QPair<TopicPartition, int64_t>>& offsets,
                  const QHash<TopicPartition, QString>& metadata);
    // OffsetDelete for some partitions.
    Result<QList<PartitionOutcome>> deleteOffsets(const QString& groupId,
                                                  const QList<TopicPartition>& partitions);
    // Sets a share group's start offsets (the broker refuses while the group has members).
    Result<QList<PartitionOutcome>>
    alterShareStartOffsets(const QString& groupId,
                           const QList<QPair<TopicPartition, int64_t>>& offsets);
    // Deletes a share group's state on whole topics (DeleteShareGroupOffsets is per topic):
    // one outcome per partition of `started` (the group's start offsets) in those topics.
    Result<QList<PartitionOutcome>> deleteShareStartOffsets(const QString& groupId,
                                                            const QStringList& topics,
                                                            const QList<ShareStartOffset>& started);
    // DeleteGroups, one request per coordinator; any group type. The broker refuses a group
    // with members (NON_EMPTY_GROUP) and one it does not know (GROUP_ID_NOT_FOUND).
    QHash<QString, KafkaError> deleteGroups(const QStringList& groupIds);

private:
    using Deadline = CoordinatorRequests::Deadline;
    Deadline deadline() const { return std::chrono::steady_clock::now() + m_timeout; }

    CoordinatorRequests& m_coordinators;
    Milliseconds m_timeout;
};

} // namespace groupscope::kafka
