#pragma once
// The reading of a broker's response frame, apart from the socket: the 4-byte size prefix,
// the response header (correlation id, and tagged fields in flexible versions) and the
// message body. Pure functions of their bytes, so that BrokerConnection, the fuzz target
// and the tests read frames the same way.

#include "kafka/Result.h"
#include "kafka/protocol/MessageCodec.h"
#include "kafka/protocol/MessageStruct.h"

#include <QByteArrayView>
#include <QString>

namespace groupscope::kafka::protocol {

class ResponseFrame {
public:
    // Kafka's socket.request.max.bytes default: no answer Groupscope asks for is larger,
    // and a frame that says it is larger is refused before anything is allocated for it.
    static constexpr int32_t maximumSize = 100 * 1024 * 1024;
    static constexpr int sizePrefixBytes = 4;

    // The size the 4-byte prefix announces; an error when it is below a response header's
    // 4 bytes or above maximumSize. `broker` names the sender in errors.
    static Result<int32_t> parseSize(QByteArrayView prefix, const QString& broker);

    // Where the body starts in a frame (the bytes after the size prefix): the header
    // holds the correlation id and, in flexible versions (except ApiVersions, which
    // answers with the classic header), tagged fields. An error when the header is cut
    // short or answers another request: the connection is then out of step and unusable.
    static Result<qsizetype> parseHeader(QByteArrayView frame, const ApiSpec& api, int16_t version,
                                         int32_t correlationId, const QString& broker);
    // The message after the header, decoded as `api`'s response in `version`; with
    // `streamed`, the elements of that top-level array go to its sink as they are decoded
    // (MessageCodec::decodeStreaming).
    static Result<Struct> parseBody(QByteArrayView frame, qsizetype bodyStart, const ApiSpec& api,
                                    int16_t version, const QString& broker,
                                    const MessageCodec::StreamedArray* streamed = nullptr);

    // The three on bytes as they come off the socket: size prefix, header and body of one
    // response. A frame shorter than it announces, or bytes after it, are errors.
    static Result<Struct> parse(QByteArrayView bytes, const ApiSpec& api, int16_t version,
                                int32_t correlationId, const QString& broker);

    // Whether the response header of `api` in `version` is the flexible one (v1).
    static bool headerIsFlexible(const ApiSpec& api, int16_t version);
};

} // namespace groupscope::kafka::protocol
