#include "kafka/protocol/WireReader.h"

#include <algorithm>

namespace groupscope::kafka::protocol {

void WireReader::fail(const char* field, int position, const QString& reason) {
    if (m_failed)
        return;
    m_failed = true;
    m_failedField = field;
    m_failedAt = position;
    m_failureReason = reason;
}

bool WireReader::require(const char* field, int64_t count) {
    if (m_failed)
        return false;
    if (count > remaining()) {
        fail(field, m_position,
             QStringLiteral("needs %1 bytes, only %2 left").arg(count).arg(remaining()));
        return false;
    }
    return true;
}

uint64_t WireReader::readBigEndian(const char* field, int size) {
    if (!require(field, size))
        return 0;
    uint64_t value = 0;
    for (int i = 0; i < size; ++i)
        value = (value << 8) | uint8_t(m_bytes[m_position + i]);
    m_position += size;
    return value;
}

int8_t WireReader::readInt8(const char* field) {
    return int8_t(uint8_t(readBigEndian(field, 1)));
}

int16_t WireReader::readInt16(const char* field) {
    return int16_t(uint16_t(readBigEndian(field, 2)));
}

int32_t WireReader::readInt32(const char* field) {
    return int32_t(uint32_t(readBigEndian(field, 4)));
}

int64_t WireReader::readInt64(const char* field) {
    return int64_t(readBigEndian(field, 8));
}

QByteArrayView WireReader::readRaw(const char* field, int size) {
    if (!require(field, size))
        return QByteArrayView();
    const QByteArrayView bytes = m_bytes.sliced(m_position, size);
    m_position += size;
    return bytes;
}

uint32_t WireReader::readUnsignedVarint(const char* field) {
    const int start = m_position;
    uint32_t value = 0;
    // Seven bits per byte, at most five bytes for 32 bits; the fifth may carry only 4 bits.
    for (int shift = 0; shift < 35; shift += 7) {
        if (!require(field, 1))
            return 0;
        const uint8_t byte = uint8_t(m_bytes[m_position++]);
        if (shift == 28 && (byte & 0xF0) != 0) {
            fail(field, start, QStringLiteral("varint does not fit in 32 bits"));
            return 0;
        }
        value |= uint32_t(byte & 0x7F) << shift;
        if ((byte & 0x80) == 0)
            return value;
    }
    fail(field, start, QStringLiteral("varint longer than 5 bytes"));
    return 0;
}

int64_t WireReader::readLength(const char* field, bool compact, bool wide) {
    if (compact) // length + 1, 0 meaning null
        return int64_t(readUnsignedVarint(field)) - 1;
    return wide ? readInt32(field) : readInt16(field);
}

std::optional<QString> WireReader::readNullableString(const char* field, bool compact) {
    const int start = m_position;
    const int64_t length = readLength(field, compact, false);
    if (m_failed)
        return QString();
    if (length < -1) {
        fail(field, start, QStringLiteral("negative string length %1").arg(length));
        return QString();
    }
    if (length == -1)
        return std::nullopt;
    if (!require(field, length))
        return QString();
    const QString text = QString::fromUtf8(m_bytes.sliced(m_position, length));
    m_position += int(length);
    return text;
}

QString WireReader::readString(const char* field, bool compact) {
    const int start = m_position;
    std::optional<QString> text = readNullableString(field, compact);
    if (!text) {
        fail(field, start, QStringLiteral("null where the schema allows no null"));
        return QString();
    }
    return *text;
}

std::optional<QByteArrayView> WireReader::readNullableBytes(const char* field, bool compact) {
    const int start = m_position;
    const int64_t length = readLength(field, compact, true);
    if (m_failed)
        return QByteArrayView();
    if (length < -1) {
        fail(field, start, QStringLiteral("negative bytes length %1").arg(length));
        return QByteArrayView();
    }
    if (length == -1)
        return std::nullopt;
    if (!require(field, length))
        return QByteArrayView();
    const QByteArrayView bytes = m_bytes.sliced(m_position, length);
    m_position += int(length);
    return bytes;
}

QByteArrayView WireReader::readBytes(const char* field, bool compact) {
    const int start = m_position;
    std::optional<QByteArrayView> bytes = readNullableBytes(field, compact);
    if (!bytes) {
        fail(field, start, QStringLiteral("null where the schema allows no null"));
        return QByteArrayView();
    }
    return *bytes;
}

int WireReader::readArrayLength(const char* field, bool compact, int minimumElementSize) {
    const int start = m_position;
    const std::optional<int> count = readNullableArrayLength(field, compact, minimumElementSize);
    if (!count) {
        fail(field, start, QStringLiteral("null array where the schema allows no null"));
        return 0;
    }
    return *count;
}

std::optional<int> WireReader::readNullableArrayLength(const char* field, bool compact,
                                                       int minimumElementSize) {
    const int start = m_position;
    const int64_t count = compact ? int64_t(readUnsignedVarint(field)) - 1 : readInt32(field);
    if (m_failed)
        return 0;
    if (count == -1)
        return std::nullopt;
    if (count < 0) {
        fail(field, start, QStringLiteral("negative array length %1").arg(count));
        return 0;
    }
    if (count * std::max(minimumElementSize, 1) > remaining()) {
        fail(field, start,
             QStringLiteral("array of %1 elements cannot fit in the %2 bytes left")
                 .arg(count)
                 .arg(remaining()));
        return 0;
    }
    return int(count);
}

void WireReader::skipTaggedFields(const char* field) {
    const uint32_t count = readUnsignedVarint(field);
    for (uint32_t i = 0; i < count && !m_failed; ++i) {
        readUnsignedVarint(field); // the tag
        const uint32_t size = readUnsignedVarint(field);
        if (require(field, size))
            m_position += int(size);
    }
}

QString WireReader::readUuid(const char* field) {
    constexpr int uuidSize = 16;
    if (!require(field, uuidSize))
        return QString();
    const QByteArray bytes = m_bytes.sliced(m_position, uuidSize).toByteArray();
    m_position += uuidSize;
    return QString::fromLatin1(
        bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

void WireReader::readTaggedFields(const char* field, const TaggedFieldReader& readKnown) {
    const uint32_t count = readUnsignedVarint(field);
    for (uint32_t i = 0; i < count && !m_failed; ++i) {
        const uint32_t tag = readUnsignedVarint(field);
        const uint32_t size = readUnsignedVarint(field);
        if (!require(field, size))
            return;
        const int start = m_position;
        WireReader fieldReader(m_bytes.sliced(start, size));
        readKnown(tag, fieldReader);
        if (fieldReader.failed()) {
            fail(fieldReader.failedField(), start + fieldReader.failedAt(),
                 fieldReader.failureReason());
            return;
        }
        m_position = start + int(size);
    }
}

void WireReader::expectEnd(const char* what) {
    if (!m_failed && remaining() > 0)
        fail(what, m_position,
             QStringLiteral("%1 unexpected bytes after the last field").arg(remaining()));
}

} // namespace groupscope::kafka::protocol
