#include "kafka/TopicPartitionList.h"

#include <librdkafka/rdkafka.h>

#include <cstdlib>
#include <cstring>

namespace groupscope::kafka {

TopicPartitionListHandle makeTopicPartitionList(const QList<TopicPartition>& partitions) {
    TopicPartitionListHandle list(rd_kafka_topic_partition_list_new(int(partitions.size())));
    for (const TopicPartition& partition : partitions)
        rd_kafka_topic_partition_list_add(list.get(), partition.topic.toUtf8().constData(),
                                          partition.partition);
    return list;
}

TopicPartitionListHandle
makeTopicPartitionList(const QList<QPair<TopicPartition, int64_t>>& partitionsWithOffsets) {
    TopicPartitionListHandle list(
        rd_kafka_topic_partition_list_new(int(partitionsWithOffsets.size())));
    for (const auto& [partition, offset] : partitionsWithOffsets)
        rd_kafka_topic_partition_list_add(list.get(), partition.topic.toUtf8().constData(),
                                          partition.partition)
            ->offset = offset;
    return list;
}

void setPartitionMetadata(rd_kafka_topic_partition_list_t* list,
                          const QHash<TopicPartition, QString>& metadata) {
    for (int i = 0; list && i < list->cnt; ++i) {
        rd_kafka_topic_partition_t& element = list->elems[i];
        const auto found = metadata.constFind(toTopicPartition(element));
        if (found == metadata.cend() || found->isEmpty())
            continue;
        const QByteArray bytes = found->toUtf8();
        // The list owns and frees its elements' metadata (rd_free, which is free()).
        void* copy = std::malloc(size_t(bytes.size()));
        if (!copy)
            continue;
        std::memcpy(copy, bytes.constData(), size_t(bytes.size()));
        std::free(element.metadata);
        element.metadata = copy;
        element.metadata_size = size_t(bytes.size());
    }
}

TopicPartitionListHandle makeTopicSubscriptionList(const QStringList& topics) {
    TopicPartitionListHandle list(rd_kafka_topic_partition_list_new(int(topics.size())));
    for (const QString& topic : topics)
        rd_kafka_topic_partition_list_add(list.get(), topic.toUtf8().constData(),
                                          RD_KAFKA_PARTITION_UA);
    return list;
}

QList<TopicPartition> toTopicPartitions(const rd_kafka_topic_partition_list_t* list) {
    QList<TopicPartition> result;
    if (!list)
        return result;
    result.reserve(list->cnt);
    for (int i = 0; i < list->cnt; ++i)
        result.append(toTopicPartition(list->elems[i]));
    return result;
}

TopicPartition toTopicPartition(const rd_kafka_topic_partition_t& element) {
    return {QString::fromUtf8(element.topic), element.partition};
}

} // namespace groupscope::kafka
