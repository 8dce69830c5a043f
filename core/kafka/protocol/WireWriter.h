#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <cstdint>

namespace groupscope::kafka::protocol {

// Appends Kafka's wire types to a buffer: big-endian integers, unsigned varints, classic
// (int16/int32 length) and compact (varint length + 1) strings, bytes and array lengths.
class WireWriter {
public:
    void writeInt8(int8_t value) { m_bytes.append(char(value)); }
    void writeInt16(int16_t value) { writeBigEndian(uint16_t(value), 2); }
    void writeInt32(int32_t value) { writeBigEndian(uint32_t(value), 4); }
    void writeInt64(int64_t value) { writeBigEndian(uint64_t(value), 8); }
    void writeFloat64(double value);
    void writeUnsignedVarint(uint32_t value);
    // Null is written as length -1 (classic) or 0 (compact).
    void writeString(const QString& text, bool compact);
    void writeNullString(bool compact);
    void writeBytes(QByteArrayView bytes, bool compact);
    void writeNullBytes(bool compact);
    void writeArrayLength(int count, bool compact);
    void writeNullArray(bool compact);
    void writeRaw(QByteArrayView bytes) { m_bytes.append(bytes); }

    const QByteArray& bytes() const { return m_bytes; }
    QByteArray take() { return std::move(m_bytes); }

private:
    void writeBigEndian(uint64_t value, int size);

    QByteArray m_bytes;
};

} // namespace groupscope::kafka::protocol
