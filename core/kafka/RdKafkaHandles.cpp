#include "kafka/RdKafkaHandles.h"

#include <librdkafka/rdkafka.h>

namespace groupscope::kafka::detail {

namespace {
template <typename T, typename Destroy> void destroyIfSet(T* handle, Destroy destroy) {
    if (handle)
        destroy(handle);
}
} // namespace

// clang-format off
void HandleDeleter::operator()(rd_kafka_t* h) const noexcept { destroyIfSet(h, rd_kafka_destroy); }
void HandleDeleter::operator()(rd_kafka_conf_t* h) const noexcept { destroyIfSet(h, rd_kafka_conf_destroy); }
void HandleDeleter::operator()(rd_kafka_topic_partition_list_t* h) const noexcept { destroyIfSet(h, rd_kafka_topic_partition_list_destroy); }
void HandleDeleter::operator()(rd_kafka_event_t* h) const noexcept { destroyIfSet(h, rd_kafka_event_destroy); }
void HandleDeleter::operator()(rd_kafka_queue_t* h) const noexcept { destroyIfSet(h, rd_kafka_queue_destroy); }
void HandleDeleter::operator()(rd_kafka_message_t* h) const noexcept { destroyIfSet(h, rd_kafka_message_destroy); }
void HandleDeleter::operator()(rd_kafka_AdminOptions_t* h) const noexcept { destroyIfSet(h, rd_kafka_AdminOptions_destroy); }
void HandleDeleter::operator()(rd_kafka_error_t* h) const noexcept { destroyIfSet(h, rd_kafka_error_destroy); }
void HandleDeleter::operator()(rd_kafka_topic_t* h) const noexcept { destroyIfSet(h, rd_kafka_topic_destroy); }
void HandleDeleter::operator()(rd_kafka_ListConsumerGroupOffsets_t* h) const noexcept { destroyIfSet(h, rd_kafka_ListConsumerGroupOffsets_destroy); }
void HandleDeleter::operator()(rd_kafka_AlterConsumerGroupOffsets_t* h) const noexcept { destroyIfSet(h, rd_kafka_AlterConsumerGroupOffsets_destroy); }
void HandleDeleter::operator()(rd_kafka_DeleteConsumerGroupOffsets_t* h) const noexcept { destroyIfSet(h, rd_kafka_DeleteConsumerGroupOffsets_destroy); }
void HandleDeleter::operator()(const rd_kafka_metadata_t* h) const noexcept { destroyIfSet(h, rd_kafka_metadata_destroy); }
void HandleDeleter::operator()(rd_kafka_NewTopic_t* h) const noexcept { destroyIfSet(h, rd_kafka_NewTopic_destroy); }
void HandleDeleter::operator()(rd_kafka_ConfigResource_t* h) const noexcept { destroyIfSet(h, rd_kafka_ConfigResource_destroy); }
void HandleDeleter::operator()(rd_kafka_TopicCollection_t* h) const noexcept { destroyIfSet(h, rd_kafka_TopicCollection_destroy); }
// clang-format on

} // namespace groupscope::kafka::detail

namespace groupscope::kafka {

void destroyWithoutConsumerClose(KafkaHandle handle) {
    if (rd_kafka_t* raw = handle.release())
        rd_kafka_destroy_flags(raw, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
}

} // namespace groupscope::kafka
