#include "kafka/ProtocolAdminClient.h"

#include <QSet>

namespace groupscope::kafka {

ProtocolAdminClient::ProtocolAdminClient(const ConnectionProfile& profile, Milliseconds timeout,
                                         std::unique_ptr<GroupProtocolClient> groups)
    : AdminClient(profile, timeout)
    , m_groups(std::move(groups))
    , m_writes(m_groups->coordinators(), timeout)
    , m_leaders(m_groups->connections(), timeout)
    , m_cluster(m_groups->connections(), timeout) {}

Result<std::unique_ptr<AdminClient>> ProtocolAdminClient::create(const ConnectionProfile& profile,
                                                                 Milliseconds timeout) {
    auto groups = GroupProtocolClient::create(profile, timeout);
    if (!groups)
        return groups.error();
    return std::unique_ptr<AdminClient>(
        new ProtocolAdminClient(profile, timeout, std::move(groups).value()));
}

void ProtocolAdminClient::setCancelFlag(const std::atomic<bool>* cancelled) {
    AdminClient::setCancelFlag(cancelled);
    m_groups->setCancelFlag(cancelled); // and so the connections' waits
    m_leaders.setCancelFlag(cancelled);
}

void ProtocolAdminClient::setTimeout(Milliseconds timeout) {
    AdminClient::setTimeout(timeout);
    m_groups->setTimeout(timeout);
    m_writes.setTimeout(timeout);
    m_leaders.setTimeout(timeout);
    m_cluster.setTimeout(timeout);
}

Result<QList<PartitionOutcome>>
ProtocolAdminClient::alterCommittedOffsets(const QString& groupId,
                                           const QList<QPair<TopicPartition, int64_t>>& offsets,
                                           const QHash<TopicPartition, QString>& metadata) {
    if (offsets.isEmpty())
        return QList<PartitionOutcome>{};
    // A share group's positions are its start offsets (AlterShareGroupOffsets).
    if (m_groups->typeOf(groupId) == GroupType::Share)
        return m_writes.alterShareStartOffsets(groupId, offsets);
    return m_writes.commitOffsets(groupId, offsets, metadata);
}

Result<QList<PartitionOutcome>>
ProtocolAdminClient::deleteCommittedOffsets(const QString& groupId,
                                            const QList<TopicPartition>& partitions) {
    if (partitions.isEmpty())
        return QList<PartitionOutcome>{};
    if (m_groups->typeOf(groupId) == GroupType::Share)
        return deleteShareStartOffsets(groupId, partitions);
    return m_writes.deleteOffsets(groupId, partitions);
}

Result<QList<PartitionOutcome>>
ProtocolAdminClient::deleteShareStartOffsets(const QString& groupId,
                                             const QList<TopicPartition>& partitions) {
    // DeleteShareGroupOffsets takes whole topics: a request for part of a topic the group
    // has started on would delete more than asked, so it is refused and changes nothing.
    auto started = m_groups->shareStartOffsets({groupId});
    if (!started)
        return started.error();
    QSet<TopicPartition> asked(partitions.cbegin(), partitions.cend());
    QStringList topics;
    for (const TopicPartition& partition : partitions)
        if (!topics.contains(partition.topic))
            topics.append(partition.topic);
    for (const ShareStartOffset& offset : started.value().value(groupId)) {
        if (topics.contains(offset.topicPartition.topic) && !asked.contains(offset.topicPartition))
            return KafkaError::invalidArgument(
                QStringLiteral("share group %1's start offsets can only be deleted for whole "
                               "topics: %2 is not among the partitions given (delete all of "
                               "topic %3, or none)")
                    .arg(groupId, offset.topicPartition.toString(), offset.topicPartition.topic));
    }
    return m_writes.deleteShareStartOffsets(groupId, topics, started.value().value(groupId));
}

} // namespace groupscope::kafka
