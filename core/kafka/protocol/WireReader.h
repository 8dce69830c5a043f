#pragma once

#include <QByteArrayView>
#include <QString>

#include <cstdint>
#include <functional>
#include <optional>

namespace groupscope::kafka::protocol {

// Reads Kafka's wire types (big-endian integers, unsigned varints, classic and compact
// strings, bytes and arrays, tagged fields) from untrusted bytes. Every read is bounds
// checked. The first failure sticks: later reads return empty values without touching the
// bytes, so a decoder can read a whole structure and check failed() once at the end.
class WireReader {
public:
    explicit WireReader(QByteArrayView bytes)
        : m_bytes(bytes) {}

    int8_t readInt8(const char* field);
    int16_t readInt16(const char* field);
    int32_t readInt32(const char* field);
    int64_t readInt64(const char* field);
    uint32_t readUnsignedVarint(const char* field);
    // `size` bytes as they are (they stay in the reader's buffer); empty after a failure.
    QByteArrayView readRaw(const char* field, int size);

    // Non-nullable strings report a null as an error; nullable ones return std::nullopt.
    QString readString(const char* field, bool compact);
    std::optional<QString> readNullableString(const char* field, bool compact);
    // The bytes stay in the reader's buffer; std::nullopt for null.
    std::optional<QByteArrayView> readNullableBytes(const char* field, bool compact);
    QByteArrayView readBytes(const char* field, bool compact);
    // The element count of an array, checked against the bytes left given the smallest
    // possible element, so a corrupt count cannot make the caller allocate gigabytes.
    // Null arrays (-1) are errors: none of the schemas here has a nullable array.
    int readArrayLength(const char* field, bool compact, int minimumElementSize);
    // The same for an array the schema allows to be null: std::nullopt for null.
    std::optional<int> readNullableArrayLength(const char* field, bool compact,
                                               int minimumElementSize);
    // A Kafka Uuid (16 bytes) in Kafka's text form: URL-safe base64 without padding.
    QString readUuid(const char* field);
    // Skips a flexible version's tagged fields (none of them is known to us).
    void skipTaggedFields(const char* field);
    // Reads a flexible version's tagged fields: `readKnown` gets each field's tag and a
    // reader over exactly that field's bytes, and returns whether it knew the tag; unknown
    // tags are skipped (newer writers may add them). A failure inside a field fails this
    // reader at the same place.
    using TaggedFieldReader = std::function<bool(uint32_t tag, WireReader& field)>;
    void readTaggedFields(const char* field, const TaggedFieldReader& readKnown);
    // Fails when bytes are left over: a non-flexible structure ends exactly here.
    void expectEnd(const char* what);

    bool failed() const { return m_failed; }
    const char* failedField() const { return m_failedField; }
    int failedAt() const { return m_failedAt; }
    const QString& failureReason() const { return m_failureReason; }
    int position() const { return m_position; }
    int remaining() const { return int(m_bytes.size()) - m_position; }

    // Records a failure found by the caller (e.g. a value out of range) at `position`.
    void fail(const char* field, int position, const QString& reason);

private:
    bool require(const char* field, int64_t count);
    // Length of a string or bytes field: -1 for null.
    int64_t readLength(const char* field, bool compact, bool wide);
    uint64_t readBigEndian(const char* field, int size);

    QByteArrayView m_bytes;
    int m_position = 0;
    bool m_failed = false;
    const char* m_failedField = "";
    int m_failedAt = 0;
    QString m_failureReason;
};

} // namespace groupscope::kafka::protocol
