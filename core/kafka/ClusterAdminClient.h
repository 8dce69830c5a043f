#pragma once

#include "kafka/AdminClient.h"

#include <chrono>
#include <optional>

namespace groupscope::kafka {

namespace protocol {
class ClusterConnections;
class Struct;
} // namespace protocol

// The own protocol client's cluster requests: Metadata (partitions and leaders, the
// cluster id, topic ids), CreateTopics and DescribeConfigs. Calls block until the client's
// timeout; one thread at a time.
class ClusterAdminClient {
public:
    using Milliseconds = std::chrono::milliseconds;

    ClusterAdminClient(protocol::ClusterConnections& cluster, Milliseconds timeout)
        : m_cluster(cluster)
        , m_timeout(timeout) {}

    void setTimeout(Milliseconds timeout) { m_timeout = timeout; }

    // The partitions of the named topics (every topic when empty) with their leaders,
    // sorted; a named topic that does not exist is an error naming it.
    Result<QList<PartitionInfo>> describePartitions(const QStringList& topics);
    Result<QString> clusterId();
    // Every topic's name by its id in Kafka's text form: one Metadata request (v10+).
    Result<QHash<QString, QString>> topicNamesById();
    Status createTopics(const QList<NewTopic>& topics);
    Result<std::optional<QString>> brokerConfig(int32_t brokerId, const QString& name);

private:
    using Deadline = std::chrono::steady_clock::time_point;
    Deadline deadline() const { return std::chrono::steady_clock::now() + m_timeout; }
    // One Metadata request for the named topics (all when `allTopics`, none when empty).
    Result<protocol::Struct> metadata(const QStringList& topics, bool allTopics);

    protocol::ClusterConnections& m_cluster;
    Milliseconds m_timeout;
};

} // namespace groupscope::kafka
