#pragma once

#include <librdkafka/rdkafka.h>

#include "kafka/RdKafkaHandles.h"

#include <QByteArrayView>
#include <QList>
#include <QPair>
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
    // Whether the producer set the time (CreateTime), or the broker did (LogAppendTime).
    rd_kafka_timestamp_type_t timestampType() const {
        rd_kafka_timestamp_type_t type = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
        rd_kafka_message_timestamp(m_message.get(), &type);
        return type;
    }
    // The record's headers in order (a name may repeat); a null value stays null.
    QList<QPair<QString, QByteArray>> headers() const {
        QList<QPair<QString, QByteArray>> all;
        rd_kafka_headers_t* headers = nullptr;
        if (rd_kafka_message_headers(m_message.get(), &headers) != RD_KAFKA_RESP_ERR_NO_ERROR)
            return all;
        const char* name = nullptr;
        const void* value = nullptr;
        size_t size = 0;
        for (size_t i = 0; !rd_kafka_header_get_all(headers, i, &name, &value, &size); ++i)
            all.append({QString::fromUtf8(name),
                        value ? QByteArray(static_cast<const char*>(value), qsizetype(size))
                              : QByteArray()});
        return all;
    }

private:
    kafka::MessageHandle m_message;
};

} // namespace groupscope::consumer
