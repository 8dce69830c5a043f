#pragma once
// One deleter and one std::unique_ptr alias per librdkafka C handle type. This is the only
// file that names the C *_destroy functions; everything else owns handles through these.

#include <librdkafka/rdkafka.h>

#include <memory>

namespace groupscope::kafka {

namespace detail {
template <typename T, void (*Destroy)(T*)> struct Deleter {
    void operator()(T* handle) const noexcept {
        if (handle)
            Destroy(handle);
    }
};
} // namespace detail

// rd_kafka_destroy blocks until the handle's threads have stopped; it must not run on a
// librdkafka callback thread.
using KafkaHandle = std::unique_ptr<rd_kafka_t, detail::Deleter<rd_kafka_t, rd_kafka_destroy>>;
using ConfHandle =
    std::unique_ptr<rd_kafka_conf_t, detail::Deleter<rd_kafka_conf_t, rd_kafka_conf_destroy>>;
using TopicPartitionListHandle = std::unique_ptr<
    rd_kafka_topic_partition_list_t,
    detail::Deleter<rd_kafka_topic_partition_list_t, rd_kafka_topic_partition_list_destroy>>;
using EventHandle =
    std::unique_ptr<rd_kafka_event_t, detail::Deleter<rd_kafka_event_t, rd_kafka_event_destroy>>;
using QueueHandle =
    std::unique_ptr<rd_kafka_queue_t, detail::Deleter<rd_kafka_queue_t, rd_kafka_queue_destroy>>;
using MessageHandle =
    std::unique_ptr<rd_kafka_message_t,
                    detail::Deleter<rd_kafka_message_t, rd_kafka_message_destroy>>;
using AdminOptionsHandle =
    std::unique_ptr<rd_kafka_AdminOptions_t,
                    detail::Deleter<rd_kafka_AdminOptions_t, rd_kafka_AdminOptions_destroy>>;
using ErrorHandle =
    std::unique_ptr<rd_kafka_error_t, detail::Deleter<rd_kafka_error_t, rd_kafka_error_destroy>>;
using TopicHandle =
    std::unique_ptr<rd_kafka_topic_t, detail::Deleter<rd_kafka_topic_t, rd_kafka_topic_destroy>>;
using ListConsumerGroupOffsetsHandle =
    std::unique_ptr<rd_kafka_ListConsumerGroupOffsets_t,
                    detail::Deleter<rd_kafka_ListConsumerGroupOffsets_t,
                                    rd_kafka_ListConsumerGroupOffsets_destroy>>;
using AlterConsumerGroupOffsetsHandle =
    std::unique_ptr<rd_kafka_AlterConsumerGroupOffsets_t,
                    detail::Deleter<rd_kafka_AlterConsumerGroupOffsets_t,
                                    rd_kafka_AlterConsumerGroupOffsets_destroy>>;
using DeleteConsumerGroupOffsetsHandle =
    std::unique_ptr<rd_kafka_DeleteConsumerGroupOffsets_t,
                    detail::Deleter<rd_kafka_DeleteConsumerGroupOffsets_t,
                                    rd_kafka_DeleteConsumerGroupOffsets_destroy>>;
using MetadataHandle =
    std::unique_ptr<const rd_kafka_metadata_t,
                    detail::Deleter<const rd_kafka_metadata_t, rd_kafka_metadata_destroy>>;
using NewTopicHandle =
    std::unique_ptr<rd_kafka_NewTopic_t,
                    detail::Deleter<rd_kafka_NewTopic_t, rd_kafka_NewTopic_destroy>>;

} // namespace groupscope::kafka
