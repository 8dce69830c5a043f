#include "offsetstopic/RecordPartDecoder.h"

namespace groupscope::offsetstopic::detail {

DecodedPart decodePart(const MessageSpec& spec, int16_t version, QByteArrayView bytes,
                       const QString& part, MessageCodec::Trailing trailing,
                       int64_t recordTimestamp) {
    MessageCodec::Decoded decoded = MessageCodec::decodeReportingFailure(
        spec, version, bytes.sliced(leadingInt16Size), trailing);
    if (auto* message = std::get_if<Struct>(&decoded))
        return std::move(*message);
    const auto& failure = std::get<MessageCodec::DecodeFailure>(decoded);
    OffsetsTopicDecodeError error;
    error.part = part;
    error.structure = QStringLiteral("%1 v%2").arg(failure.structure).arg(version);
    error.field = failure.field;
    error.byteOffset = leadingInt16Size + failure.byteOffset;
    error.reason = failure.reason;
    error.recordTimestamp = recordTimestamp;
    return error;
}

std::variant<int16_t, OffsetsTopicDecodeError> leadingVersion(QByteArrayView bytes,
                                                              const QString& part,
                                                              const QString& structure,
                                                              int64_t recordTimestamp) {
    OffsetsTopicDecodeError error;
    error.part = part;
    error.structure = structure;
    error.field = QStringLiteral("version");
    error.recordTimestamp = recordTimestamp;
    if (bytes.size() < leadingInt16Size) {
        error.reason = QStringLiteral("needs 2 bytes, only %1 left").arg(bytes.size());
        return error;
    }
    const int16_t version = int16_t((uint8_t(bytes[0]) << 8) | uint8_t(bytes[1]));
    if (version < 0) {
        error.reason = QStringLiteral("negative %1 %2")
                           .arg(part == QLatin1String("key") ? QStringLiteral("key version")
                                                             : QStringLiteral("version"))
                           .arg(version);
        return error;
    }
    return version;
}

QString uuidText(const QByteArray& uuid) {
    return QString::fromLatin1(
        uuid.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QList<int32_t> int32List(const QList<int64_t>& values) {
    QList<int32_t> narrowed;
    narrowed.reserve(values.size());
    for (int64_t value : values)
        narrowed.append(int32_t(value));
    return narrowed;
}

} // namespace groupscope::offsetstopic::detail
