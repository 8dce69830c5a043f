#pragma once

#include "kafka/AdminClient.h"
#include "kafka/LibrdkafkaClusterRequests.h"
#include "kafka/LibrdkafkaConnection.h"
#include "kafka/LibrdkafkaGroupRequests.h"

namespace groupscope::kafka {

// The AdminClient for profiles Groupscope's own protocol client cannot speak (GSSAPI,
// PKCS#12 keystores, inline PEM), or when GROUPSCOPE_GROUP_CLIENT=librdkafka asks for it:
// everything through one librdkafka handle (LibrdkafkaConnection) and its admin API. What
// that costs (no share or streams groups, no epochs, no lag detail, one request per group)
// is fallbackNote().
class LibrdkafkaAdminClient final : public AdminClient {
public:
    // `why` is the reason the own client is not used (GroupClientChoice::reason).
    static Result<std::unique_ptr<AdminClient>> create(const ConnectionProfile& profile,
                                                       Milliseconds timeout, const KafkaError& why);

    Result<QList<GroupListing>> listGroups() override { return m_groups.listGroups(); }
    Result<QList<GroupDescription>> describeGroups(const QStringList& groupIds) override {
        return m_groups.describeGroups(groupIds);
    }
    Result<QHash<QString, QList<CommittedOffset>>>
    listCommittedOffsets(const QStringList& groupIds) override {
        return m_groups.listCommittedOffsets(groupIds);
    }
    Result<QList<LogOffsets>> logOffsets(const QList<TopicPartition>& partitions) override {
        return m_cluster.logOffsets(partitions);
    }
    Result<QList<PartitionInfo>> describePartitions(const QStringList& topics) override {
        return m_cluster.describePartitions(topics);
    }
    Result<QString> clusterId() override { return m_cluster.clusterId(); }
    Result<QHash<QString, QString>> topicNamesById() override { return m_cluster.topicNamesById(); }
    Result<QHash<TopicPartition, int64_t>>
    offsetsForTimestamps(const QList<QPair<TopicPartition, int64_t>>& timestamps) override {
        return m_cluster.offsetsForTimestamps(timestamps);
    }
    // Lag detail needs the own protocol client: an error that says so.
    Result<QList<StableOffset>> lastStableOffsets(const QList<TopicPartition>& partitions) override;
    Result<QList<LogRead>> readLogs(const QList<LogReadRequest>& requests) override;
    Result<QList<PartitionOutcome>>
    alterCommittedOffsets(const QString& groupId,
                          const QList<QPair<TopicPartition, int64_t>>& offsets,
                          const QHash<TopicPartition, QString>& metadata) override {
        return m_groups.alterCommittedOffsets(groupId, offsets, metadata);
    }
    Result<QList<PartitionOutcome>>
    deleteCommittedOffsets(const QString& groupId,
                           const QList<TopicPartition>& partitions) override {
        return m_groups.deleteCommittedOffsets(groupId, partitions);
    }
    Result<QHash<QString, KafkaError>> deleteGroups(const QStringList& groupIds) override {
        return m_groups.deleteGroups(groupIds);
    }
    Status createTopics(const QList<NewTopic>& topics) override {
        return m_cluster.createTopics(topics);
    }
    Result<std::optional<QString>> brokerConfig(int32_t brokerId, const QString& name) override {
        return m_cluster.brokerConfig(brokerId, name);
    }

    void setCancelFlag(const std::atomic<bool>* cancelled) override;
    void setTimeout(Milliseconds timeout) override;
    QString fallbackNote() const override;
    bool batchesGroupsPerCoordinator() const override { return false; }
    // True once a broker answered a group request with NOT_COORDINATOR: the group's
    // coordinator moved (a broker shut down, or leadership of the offsets topic moved back
    // to its preferred replica). librdkafka 2.0 caches the coordinator it looked up for as
    // long as the handle keeps using it, and an Admin request's NOT_COORDINATOR answer only
    // makes it look up the handle's own (private) group's coordinator, never evicts the
    // cached one (librdkafka issue 5040 shows the same OffsetFetch path in 2.4). While the
    // old coordinator still runs, every later call for that group would fail the same way.
    bool coordinatorMoved() const override { return m_connection->coordinatorMoved(); }

private:
    LibrdkafkaAdminClient(const ConnectionProfile& profile, Milliseconds timeout, KafkaError why,
                          std::unique_ptr<LibrdkafkaConnection> connection);

    KafkaError m_whyNotOwnClient;
    std::unique_ptr<LibrdkafkaConnection> m_connection;
    LibrdkafkaGroupRequests m_groups;
    LibrdkafkaClusterRequests m_cluster;
};

} // namespace groupscope::kafka
