#pragma once

#include "consumer/RepositionTarget.h"
#include "kafka/RdKafkaHandles.h"
#include "kafka/Result.h"
#include "kafka/TopicPartition.h"

#include <QMap>

#include <chrono>
#include <map>

namespace groupscope::consumer {

// Turns reposition targets into absolute offsets with as few requests as possible: one
// OffsetFetch for all committed targets, and one ListOffsets round (librdkafka sends one
// request per partition leader) for all timestamps, earliest and latest targets together.
// A timestamp after the last message resolves to the log end, as Kafka's own tool does.
class OffsetResolver {
public:
    OffsetResolver(rd_kafka_t* consumer, std::chrono::milliseconds timeout,
                   RepositionTarget whenNoCommittedOffset);

    std::map<kafka::TopicPartition, kafka::Result<int64_t>>
    resolve(const QMap<kafka::TopicPartition, RepositionTarget>& targets) const;

private:
    // Replaces committed targets by their offset (or the fallback target); errors go to `into`.
    void resolveCommitted(QMap<kafka::TopicPartition, RepositionTarget>& targets,
                          std::map<kafka::TopicPartition, kafka::Result<int64_t>>& into) const;
    // Resolves timestamps and logical targets through offsets-for-times, asking again
    // where the partition's leader was not known yet.
    void resolveByListOffsets(const QMap<kafka::TopicPartition, RepositionTarget>& targets,
                              std::map<kafka::TopicPartition, kafka::Result<int64_t>>& into) const;
    void listOffsetsOnce(const QMap<kafka::TopicPartition, RepositionTarget>& targets,
                         std::map<kafka::TopicPartition, kafka::Result<int64_t>>& into) const;

    rd_kafka_t* m_consumer;
    std::chrono::milliseconds m_timeout;
    RepositionTarget m_whenNoCommittedOffset;
};

} // namespace groupscope::consumer
