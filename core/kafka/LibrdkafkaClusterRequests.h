#pragma once

#include "kafka/AdminClient.h"
#include "kafka/LibrdkafkaConnection.h"

#include <QHash>
#include <QList>

#include <optional>

namespace groupscope::kafka {

// The librdkafka fallback's cluster requests: log offsets (start, end, by timestamp),
// metadata and topic ids, creating topics, broker configuration.
class LibrdkafkaClusterRequests {
public:
    using Deadline = LibrdkafkaConnection::Deadline;

    explicit LibrdkafkaClusterRequests(LibrdkafkaConnection& connection)
        : m_connection(connection) {}

    Result<QList<LogOffsets>> logOffsets(const QList<TopicPartition>& partitions);
    Result<QHash<TopicPartition, int64_t>>
    offsetsForTimestamps(const QList<QPair<TopicPartition, int64_t>>& timestamps);
    Result<QList<PartitionInfo>> describePartitions(const QStringList& topics);
    Result<QString> clusterId();
    // Metadata, then one DescribeTopics.
    Result<QHash<QString, QString>> topicNamesById();
    Status createTopics(const QList<NewTopic>& topics);
    Result<std::optional<QString>> brokerConfig(int32_t brokerId, const QString& name);

private:
    // Asks the brokers again for the partitions' leaders of the topics in `list`, within
    // the deadline: after a leader moved, librdkafka keeps asking the old leader until its
    // periodic metadata refresh (minutes away), and a stopped broker never answers.
    void refreshLeaders(const rd_kafka_topic_partition_list_t* list, Deadline until);
    // rd_kafka_offsets_for_times, asked again while leadership is moving, until the deadline.
    // Returns its last rd_kafka_resp_err_t.
    int offsetsForTimesWithRetry(rd_kafka_topic_partition_list_t* list, Deadline until);
    Result<QList<LogOffsets>> queryOffsets(rd_kafka_topic_partition_list_t* list, int64_t spec,
                                           Deadline deadline);
    // The result event of a topic admin request (create topics, describe configs).
    Result<EventHandle> waitForTopicAdmin(rd_kafka_event_type_t type, const QString& what);

    LibrdkafkaConnection& m_connection;
};

} // namespace groupscope::kafka
