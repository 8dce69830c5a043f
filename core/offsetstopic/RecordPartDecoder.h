#pragma once
// Decodes one part of a `__consumer_offsets` record (its key, its value, or the consumer
// protocol bytes inside a classic group's member) with its message spec, and reports a
// failure in the record's terms: which part, which structure, which field, at which byte of
// the part (its leading int16 type or version included).

#include "kafka/protocol/MessageCodec.h"
#include "offsetstopic/OffsetsTopicRecord.h"

#include <QByteArrayView>

#include <variant>

namespace groupscope::offsetstopic::detail {

using kafka::protocol::MessageCodec;
using kafka::protocol::MessageSpec;
using kafka::protocol::Struct;

// The parts' leading int16 (the key's record type, a value's or a consumer protocol
// structure's version): what the spec's bytes come after.
constexpr int leadingInt16Size = 2;

using DecodedPart = std::variant<Struct, OffsetsTopicDecodeError>;

// `bytes` is the whole part; its leading int16 has been read as `version` already.
DecodedPart decodePart(const MessageSpec& spec, int16_t version, QByteArrayView bytes,
                       const QString& part, MessageCodec::Trailing trailing,
                       int64_t recordTimestamp);

// The part's leading int16: the key's record type or a value's version. A missing or
// negative one is an error (corruption, not a newer format).
std::variant<int16_t, OffsetsTopicDecodeError> leadingVersion(QByteArrayView bytes,
                                                              const QString& part,
                                                              const QString& structure,
                                                              int64_t recordTimestamp);

// Kafka's text form of a 16-byte Uuid: URL-safe base64 without padding.
QString uuidText(const QByteArray& uuid);

QList<int32_t> int32List(const QList<int64_t>& values);

} // namespace groupscope::offsetstopic::detail
