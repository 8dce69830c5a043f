#include "kafka/protocol/WireWriter.h"

#include <cstring>

namespace groupscope::kafka::protocol {

void WireWriter::writeBigEndian(uint64_t value, int size) {
    for (int shift = (size - 1) * 8; shift >= 0; shift -= 8)
        m_bytes.append(char((value >> shift) & 0xFF));
}

void WireWriter::writeFloat64(double value) {
    uint64_t bits = 0;
    static_assert(sizeof bits == sizeof value);
    std::memcpy(&bits, &value, sizeof bits);
    writeBigEndian(bits, 8);
}

void WireWriter::writeUnsignedVarint(uint32_t value) {
    while (value >= 0x80) {
        m_bytes.append(char((value & 0x7F) | 0x80));
        value >>= 7;
    }
    m_bytes.append(char(value));
}

void WireWriter::writeString(const QString& text, bool compact) {
    const QByteArray utf8 = text.toUtf8();
    if (compact)
        writeUnsignedVarint(uint32_t(utf8.size()) + 1);
    else
        writeInt16(int16_t(utf8.size()));
    m_bytes.append(utf8);
}

void WireWriter::writeNullString(bool compact) {
    if (compact)
        writeUnsignedVarint(0);
    else
        writeInt16(-1);
}

void WireWriter::writeBytes(QByteArrayView bytes, bool compact) {
    if (compact)
        writeUnsignedVarint(uint32_t(bytes.size()) + 1);
    else
        writeInt32(int32_t(bytes.size()));
    m_bytes.append(bytes);
}

void WireWriter::writeNullBytes(bool compact) {
    if (compact)
        writeUnsignedVarint(0);
    else
        writeInt32(-1);
}

void WireWriter::writeArrayLength(int count, bool compact) {
    if (compact)
        writeUnsignedVarint(uint32_t(count) + 1);
    else
        writeInt32(count);
}

void WireWriter::writeNullArray(bool compact) {
    writeNullBytes(compact); // same encoding: -1 or varint 0
}

} // namespace groupscope::kafka::protocol
