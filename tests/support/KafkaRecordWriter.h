#pragma once

#include <QByteArray>
#include <QString>

#include <cstdint>

namespace groupscope::test {

// Writes Kafka's wire types, following the published message schemas by hand, so the
// decoder is checked against bytes it did not produce itself.
class RecordWriter {
public:
    RecordWriter& int16(int16_t value) { return bigEndian(uint16_t(value), 2); }
    RecordWriter& int32(int32_t value) { return bigEndian(uint32_t(value), 4); }
    RecordWriter& int64(int64_t value) { return bigEndian(uint64_t(value), 8); }
    RecordWriter& unsignedVarint(uint32_t value) {
        while (value >= 0x80) {
            m_bytes.append(char((value & 0x7F) | 0x80));
            value >>= 7;
        }
        m_bytes.append(char(value));
        return *this;
    }
    RecordWriter& string(const QString& text, bool compact = false) {
        const QByteArray utf8 = text.toUtf8();
        length(utf8.size(), compact, false);
        m_bytes.append(utf8);
        return *this;
    }
    RecordWriter& nullString(bool compact = false) { return length(-1, compact, false); }
    RecordWriter& bytes(const QByteArray& data, bool compact = false) {
        length(data.size(), compact, true);
        m_bytes.append(data);
        return *this;
    }
    RecordWriter& nullBytes(bool compact = false) { return length(-1, compact, true); }
    RecordWriter& arrayLength(int count, bool compact = false) {
        return compact ? unsignedVarint(uint32_t(count + 1)) : int32(count);
    }
    RecordWriter& noTaggedFields() { return unsignedVarint(0); }
    RecordWriter& raw(const QByteArray& data) {
        m_bytes.append(data);
        return *this;
    }
    // A Kafka Uuid: 16 raw bytes.
    RecordWriter& uuid(const QByteArray& sixteenBytes) {
        Q_ASSERT(sixteenBytes.size() == 16);
        m_bytes.append(sixteenBytes);
        return *this;
    }
    RecordWriter& int8(int8_t value) { return bigEndian(uint8_t(value), 1); }
    QByteArray bytes() const { return m_bytes; }

private:
    RecordWriter& length(int value, bool compact, bool wide) {
        if (compact)
            return unsignedVarint(uint32_t(value + 1));
        return wide ? int32(value) : int16(int16_t(value));
    }
    RecordWriter& bigEndian(uint64_t value, int size) {
        for (int shift = (size - 1) * 8; shift >= 0; shift -= 8)
            m_bytes.append(char((value >> shift) & 0xFF));
        return *this;
    }
    QByteArray m_bytes;
};

} // namespace groupscope::test
