#include "kafka/protocol/ResponseFrame.h"

#include "kafka/protocol/MessageCodec.h"
#include "kafka/protocol/WireReader.h"

#include <librdkafka/rdkafka.h>

namespace groupscope::kafka::protocol {

bool ResponseFrame::headerIsFlexible(const ApiSpec& api, int16_t version) {
    // ApiVersions answers with the classic response header even in its flexible
    // versions, so that a client can read the answer before it knows what the broker
    // speaks.
    return api.key != ApiKey::ApiVersions && MessageCodec::isFlexible(api.response, version);
}

Result<int32_t> ResponseFrame::parseSize(QByteArrayView prefix, const QString& broker) {
    WireReader sizeReader(prefix);
    const int32_t size = sizeReader.readInt32("frame size");
    if (sizeReader.failed() || size < 4 || size > maximumSize)
        return KafkaError::fromCode(RD_KAFKA_RESP_ERR__BAD_MSG,
                                    QStringLiteral("%1 sent a frame of %2 bytes (limit %3)")
                                        .arg(broker)
                                        .arg(size)
                                        .arg(maximumSize));
    return size;
}

Result<qsizetype> ResponseFrame::parseHeader(QByteArrayView frame, const ApiSpec& api,
                                             int16_t version, int32_t correlationId,
                                             const QString& broker) {
    WireReader header(frame);
    const int32_t answeredId = header.readInt32("correlation id");
    if (headerIsFlexible(api, version))
        header.skipTaggedFields("response header");
    if (header.failed() || answeredId != correlationId)
        return KafkaError::fromCode(RD_KAFKA_RESP_ERR__BAD_MSG,
                                    QStringLiteral("%1 answered %2 with correlation id %3, "
                                                   "expected %4")
                                        .arg(broker, QLatin1String(api.name))
                                        .arg(answeredId)
                                        .arg(correlationId));
    return qsizetype(header.position());
}

Result<Struct> ResponseFrame::parseBody(QByteArrayView frame, qsizetype bodyStart,
                                        const ApiSpec& api, int16_t version, const QString& broker,
                                        const MessageCodec::StreamedArray* streamed) {
    const QByteArrayView body = frame.sliced(bodyStart);
    Result<Struct> decoded =
        streamed ? MessageCodec::decodeStreaming(api.response, version, body, *streamed)
                 : MessageCodec::decode(api.response, version, body);
    if (!decoded)
        return KafkaError::fromCode(
            decoded.error().code,
            QStringLiteral("%1 from %2").arg(decoded.error().message, broker));
    return decoded;
}

Result<Struct> ResponseFrame::parse(QByteArrayView bytes, const ApiSpec& api, int16_t version,
                                    int32_t correlationId, const QString& broker) {
    if (bytes.size() < sizePrefixBytes)
        return KafkaError::fromCode(RD_KAFKA_RESP_ERR__BAD_MSG,
                                    QStringLiteral("%1 sent %2 bytes, less than a frame's size")
                                        .arg(broker)
                                        .arg(bytes.size()));
    Result<int32_t> size = parseSize(bytes.first(sizePrefixBytes), broker);
    if (!size)
        return size.error();
    const qsizetype arrived = bytes.size() - sizePrefixBytes;
    if (arrived != size.value())
        return KafkaError::fromCode(
            RD_KAFKA_RESP_ERR__BAD_MSG,
            QStringLiteral("%1 sent a frame of %2 bytes that %3 bytes follow")
                .arg(broker)
                .arg(size.value())
                .arg(arrived));
    const QByteArrayView frame = bytes.sliced(sizePrefixBytes);
    Result<qsizetype> bodyStart = parseHeader(frame, api, version, correlationId, broker);
    if (!bodyStart)
        return bodyStart.error();
    return parseBody(frame, bodyStart.value(), api, version, broker);
}

} // namespace groupscope::kafka::protocol
