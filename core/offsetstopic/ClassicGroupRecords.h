#pragma once
// The records of classic groups in `__consumer_offsets`, from their decoded key and value
// (OffsetCommitKey/Value, GroupMetadataKey/Value), and the consumer protocol's formats in
// the subscription and assignment bytes of a "consumer" group's members.

#include "kafka/protocol/MessageStruct.h"
#include "offsetstopic/OffsetsTopicRecord.h"

#include <QByteArrayView>

#include <optional>
#include <variant>

namespace groupscope::offsetstopic {

class ClassicGroupRecords {
public:
    // `value` is null for a tombstone; `valueVersion` is its version otherwise.
    static OffsetCommit offsetCommit(int16_t keyType, const kafka::protocol::Struct& key,
                                     const std::optional<kafka::protocol::Struct>& value,
                                     int16_t valueVersion, int64_t recordTimestamp);
    static GroupMetadata groupMetadata(const kafka::protocol::Struct& key,
                                       const std::optional<kafka::protocol::Struct>& value,
                                       int16_t valueVersion, int64_t recordTimestamp);

    // An int16 version, then ConsumerProtocolAssignment or ConsumerProtocolSubscription.
    // Kafka reads versions newer than it knows with the newest format it knows (new
    // versions only append fields), so these do too and ignore what follows the known
    // fields.
    static std::variant<ConsumerAssignment, OffsetsTopicDecodeError>
    decodeAssignment(QByteArrayView bytes);
    static std::variant<ConsumerSubscription, OffsetsTopicDecodeError>
    decodeSubscription(QByteArrayView bytes);
};

} // namespace groupscope::offsetstopic
