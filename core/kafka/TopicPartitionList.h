#pragma once
// Conversions between TopicPartition values and librdkafka's topic-partition lists, kept
// beside the handles so that no caller writes the C list by hand.

#include "kafka/RdKafkaHandles.h"
#include "kafka/TopicPartition.h"

#include <QHash>
#include <QList>
#include <QPair>
#include <QStringList>

namespace groupscope::kafka {

// A list of the partitions, in the given order (duplicates kept).
TopicPartitionListHandle makeTopicPartitionList(const QList<TopicPartition>& partitions);
// A list of the partitions with each element's offset field set: an offset to commit or
// seek to, or a timestamp for rd_kafka_offsets_for_times.
TopicPartitionListHandle
makeTopicPartitionList(const QList<QPair<TopicPartition, int64_t>>& partitionsWithOffsets);
// Sets the metadata of the list's elements named in `metadata` (commit metadata).
void setPartitionMetadata(rd_kafka_topic_partition_list_t* list,
                          const QHash<TopicPartition, QString>& metadata);
// A subscription: every topic with an unassigned partition (RD_KAFKA_PARTITION_UA).
TopicPartitionListHandle makeTopicSubscriptionList(const QStringList& topics);

// The list's partitions, in its order; an empty list for null.
QList<TopicPartition> toTopicPartitions(const rd_kafka_topic_partition_list_t* list);
// The partition of one element.
TopicPartition toTopicPartition(const rd_kafka_topic_partition_t& element);

} // namespace groupscope::kafka
