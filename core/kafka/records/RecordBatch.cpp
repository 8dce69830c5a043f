#include "kafka/records/RecordBatch.h"

#include <algorithm>

namespace groupscope::kafka::records {

namespace {

// A bounds-checked cursor over one batch's bytes; the first failure sticks.
class Cursor {
public:
    explicit Cursor(QByteArrayView bytes)
        : m_bytes(bytes) {}

    bool failed() const { return m_failed; }
    qsizetype position() const { return m_position; }
    qsizetype remaining() const { return m_bytes.size() - m_position; }

    uint64_t bigEndian(int size) {
        if (!require(size))
            return 0;
        uint64_t value = 0;
        for (int i = 0; i < size; ++i)
            value = (value << 8) | uint8_t(m_bytes[m_position + i]);
        m_position += size;
        return value;
    }
    int8_t int8() { return int8_t(bigEndian(1)); }
    int16_t int16() { return int16_t(bigEndian(2)); }
    int32_t int32() { return int32_t(bigEndian(4)); }
    int64_t int64() { return int64_t(bigEndian(8)); }

    // Kafka's zig-zag varint/varlong (ByteUtils.readVarlong): at most 10 bytes.
    int64_t varlong() {
        uint64_t raw = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (!require(1))
                return 0;
            const uint8_t byte = uint8_t(m_bytes[m_position++]);
            raw |= uint64_t(byte & 0x7F) << shift;
            if (!(byte & 0x80))
                return int64_t(raw >> 1) ^ -int64_t(raw & 1);
        }
        m_failed = true;
        return 0;
    }
    void skip(int64_t count) {
        if (count < 0 || !require(count))
            return;
        m_position += qsizetype(count);
    }

private:
    bool require(int64_t count) {
        if (m_failed || count > remaining()) {
            m_failed = true;
            return false;
        }
        return true;
    }

    QByteArrayView m_bytes;
    qsizetype m_position = 0;
    bool m_failed = false;
};

// Reads the records of an uncompressed batch (DefaultRecord.java) as far as the bytes go.
void readRecords(Cursor& body, RecordBatchHeader& batch) {
    for (int32_t i = 0; i < batch.recordCount && body.remaining() > 0; ++i) {
        const int64_t length = body.varlong();
        if (body.failed() || length <= 0 || length > body.remaining())
            return; // cut (or corrupt): keep what was read
        const qsizetype start = body.position();
        body.int8(); // attributes, unused
        const int64_t timestampDelta = body.varlong();
        const int64_t offsetDelta = body.varlong();
        if (body.failed() || offsetDelta < 0 || offsetDelta > batch.lastOffsetDelta)
            return;
        RecordEntry entry;
        // Corrupt bytes may put either sum past 64 bits: such an offset ends the batch, such
        // a timestamp is unknown (-1), as a missing one is.
        if (__builtin_add_overflow(batch.baseOffset, offsetDelta, &entry.offset))
            return;
        int64_t createTime = -1;
        if (batch.baseTimestamp < 0 ||
            __builtin_add_overflow(batch.baseTimestamp, timestampDelta, &createTime))
            createTime = -1;
        entry.timestampMs = batch.logAppendTime() ? batch.maxTimestamp : createTime;
        if (batch.isControl() && !batch.controlType) {
            const int64_t keyLength = body.varlong();
            if (keyLength >= 4) {
                body.int16(); // the control key's version
                const int16_t type = body.int16();
                if (!body.failed() && (type == 0 || type == 1))
                    batch.controlType = ControlType(type);
            }
        }
        batch.records.append(entry);
        const qsizetype used = body.position() - start;
        body.skip(length - used);
        if (body.failed())
            return;
    }
}

} // namespace

DecodedBatches decodeRecordBatches(QByteArrayView bytes, int maxBatches) {
    DecodedBatches decoded;
    qsizetype position = 0;
    while (position < bytes.size() && decoded.batches.size() < maxBatches) {
        const QByteArrayView rest = bytes.sliced(position);
        // Too short for the offset, length and magic: the answer was cut here.
        if (rest.size() < 17)
            break;
        Cursor head(rest);
        RecordBatchHeader batch;
        batch.baseOffset = head.int64();
        batch.batchLength = head.int32();
        head.int32(); // partition leader epoch
        batch.magic = head.int8();
        if (batch.magic != 2) {
            decoded.problem =
                QStringLiteral("message format v%1 at offset %2: only v2 batches are read")
                    .arg(batch.magic)
                    .arg(batch.baseOffset);
            break;
        }
        // The smallest v2 batch is its header after the offset and length fields.
        if (batch.batchLength < recordBatchHeaderSize - 12 || batch.baseOffset < 0) {
            decoded.problem = QStringLiteral("a record batch with length %1 at offset %2")
                                  .arg(batch.batchLength)
                                  .arg(batch.baseOffset);
            break;
        }
        if (rest.size() < recordBatchHeaderSize)
            break;    // cut inside the header
        head.int32(); // crc: the broker checked it on append; a cut batch cannot be checked
        batch.attributes = head.int16();
        batch.lastOffsetDelta = head.int32();
        batch.baseTimestamp = head.int64();
        batch.maxTimestamp = head.int64();
        batch.producerId = head.int64();
        batch.producerEpoch = head.int16();
        head.int32(); // base sequence
        batch.recordCount = head.int32();
        if (batch.lastOffsetDelta < 0 || batch.recordCount < 0 ||
            batch.baseOffset > INT64_MAX - batch.lastOffsetDelta) {
            decoded.problem = QStringLiteral("a record batch at offset %1 with offset delta %2 "
                                             "and %3 records")
                                  .arg(batch.baseOffset)
                                  .arg(batch.lastOffsetDelta)
                                  .arg(batch.recordCount);
            break;
        }
        const qsizetype total = qsizetype(batch.batchLength) + 12;
        batch.complete = total <= rest.size();
        if (batch.compression() == 0) {
            Cursor body(rest.sliced(recordBatchHeaderSize,
                                    std::min(total, rest.size()) - recordBatchHeaderSize));
            readRecords(body, batch);
        }
        decoded.batches.append(std::move(batch));
        if (!decoded.batches.last().complete)
            break;
        position += total;
    }
    return decoded;
}

} // namespace groupscope::kafka::records
