#include "offsetstopic/OffsetsTopicDecoder.h"

#include "kafka/protocol/CoordinatorRecords.h"
#include "offsetstopic/ClassicGroupRecords.h"
#include "offsetstopic/ConsumerGroupRecordReader.h"
#include "offsetstopic/RecordPartDecoder.h"

namespace groupscope::offsetstopic {

namespace {

using kafka::protocol::CoordinatorRecordSpecs;
using kafka::protocol::CoordinatorRecordType;
using kafka::protocol::MessageCodec;
using kafka::protocol::Struct;

const QString keyPart = QStringLiteral("key");
const QString valuePart = QStringLiteral("value");

UnknownOffsetsTopicRecord unknownRecordType(int16_t keyType, int64_t recordTimestamp) {
    UnknownOffsetsTopicRecord unknown;
    unknown.keyVersion = keyType;
    unknown.description =
        QStringLiteral("record type %1 is not one Kafka 4.4 writes (a newer Kafka's?)")
            .arg(keyType);
    unknown.recordTimestamp = recordTimestamp;
    return unknown;
}

UnknownOffsetsTopicRecord unknownValueVersion(const CoordinatorRecordSpecs& specs, int16_t keyType,
                                              int16_t valueVersion, int64_t recordTimestamp) {
    UnknownOffsetsTopicRecord unknown;
    unknown.keyVersion = keyType;
    unknown.valueVersion = valueVersion;
    unknown.description = QStringLiteral("%1 version %2 is newer than the newest known (%3)")
                              .arg(QLatin1String(specs.value->name))
                              .arg(valueVersion)
                              .arg(specs.value->validVersions.last);
    unknown.recordTimestamp = recordTimestamp;
    return unknown;
}

OffsetsTopicRecord recordOf(int16_t keyType, const Struct& key, const std::optional<Struct>& value,
                            int16_t valueVersion, int64_t recordTimestamp) {
    switch (CoordinatorRecordType(keyType)) {
    case CoordinatorRecordType::LegacyOffsetCommit:
    case CoordinatorRecordType::OffsetCommit:
        return ClassicGroupRecords::offsetCommit(keyType, key, value, valueVersion,
                                                 recordTimestamp);
    case CoordinatorRecordType::GroupMetadata:
        return ClassicGroupRecords::groupMetadata(key, value, valueVersion, recordTimestamp);
    default:
        return ConsumerGroupRecordReader::read(keyType, key, value, valueVersion, recordTimestamp);
    }
}

} // namespace

OffsetsTopicRecord OffsetsTopicDecoder::decodeRecord(QByteArrayView key,
                                                     std::optional<QByteArrayView> value,
                                                     int64_t recordTimestamp) {
    auto keyType =
        detail::leadingVersion(key, keyPart, QStringLiteral("record key"), recordTimestamp);
    if (auto* error = std::get_if<OffsetsTopicDecodeError>(&keyType))
        return std::move(*error);
    const int16_t type = std::get<int16_t>(keyType);
    const CoordinatorRecordSpecs* specs = kafka::protocol::coordinatorRecordSpecs(type);
    if (!specs)
        return unknownRecordType(type, recordTimestamp);

    // Keys are version 0 of their structure; the leading int16 is the type, not a version.
    detail::DecodedPart decodedKey = detail::decodePart(
        *specs->key, 0, key, keyPart, MessageCodec::Trailing::Refused, recordTimestamp);
    if (auto* error = std::get_if<OffsetsTopicDecodeError>(&decodedKey)) {
        error->structure =
            QStringLiteral("%1 (record type %2)").arg(QLatin1String(specs->key->name)).arg(type);
        return std::move(*error);
    }
    const Struct& keyFields = std::get<Struct>(decodedKey);
    if (!value) // a tombstone: what the key names is deleted
        return recordOf(type, keyFields, std::nullopt, -1, recordTimestamp);

    const QString valueName = QLatin1String(specs->value->name);
    auto valueVersion = detail::leadingVersion(*value, valuePart, valueName, recordTimestamp);
    if (auto* error = std::get_if<OffsetsTopicDecodeError>(&valueVersion))
        return std::move(*error);
    const int16_t version = std::get<int16_t>(valueVersion);
    if (version > specs->value->validVersions.last)
        return unknownValueVersion(*specs, type, version, recordTimestamp);
    detail::DecodedPart decodedValue =
        detail::decodePart(*specs->value, version, *value, valuePart,
                           MessageCodec::Trailing::Refused, recordTimestamp);
    if (auto* error = std::get_if<OffsetsTopicDecodeError>(&decodedValue))
        return std::move(*error);
    return recordOf(type, keyFields, std::get<Struct>(decodedValue), version, recordTimestamp);
}

OffsetsTopicRecord OffsetsTopicDecoder::decode(QByteArrayView key,
                                               std::optional<QByteArrayView> value,
                                               int64_t recordTimestamp) {
    OffsetsTopicRecord record = decodeRecord(key, value, recordTimestamp);
    std::visit(
        [this](const auto& decoded) {
            using Decoded = std::decay_t<decltype(decoded)>;
            if constexpr (std::is_same_v<Decoded, OffsetCommit>)
                ++m_statistics.offsetCommits;
            else if constexpr (std::is_same_v<Decoded, GroupMetadata>)
                ++m_statistics.groupMetadata;
            else if constexpr (std::is_same_v<Decoded, ConsumerGroupRecord>)
                ++(decoded.groupType == kafka::GroupType::Share ? m_statistics.shareGroupRecords
                   : decoded.groupType == kafka::GroupType::Streams
                       ? m_statistics.streamsGroupRecords
                       : m_statistics.consumerGroupRecords);
            else if constexpr (std::is_same_v<Decoded, UnknownOffsetsTopicRecord>)
                ++m_statistics.unknownVersions;
            else
                ++m_statistics.errors;
        },
        record);
    return record;
}

} // namespace groupscope::offsetstopic
