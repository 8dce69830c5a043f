#pragma once
// Record batches (Kafka's message format v2) as a Fetch answer carries them: the header of
// each batch and, where the records are not compressed, each record's offset and
// timestamp. Enough to tell data from transaction markers and to read a record's real
// timestamp without a consumer. Kafka's DefaultRecordBatch.java documents the layout.

#include <QByteArrayView>
#include <QList>
#include <QString>

#include <cstdint>
#include <optional>

namespace groupscope::kafka::records {

// A transaction marker's kind (the control record's key type).
enum class ControlType : int16_t { Abort = 0, Commit = 1 };

struct RecordEntry {
    int64_t offset = -1;
    int64_t timestampMs = -1; // -1: the producer gave none (CreateTime -1)
};

struct RecordBatchHeader {
    int64_t baseOffset = -1;
    int32_t batchLength = 0;
    int8_t magic = 2;
    int16_t attributes = 0;
    int32_t lastOffsetDelta = 0;
    int64_t baseTimestamp = -1;
    int64_t maxTimestamp = -1;
    int64_t producerId = -1;
    int16_t producerEpoch = -1;
    int32_t recordCount = 0;
    // The whole batch was in the bytes; a Fetch answer cut at its size limit ends in a
    // batch of which only a prefix came.
    bool complete = false;
    // The records read (uncompressed batches only), as far as the bytes went.
    QList<RecordEntry> records;
    std::optional<ControlType> controlType; // a control batch's marker, when its record came

    int64_t lastOffset() const { return baseOffset + lastOffsetDelta; }
    int compression() const { return attributes & 0x07; }
    bool logAppendTime() const { return attributes & 0x08; }
    bool isTransactional() const { return attributes & 0x10; }
    bool isControl() const { return attributes & 0x20; }
};

struct DecodedBatches {
    QList<RecordBatchHeader> batches;
    // Why decoding stopped before the last byte: empty when the bytes ended on a batch
    // boundary or inside a batch (a cut answer, which is normal), else the problem (an
    // old message format, a length that cannot be).
    QString problem;
};

// The size of a v2 batch header: everything before the first record.
inline constexpr int recordBatchHeaderSize = 61;

// Decodes untrusted bytes: every length is checked against what is left and against the
// batch it is in; at most `maxBatches` batches are read.
DecodedBatches decodeRecordBatches(QByteArrayView bytes, int maxBatches = 10000);

} // namespace groupscope::kafka::records
