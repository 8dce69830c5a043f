#pragma once

#include "offsetstopic/OffsetsTopicRecord.h"

#include <QByteArrayView>

#include <cstdint>
#include <optional>

namespace groupscope::kafka::protocol {
class WireReader;
}

namespace groupscope::offsetstopic {

using kafka::protocol::WireReader;

// Decodes the records of consumer-protocol groups (key types 3-8). Keys are not flexible
// (classic strings: the group id, and the member id for types 5, 7 and 8); values are
// version 0 and flexible. A value version newer than 0 is reported as unknown (counted and
// skipped, as Kafka's own readers would refuse it too); malformed bytes as a decode error.
class ConsumerGroupRecordDecoder {
public:
    static constexpr int16_t newestValueVersion = 0;

    static bool handles(int16_t keyType) { return keyType >= 3 && keyType <= 8; }

    // `keyReader` is positioned after the key type.
    static OffsetsTopicRecord decode(int16_t keyType, WireReader& keyReader,
                                     std::optional<QByteArrayView> value, int64_t recordTimestamp);
};

} // namespace groupscope::offsetstopic
