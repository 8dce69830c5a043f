#pragma once

#include <librdkafka/rdkafka.h>

#include "kafka/RdKafkaHandles.h"

#include <QByteArrayView>
#include <QString>

#include <cstdint>

namespace groupscope::consumer {

// One message handed out by a ConsumerSession. It owns the librdkafka message, so the
// payload is never copied on its way from the fetch thread to the caller.
class ConsumedMessage {
public:
    explicit ConsumedMessage(kafka::MessageHandle message)
        : m_message(std::move(message)) {}

    QString topic() const { return QString::fromUtf8(rd_kafka_topic_name(m_message->rkt)); }
    int32_t partition() const { return m_message->partition; }
    int64_t offset() const { return m_message->offset; }
    // Milliseconds since the epoch, or -1 when the message has no timestamp.
    int64_t timestamp() const { return rd_kafka_message_timestamp(m_message.get(), nullptr); }
    QByteArrayView key() const {
        return {static_cast<const char*>(m_message->key), qsizetype(m_message->key_len)};
    }
    QByteArrayView payload() const {
        return {static_cast<const char*>(m_message->payload), qsizetype(m_message->len)};
    }
    size_t size() const { return m_message->len + m_message->key_len; }

private:
    kafka::MessageHandle m_message;
};

} // namespace groupscope::consumer
