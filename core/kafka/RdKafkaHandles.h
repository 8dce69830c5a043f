#pragma once
// One std::unique_ptr alias per librdkafka C handle type, with one deleter for all of them.
// This is the only place that names the C *_destroy functions (in RdKafkaHandles.cpp);
// everything else owns handles through these.
//
// The header names the C types without including librdkafka: headers of core/ that hold
// handles stay includable from the UI and the front ends, which never reach librdkafka's
// API. A source file that calls librdkafka includes <librdkafka/rdkafka.h> itself; these
// declarations are the same typedefs rdkafka.h makes, which C++ allows twice.

#include <memory>

typedef struct rd_kafka_s rd_kafka_t;
typedef struct rd_kafka_conf_s rd_kafka_conf_t;
typedef struct rd_kafka_topic_s rd_kafka_topic_t;
typedef struct rd_kafka_queue_s rd_kafka_queue_t;
typedef struct rd_kafka_op_s rd_kafka_event_t;
typedef struct rd_kafka_error_s rd_kafka_error_t;
typedef struct rd_kafka_message_s rd_kafka_message_t;
typedef struct rd_kafka_topic_partition_s rd_kafka_topic_partition_t;
typedef struct rd_kafka_topic_partition_list_s rd_kafka_topic_partition_list_t;
typedef struct rd_kafka_metadata rd_kafka_metadata_t;
typedef struct rd_kafka_AdminOptions_s rd_kafka_AdminOptions_t;
typedef struct rd_kafka_NewTopic_s rd_kafka_NewTopic_t;
typedef struct rd_kafka_ConfigResource_s rd_kafka_ConfigResource_t;
typedef struct rd_kafka_ListConsumerGroupOffsets_s rd_kafka_ListConsumerGroupOffsets_t;
typedef struct rd_kafka_AlterConsumerGroupOffsets_s rd_kafka_AlterConsumerGroupOffsets_t;
typedef struct rd_kafka_DeleteConsumerGroupOffsets_s rd_kafka_DeleteConsumerGroupOffsets_t;
typedef struct rd_kafka_TopicCollection_s rd_kafka_TopicCollection_t;
typedef int rd_kafka_event_type_t;

namespace groupscope::kafka {

namespace detail {
// Calls the matching rd_kafka_*_destroy; a null handle is left alone.
struct HandleDeleter {
    // rd_kafka_destroy blocks until the handle's threads have stopped; it must not run on
    // a librdkafka callback thread.
    void operator()(rd_kafka_t* handle) const noexcept;
    void operator()(rd_kafka_conf_t* conf) const noexcept;
    void operator()(rd_kafka_topic_partition_list_t* list) const noexcept;
    void operator()(rd_kafka_event_t* event) const noexcept;
    void operator()(rd_kafka_queue_t* queue) const noexcept;
    void operator()(rd_kafka_message_t* message) const noexcept;
    void operator()(rd_kafka_AdminOptions_t* options) const noexcept;
    void operator()(rd_kafka_error_t* error) const noexcept;
    void operator()(rd_kafka_topic_t* topic) const noexcept;
    void operator()(rd_kafka_ListConsumerGroupOffsets_t* request) const noexcept;
    void operator()(rd_kafka_AlterConsumerGroupOffsets_t* request) const noexcept;
    void operator()(rd_kafka_DeleteConsumerGroupOffsets_t* request) const noexcept;
    void operator()(const rd_kafka_metadata_t* metadata) const noexcept;
    void operator()(rd_kafka_NewTopic_t* topic) const noexcept;
    void operator()(rd_kafka_ConfigResource_t* resource) const noexcept;
    void operator()(rd_kafka_TopicCollection_t* topics) const noexcept;
};
} // namespace detail

using KafkaHandle = std::unique_ptr<rd_kafka_t, detail::HandleDeleter>;
// Destroys a consumer without rd_kafka_consumer_close(), for one that never joined a group
// (assign only): it has no group to leave, and close could only wait, in librdkafka 2.14
// now and then forever when the handle goes a moment after its partitions were assigned
// (librdkafka issues 4674 and 4884 describe the same wait).
void destroyWithoutConsumerClose(KafkaHandle handle);
using ConfHandle = std::unique_ptr<rd_kafka_conf_t, detail::HandleDeleter>;
using TopicPartitionListHandle =
    std::unique_ptr<rd_kafka_topic_partition_list_t, detail::HandleDeleter>;
using EventHandle = std::unique_ptr<rd_kafka_event_t, detail::HandleDeleter>;
using QueueHandle = std::unique_ptr<rd_kafka_queue_t, detail::HandleDeleter>;
using MessageHandle = std::unique_ptr<rd_kafka_message_t, detail::HandleDeleter>;
using AdminOptionsHandle = std::unique_ptr<rd_kafka_AdminOptions_t, detail::HandleDeleter>;
using ErrorHandle = std::unique_ptr<rd_kafka_error_t, detail::HandleDeleter>;
using TopicHandle = std::unique_ptr<rd_kafka_topic_t, detail::HandleDeleter>;
using ListConsumerGroupOffsetsHandle =
    std::unique_ptr<rd_kafka_ListConsumerGroupOffsets_t, detail::HandleDeleter>;
using AlterConsumerGroupOffsetsHandle =
    std::unique_ptr<rd_kafka_AlterConsumerGroupOffsets_t, detail::HandleDeleter>;
using DeleteConsumerGroupOffsetsHandle =
    std::unique_ptr<rd_kafka_DeleteConsumerGroupOffsets_t, detail::HandleDeleter>;
using MetadataHandle = std::unique_ptr<const rd_kafka_metadata_t, detail::HandleDeleter>;
using NewTopicHandle = std::unique_ptr<rd_kafka_NewTopic_t, detail::HandleDeleter>;
using ConfigResourceHandle = std::unique_ptr<rd_kafka_ConfigResource_t, detail::HandleDeleter>;
using TopicCollectionHandle = std::unique_ptr<rd_kafka_TopicCollection_t, detail::HandleDeleter>;

} // namespace groupscope::kafka
