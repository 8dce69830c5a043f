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
    int64_t consumerGroupRecords = 0;  // key types 3-8
    int64_t unknownVersions = 0;       // unknown record types and value versions, skipped
    int64_t otherGroupTypeRecords = 0; // share and streams groups' records (9-23), skipped
    int64_t errors = 0;
};

// Decodes records of `__consumer_offsets` into values. The key's version (the record type
// since KIP-848) says what the record is: 0 and 1 an offset commit (OffsetCommitKey), 2 a
// classic group's metadata (GroupMetadataKey), 3 to 8 a consumer-protocol group's records
// (ConsumerGroupRecordDecoder); anything else (share and streams groups) is reported as
// unknown, to be counted and skipped. Known values: OffsetCommitValue v0-4,
// GroupMetadataValue v0-4 (v4 flexible: compact strings and tagged fields), the consumer
// group values v0. Bytes are untrusted: every read is bounds checked and
// a malformed record yields an OffsetsTopicDecodeError naming the field and byte offset.
class OffsetsTopicDecoder {
public:
    static constexpr int16_t newestOffsetCommitValueVersion = 4;
    static constexpr int16_t newestGroupMetadataValueVersion = 4;
    // Kafka 4.4's record types of share groups (9-15) and streams groups (16-23).
    static constexpr int16_t firstShareGroupRecordType = 9;
    static constexpr int16_t lastStreamsGroupRecordType = 23;

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
