#pragma once

#include "offsetstopic/OffsetsTopicRecord.h"

#include <QByteArrayView>

#include <cstdint>
#include <optional>

namespace groupscope::offsetstopic {

// How many records of each kind a decoder has seen, so a monitor can say "12 records of
// unknown versions skipped" instead of failing or hiding them.
struct OffsetsTopicDecoderStatistics {
    int64_t offsetCommits = 0;
    int64_t groupMetadata = 0;
    int64_t consumerGroupRecords = 0; // key types 3-8 and 16
    int64_t shareGroupRecords = 0;    // key types 10-15
    int64_t streamsGroupRecords = 0;  // key types 17 and 19-23
    int64_t unknownVersions = 0;      // unknown record types and value versions, skipped
    int64_t errors = 0;
};

// Decodes records of `__consumer_offsets` into values, with the message specs of
// kafka/protocol/CoordinatorRecords.h and MessageCodec. The key's leading int16 (the record
// type since KIP-848, "version" in the oldest schemas) says what the record is: 0 and 1 an
// offset commit, 2 a classic group's metadata (ClassicGroupRecords), 3 to 23 the records of
// consumer, share and streams groups (ConsumerGroupRecordReader). A record type or value
// version newer than Kafka 4.4's is reported as unknown, to be counted and skipped. Bytes
// are untrusted: a malformed record yields an OffsetsTopicDecodeError naming the field and
// the byte offset in the key or value.
class OffsetsTopicDecoder {
public:
    // A null `value` is a tombstone: the offset or group was deleted or expired.
    static OffsetsTopicRecord decodeRecord(QByteArrayView key, std::optional<QByteArrayView> value,
                                           int64_t recordTimestamp);

    // decodeRecord(), counted in statistics().
    OffsetsTopicRecord decode(QByteArrayView key, std::optional<QByteArrayView> value,
                              int64_t recordTimestamp);
    const OffsetsTopicDecoderStatistics& statistics() const { return m_statistics; }

private:
    OffsetsTopicDecoderStatistics m_statistics;
};

} // namespace groupscope::offsetstopic
