#pragma once

#include "offsetstopic/OffsetsTopicRecord.h"

#include <QByteArrayView>

namespace groupscope::offsetstopic {

// The consumer protocol's embedded formats, found in the subscription and assignment bytes
// of a "consumer" group's members. Kafka reads versions newer than it knows with the newest
// format it knows (new versions only append fields), so these do too and ignore what
// follows the known fields.
class OffsetsTopicConsumerProtocol {
public:
    static std::variant<ConsumerAssignment, OffsetsTopicDecodeError>
    decodeAssignment(QByteArrayView bytes);
    static std::variant<ConsumerSubscription, OffsetsTopicDecodeError>
    decodeSubscription(QByteArrayView bytes);
};

} // namespace groupscope::offsetstopic
