#pragma once
// The records of consumer, share and streams groups (ConsumerGroupRecord.h) from their
// decoded keys and values.

#include "kafka/protocol/MessageStruct.h"
#include "offsetstopic/ConsumerGroupRecord.h"

#include <optional>

namespace groupscope::offsetstopic {

class ConsumerGroupRecordReader {
public:
    // Which group type and record a key type is; nullopt for the classic groups' types
    // (0-2) and for types Kafka 4.4 does not write.
    struct Kind {
        kafka::GroupType groupType;
        ConsumerGroupRecordType type;
    };
    static std::optional<Kind> kindOf(int16_t keyType);

    // `value` is null for a tombstone.
    static ConsumerGroupRecord read(int16_t keyType, const kafka::protocol::Struct& key,
                                    const std::optional<kafka::protocol::Struct>& value,
                                    int16_t valueVersion, int64_t recordTimestamp);
};

} // namespace groupscope::offsetstopic
