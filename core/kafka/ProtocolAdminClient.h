#pragma once

#include "kafka/AdminClient.h"
#include "kafka/ClusterAdminClient.h"
#include "kafka/GroupProtocolClient.h"
#include "kafka/GroupWriteClient.h"
#include "kafka/PartitionLeaderClient.h"

namespace groupscope::kafka {

// The AdminClient of Groupscope's own protocol client: groups through the coordinators
// (GroupProtocolClient reads, GroupWriteClient writes), log offsets and log reads through the
// partition leaders (PartitionLeaderClient), metadata, topics and configs (ClusterAdminClient), all
// over the same connections, one per broker, each authenticated once.
class ProtocolAdminClient final : public AdminClient {
public:
    // An error when the profile needs something the own client does not speak (AdminClient
    // then falls back to librdkafka). Nothing is connected until the first request.
    static Result<std::unique_ptr<AdminClient>> create(const ConnectionProfile& profile,
                                                       Milliseconds timeout);

    Result<QList<GroupListing>> listGroups() override { return m_groups->listGroups(); }
    Result<QList<GroupDescription>> describeGroups(const QStringList& groupIds) override {
        return m_groups->describeGroups(groupIds);
    }
    Result<QHash<QString, QList<CommittedOffset>>>
    listCommittedOffsets(const QStringList& groupIds) override {
        return m_groups->committedOffsets(groupIds);
    }
    Result<QList<LogOffsets>> logOffsets(const QList<TopicPartition>& partitions) override {
        return m_leaders.logOffsets(partitions);
    }
    Result<QList<PartitionInfo>> describePartitions(const QStringList& topics) override {
        return m_cluster.describePartitions(topics);
    }
    Result<QString> clusterId() override { return m_cluster.clusterId(); }
    Result<QHash<QString, QString>> topicNamesById() override { return m_cluster.topicNamesById(); }
    Result<QHash<TopicPartition, int64_t>>
    offsetsForTimestamps(const QList<QPair<TopicPartition, int64_t>>& timestamps) override {
        return m_leaders.offsetsForTimestamps(timestamps);
    }
    Result<QList<StableOffset>>
    lastStableOffsets(const QList<TopicPartition>& partitions) override {
        return m_leaders.lastStableOffsets(partitions);
    }
    Result<QList<LogRead>> readLogs(const QList<LogReadRequest>& requests) override {
        return m_leaders.readLogs(requests);
    }
    Result<QList<PartitionOutcome>>
    alterCommittedOffsets(const QString& groupId,
                          const QList<QPair<TopicPartition, int64_t>>& offsets,
                          const QHash<TopicPartition, QString>& metadata) override;
    Result<QList<PartitionOutcome>>
    deleteCommittedOffsets(const QString& groupId,
                           const QList<TopicPartition>& partitions) override;
    Result<QHash<QString, KafkaError>> deleteGroups(const QStringList& groupIds) override {
        return m_writes.deleteGroups(groupIds);
    }
    Status createTopics(const QList<NewTopic>& topics) override {
        return m_cluster.createTopics(topics);
    }
    Result<std::optional<QString>> brokerConfig(int32_t brokerId, const QString& name) override {
        return m_cluster.brokerConfig(brokerId, name);
    }

    void setCancelFlag(const std::atomic<bool>* cancelled) override;
    void setTimeout(Milliseconds timeout) override;
    QString fallbackNote() const override { return {}; }
    bool batchesGroupsPerCoordinator() const override { return true; }

private:
    ProtocolAdminClient(const ConnectionProfile& profile, Milliseconds timeout,
                        std::unique_ptr<GroupProtocolClient> groups);
    // A share group's start offsets can only be deleted for whole topics.
    Result<QList<PartitionOutcome>>
    deleteShareStartOffsets(const QString& groupId, const QList<TopicPartition>& partitions);

    std::unique_ptr<GroupProtocolClient> m_groups; // owns the connections the others share
    GroupWriteClient m_writes;
    PartitionLeaderClient m_leaders;
    ClusterAdminClient m_cluster;
};

} // namespace groupscope::kafka
