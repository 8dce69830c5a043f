#include "kafka/protocol/MessageCodec.h"

#include "kafka/protocol/ProtocolError.h"
#include "kafka/protocol/WireReader.h"
#include "kafka/protocol/WireWriter.h"

#include <librdkafka/rdkafka.h>

#include <algorithm>
#include <cstring>

namespace groupscope::kafka::protocol {

namespace {

using Fields = std::vector<FieldSpec>;
using Value = Struct::Value;

bool isPresent(const FieldSpec& field, int16_t version) {
    return field.versions.contains(version);
}

bool isTagged(const FieldSpec& field, int16_t version, bool flexible) {
    return flexible && field.taggedVersions.contains(version);
}

bool isNullValue(const FieldSpec& field, const Value& value) {
    return std::holds_alternative<Struct::Null>(value) ||
           (std::holds_alternative<std::monostate>(value) && field.defaultsToNull);
}

int64_t integerOf(const FieldSpec& field, const Value& value) {
    if (const auto* number = std::get_if<int64_t>(&value))
        return *number;
    if (const auto* flag = std::get_if<bool>(&value))
        return *flag ? 1 : 0;
    return field.defaultValue;
}

template <typename T> const T& valueOr(const Value& value) {
    static const T empty{};
    const T* held = std::get_if<T>(&value);
    return held ? *held : empty;
}

// ---- encoding ----

void encodeFields(WireWriter& writer, const Fields& fields, const Struct& values, int16_t version,
                  bool flexible);

void encodeStruct(WireWriter& writer, const FieldSpec& field, const Struct& element,
                  int16_t version, bool flexible) {
    if (element.fields() == &field.fields)
        encodeFields(writer, field.fields, element, version, flexible);
    else // not set: an empty structure of the schema
        encodeFields(writer, field.fields, Struct(&field.fields), version, flexible);
}

void encodeUuid(WireWriter& writer, const QByteArray& uuid) {
    QByteArray bytes = uuid.left(16);
    bytes.append(QByteArray(16 - bytes.size(), '\0'));
    writer.writeRaw(bytes);
}

void encodeValue(WireWriter& writer, const FieldSpec& field, const Value& value, int16_t version,
                 bool flexible) {
    const bool writeNull = isNullValue(field, value) && field.nullableVersions.contains(version);
    switch (field.type) {
    case FieldType::Bool:
    case FieldType::Int8:
        writer.writeInt8(int8_t(integerOf(field, value)));
        return;
    case FieldType::Int16:
    case FieldType::Uint16: // the same two bytes
        writer.writeInt16(int16_t(integerOf(field, value)));
        return;
    case FieldType::Int32:
        writer.writeInt32(int32_t(integerOf(field, value)));
        return;
    case FieldType::Int64:
        writer.writeInt64(integerOf(field, value));
        return;
    case FieldType::Float64:
        writer.writeFloat64(valueOr<double>(value));
        return;
    case FieldType::Uuid:
        encodeUuid(writer, valueOr<QByteArray>(value));
        return;
    case FieldType::String:
        if (writeNull)
            writer.writeNullString(flexible);
        else
            writer.writeString(valueOr<QString>(value), flexible);
        return;
    case FieldType::Bytes:
        if (writeNull)
            writer.writeNullBytes(flexible);
        else
            writer.writeBytes(valueOr<QByteArray>(value), flexible);
        return;
    case FieldType::Int16Array:
    case FieldType::Int32Array:
    case FieldType::Int64Array: {
        if (writeNull)
            return writer.writeNullArray(flexible);
        const QList<int64_t>& numbers = valueOr<QList<int64_t>>(value);
        writer.writeArrayLength(int(numbers.size()), flexible);
        for (int64_t number : numbers) {
            if (field.type == FieldType::Int16Array)
                writer.writeInt16(int16_t(number));
            else if (field.type == FieldType::Int32Array)
                writer.writeInt32(int32_t(number));
            else
                writer.writeInt64(number);
        }
        return;
    }
    case FieldType::StringArray: {
        if (writeNull)
            return writer.writeNullArray(flexible);
        const QStringList& texts = valueOr<QStringList>(value);
        writer.writeArrayLength(int(texts.size()), flexible);
        for (const QString& text : texts)
            writer.writeString(text, flexible);
        return;
    }
    case FieldType::UuidArray: {
        if (writeNull)
            return writer.writeNullArray(flexible);
        const QList<QByteArray>& uuids = valueOr<QList<QByteArray>>(value);
        writer.writeArrayLength(int(uuids.size()), flexible);
        for (const QByteArray& uuid : uuids)
            encodeUuid(writer, uuid);
        return;
    }
    case FieldType::Struct: {
        // A nullable structure is preceded by a marker byte: 1 for present; for null -1, or
        // 0 in flexible versions (as Kafka's generated classes write it).
        if (field.nullableVersions.contains(version)) {
            writer.writeInt8(writeNull ? (flexible ? 0 : -1) : 1);
            if (writeNull)
                return;
        }
        const StructList& list = valueOr<StructList>(value);
        encodeStruct(writer, field, list.empty() ? Struct() : list.front(), version, flexible);
        return;
    }
    case FieldType::StructArray: {
        if (writeNull)
            return writer.writeNullArray(flexible);
        const StructList& list = valueOr<StructList>(value);
        writer.writeArrayLength(int(list.size()), flexible);
        for (const Struct& element : list)
            encodeStruct(writer, field, element, version, flexible);
        return;
    }
    }
}

void encodeFields(WireWriter& writer, const Fields& fields, const Struct& values, int16_t version,
                  bool flexible) {
    std::vector<size_t> tagged;
    for (size_t i = 0; i < fields.size(); ++i) {
        const FieldSpec& field = fields[i];
        if (!isPresent(field, version))
            continue;
        if (isTagged(field, version, flexible)) {
            if (!std::holds_alternative<std::monostate>(values.valueAt(i)))
                tagged.push_back(i);
            continue;
        }
        encodeValue(writer, field, values.valueAt(i), version, flexible);
    }
    if (!flexible)
        return;
    std::sort(tagged.begin(), tagged.end(),
              [&](size_t a, size_t b) { return fields[a].tag < fields[b].tag; });
    writer.writeUnsignedVarint(uint32_t(tagged.size()));
    for (size_t index : tagged) {
        WireWriter fieldWriter;
        encodeValue(fieldWriter, fields[index], values.valueAt(index), version, flexible);
        writer.writeUnsignedVarint(uint32_t(fields[index].tag));
        writer.writeUnsignedVarint(uint32_t(fieldWriter.bytes().size()));
        writer.writeRaw(fieldWriter.bytes());
    }
}

// ---- decoding ----

// The fewest bytes a value of `type` takes, so that an array's count can be checked against
// the bytes left before anything is allocated for it. `field` is the field of that type, or
// the array whose elements are of that type: a decode asks this for every array it reads (a
// group's topics, a topic's partitions), and building an element's own spec would copy the
// nested fields' specs each time.
int minimumSize(FieldType type, const FieldSpec& field, int16_t version, bool flexible);

int minimumStructSize(const Fields& fields, int16_t version, bool flexible) {
    int size = flexible ? 1 : 0; // the tagged-field count
    for (const FieldSpec& field : fields) {
        if (isPresent(field, version) && !isTagged(field, version, flexible))
            size += minimumSize(field.type, field, version, flexible);
    }
    return size;
}

int minimumSize(FieldType type, const FieldSpec& field, int16_t version, bool flexible) {
    switch (type) {
    case FieldType::Bool:
    case FieldType::Int8:
        return 1;
    case FieldType::Int16:
    case FieldType::Uint16:
        return 2;
    case FieldType::Int32:
        return 4;
    case FieldType::Int64:
    case FieldType::Float64:
        return 8;
    case FieldType::Uuid:
        return 16;
    case FieldType::String:
        return flexible ? 1 : 2;
    case FieldType::Bytes:
    case FieldType::Int16Array:
    case FieldType::Int32Array:
    case FieldType::Int64Array:
    case FieldType::StringArray:
    case FieldType::UuidArray:
    case FieldType::StructArray:
        return flexible ? 1 : 4;
    case FieldType::Struct: // a null one is its marker byte alone
        return field.nullableVersions.contains(version)
                   ? 1
                   : minimumStructSize(field.fields, version, flexible);
    }
    return 1;
}

FieldType elementType(FieldType arrayType) {
    switch (arrayType) {
    case FieldType::Int16Array:
        return FieldType::Int16;
    case FieldType::Int32Array:
        return FieldType::Int32;
    case FieldType::Int64Array:
        return FieldType::Int64;
    case FieldType::StringArray:
        return FieldType::String;
    case FieldType::UuidArray:
        return FieldType::Uuid;
    default:
        return FieldType::Struct;
    }
}

// Bounds nesting, so hostile bytes cannot recurse deeper than any schema here does.
constexpr int maximumDepth = 16;

// The top-level array whose elements go to a sink as they are decoded (decodeStreaming).
struct StreamedField {
    size_t index;
    const std::function<void(const Struct&)>& sink;
};

Struct decodeFields(WireReader& reader, const Fields& fields, int16_t version, bool flexible,
                    int depth, const StreamedField* streamed = nullptr);

// An array's element count (checked against the bytes left), or nullopt for a null array.
std::optional<int> readArrayCount(WireReader& reader, const FieldSpec& field, int16_t version,
                                  bool flexible) {
    const int minimumElementSize = minimumSize(elementType(field.type), field, version, flexible);
    return field.nullableVersions.contains(version)
               ? reader.readNullableArrayLength(field.name, flexible, minimumElementSize)
               : std::optional<int>(
                     reader.readArrayLength(field.name, flexible, minimumElementSize));
}

// The elements of a StructArray, each handed to `sink` once it is decoded whole and then
// dropped; the array's value is left unset, or null.
Value decodeStreamedArray(WireReader& reader, const FieldSpec& field, int16_t version,
                          bool flexible, int depth,
                          const std::function<void(const Struct&)>& sink) {
    const std::optional<int> count = readArrayCount(reader, field, version, flexible);
    if (!count)
        return Struct::Null{};
    for (int i = 0; i < *count && !reader.failed(); ++i) {
        const Struct element = decodeFields(reader, field.fields, version, flexible, depth + 1);
        if (!reader.failed())
            sink(element);
    }
    return std::monostate();
}

Value decodeValue(WireReader& reader, const FieldSpec& field, int16_t version, bool flexible,
                  int depth) {
    const char* name = field.name;
    switch (field.type) {
    case FieldType::Bool:
        return reader.readInt8(name) != 0;
    case FieldType::Int8:
        return int64_t(reader.readInt8(name));
    case FieldType::Int16:
        return int64_t(reader.readInt16(name));
    case FieldType::Uint16:
        return int64_t(uint16_t(reader.readInt16(name)));
    case FieldType::Int32:
        return int64_t(reader.readInt32(name));
    case FieldType::Int64:
        return reader.readInt64(name);
    case FieldType::Float64: {
        const int64_t bits = reader.readInt64(name);
        double number = 0;
        std::memcpy(&number, &bits, sizeof number);
        return number;
    }
    case FieldType::Uuid:
        return reader.readRaw(name, 16).toByteArray();
    case FieldType::String: {
        if (!field.nullableVersions.contains(version))
            return reader.readString(name, flexible); // a null is an error here
        std::optional<QString> text = reader.readNullableString(name, flexible);
        if (!text)
            return Struct::Null{};
        return *text;
    }
    case FieldType::Bytes: {
        if (!field.nullableVersions.contains(version))
            return reader.readBytes(name, flexible).toByteArray();
        std::optional<QByteArrayView> bytes = reader.readNullableBytes(name, flexible);
        if (!bytes)
            return Struct::Null{};
        return bytes->toByteArray();
    }
    case FieldType::Int16Array:
    case FieldType::Int32Array:
    case FieldType::Int64Array:
    case FieldType::StringArray:
    case FieldType::UuidArray:
    case FieldType::StructArray:
        break;
    case FieldType::Struct: {
        if (depth >= maximumDepth) {
            reader.fail(name, reader.position(), QStringLiteral("structures nested too deeply"));
            return StructList();
        }
        if (field.nullableVersions.contains(version)) {
            // 1 present; null -1, or 0 in flexible versions (see encodeValue).
            const int8_t marker = reader.readInt8(name);
            if (marker <= 0)
                return Struct::Null{};
        }
        StructList single;
        single.push_back(decodeFields(reader, field.fields, version, flexible, depth + 1));
        return single;
    }
    }

    // Arrays.
    const std::optional<int> count = readArrayCount(reader, field, version, flexible);
    if (!count)
        return Struct::Null{};
    if (reader.failed())
        return std::monostate();
    switch (field.type) {
    case FieldType::Int16Array:
    case FieldType::Int32Array:
    case FieldType::Int64Array: {
        QList<int64_t> numbers;
        numbers.reserve(*count);
        for (int i = 0; i < *count && !reader.failed(); ++i)
            numbers.append(field.type == FieldType::Int16Array   ? reader.readInt16(name)
                           : field.type == FieldType::Int32Array ? reader.readInt32(name)
                                                                 : reader.readInt64(name));
        return numbers;
    }
    case FieldType::StringArray: {
        QStringList texts;
        texts.reserve(*count);
        for (int i = 0; i < *count && !reader.failed(); ++i)
            texts.append(reader.readString(name, flexible));
        return texts;
    }
    case FieldType::UuidArray: {
        QList<QByteArray> uuids;
        uuids.reserve(*count);
        for (int i = 0; i < *count && !reader.failed(); ++i)
            uuids.append(reader.readRaw(name, 16).toByteArray());
        return uuids;
    }
    default: {
        if (depth >= maximumDepth) {
            reader.fail(name, reader.position(), QStringLiteral("structures nested too deeply"));
            return StructList();
        }
        StructList list;
        list.reserve(size_t(*count));
        for (int i = 0; i < *count && !reader.failed(); ++i)
            list.push_back(decodeFields(reader, field.fields, version, flexible, depth + 1));
        return list;
    }
    }
}

Struct decodeFields(WireReader& reader, const Fields& fields, int16_t version, bool flexible,
                    int depth, const StreamedField* streamed) {
    Struct values(&fields);
    for (size_t i = 0; i < fields.size() && !reader.failed(); ++i) {
        const FieldSpec& field = fields[i];
        if (!isPresent(field, version) || isTagged(field, version, flexible))
            continue;
        values.setValueAt(
            i, streamed && streamed->index == i
                   ? decodeStreamedArray(reader, field, version, flexible, depth, streamed->sink)
                   : decodeValue(reader, field, version, flexible, depth));
    }
    if (!flexible || reader.failed())
        return values;
    reader.readTaggedFields("tagged fields", [&](uint32_t tag, WireReader& tagged) {
        for (size_t i = 0; i < fields.size(); ++i) {
            const FieldSpec& field = fields[i];
            if (isPresent(field, version) && isTagged(field, version, flexible) &&
                uint32_t(field.tag) == tag) {
                values.setValueAt(i, decodeValue(tagged, field, version, flexible, depth));
                return true;
            }
        }
        return false; // a newer broker's field: skipped
    });
    return values;
}

} // namespace

QByteArray MessageCodec::encode(const MessageSpec& spec, int16_t version, const Struct& message) {
    WireWriter writer;
    encodeFields(writer, spec.fields, message, version, isFlexible(spec, version));
    return writer.take();
}

QString MessageCodec::DecodeFailure::toString() const {
    return QStringLiteral("malformed %1 v%2: field %3 at byte %4: %5")
        .arg(structure)
        .arg(version)
        .arg(field)
        .arg(byteOffset)
        .arg(reason);
}

namespace {

MessageCodec::Decoded decodeWhole(const MessageSpec& spec, int16_t version, QByteArrayView bytes,
                                  MessageCodec::Trailing trailing, const StreamedField* streamed) {
    using DecodeFailure = MessageCodec::DecodeFailure;
    if (!spec.validVersions.contains(version))
        return DecodeFailure{
            QLatin1String(spec.name), version, QString(), 0,
            QStringLiteral("version %1 is not one Groupscope can read").arg(version)};
    WireReader reader(bytes);
    Struct message = decodeFields(reader, spec.fields, version,
                                  MessageCodec::isFlexible(spec, version), 0, streamed);
    if (trailing == MessageCodec::Trailing::Refused)
        reader.expectEnd("end of message");
    if (reader.failed())
        return DecodeFailure{QLatin1String(spec.name), version, QLatin1String(reader.failedField()),
                             reader.failedAt(), reader.failureReason()};
    return message;
}

Result<Struct> decodeMessage(const MessageSpec& spec, int16_t version, QByteArrayView bytes,
                             MessageCodec::Trailing trailing,
                             const StreamedField* streamed = nullptr) {
    MessageCodec::Decoded decoded = decodeWhole(spec, version, bytes, trailing, streamed);
    if (auto* failure = std::get_if<MessageCodec::DecodeFailure>(&decoded)) {
        if (failure->field.isEmpty()) // the version itself
            return protocolError(RD_KAFKA_RESP_ERR__BAD_MSG,
                                 QStringLiteral("%1 version %2 is not one Groupscope can read")
                                     .arg(failure->structure)
                                     .arg(version));
        return protocolError(RD_KAFKA_RESP_ERR__BAD_MSG, failure->toString());
    }
    return std::get<Struct>(std::move(decoded));
}

} // namespace

MessageCodec::Decoded MessageCodec::decodeReportingFailure(const MessageSpec& spec, int16_t version,
                                                           QByteArrayView bytes,
                                                           Trailing trailing) {
    return decodeWhole(spec, version, bytes, trailing, nullptr);
}

Result<Struct> MessageCodec::decode(const MessageSpec& spec, int16_t version,
                                    QByteArrayView bytes) {
    return decodeMessage(spec, version, bytes, Trailing::Refused);
}

Result<Struct> MessageCodec::decodePrefix(const MessageSpec& spec, int16_t version,
                                          QByteArrayView bytes) {
    return decodeMessage(spec, version, bytes, Trailing::Ignored);
}

Result<Struct> MessageCodec::decodeStreaming(const MessageSpec& spec, int16_t version,
                                             QByteArrayView bytes, const StreamedArray& streamed) {
    const auto field = std::find_if(spec.fields.cbegin(), spec.fields.cend(), [&](const auto& f) {
        return std::strcmp(f.name, streamed.field.c_str()) == 0;
    });
    // A tagged field is decoded after the others, from its own bytes: not streamed.
    if (field == spec.fields.cend() || field->type != FieldType::StructArray ||
        isTagged(*field, version, isFlexible(spec, version)))
        return protocolError(RD_KAFKA_RESP_ERR__INVALID_ARG,
                             QStringLiteral("%1 v%2 has no untagged top-level array of "
                                            "structures %3")
                                 .arg(QLatin1String(spec.name))
                                 .arg(version)
                                 .arg(QLatin1String(streamed.field.c_str())));
    const StreamedField array{size_t(field - spec.fields.cbegin()), streamed.element};
    return decodeMessage(spec, version, bytes, Trailing::Refused, &array);
}

} // namespace groupscope::kafka::protocol
