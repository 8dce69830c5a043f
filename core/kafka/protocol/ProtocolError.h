#pragma once

#include "kafka/KafkaError.h"

namespace groupscope::kafka::protocol {

// An error of the group protocol client with exactly this message (KafkaError::fromCode
// appends librdkafka's description of the code, which says less than ours).
inline KafkaError protocolError(int code, const QString& message) {
    return KafkaError{code, message, false, false};
}

// " (text)" after a description, or nothing when there is no text: the broker's own
// error message, added to ours when it sent one.
inline QString inParentheses(const QString& text) {
    return text.isEmpty() ? QString() : QStringLiteral(" (") + text + u')';
}

} // namespace groupscope::kafka::protocol
