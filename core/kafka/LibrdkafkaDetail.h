#pragma once
// Helpers that the librdkafka admin sources share (LibrdkafkaConnection.cpp defines them). Only
// core/kafka includes this.

#include "kafka/KafkaError.h"
#include "kafka/RdKafkaHandles.h"

#include <QString>

#include <chrono>

namespace groupscope::kafka::detail {

// Milliseconds left until `deadline`, at least 0, as librdkafka's timeouts take them.
int remainingMs(std::chrono::steady_clock::time_point deadline);
QString fromUtf8OrEmpty(const char* text);
// A copy of an event's error as a value; the event keeps ownership of its strings.
KafkaError eventError(rd_kafka_event_t* event);
// A copy of an error object's fields; the caller keeps ownership of the object.
KafkaError borrowedError(const rd_kafka_error_t* raw);

} // namespace groupscope::kafka::detail
