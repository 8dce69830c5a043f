#pragma once

#include "kafka/KafkaError.h"
#include "kafka/protocol/MessageStruct.h"

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

// An answer's (or one of its entries') ErrorCode and ErrorMessage as an error saying
// `what`; none for 0.
inline KafkaError answerError(const Struct& answer, const QString& what) {
    const int64_t code = answer.integer("ErrorCode");
    if (code == 0)
        return {};
    const QString message = answer.string("ErrorMessage");
    return KafkaError::fromCode(int(code),
                                message.isEmpty() ? what : what + QStringLiteral(": ") + message);
}

} // namespace groupscope::kafka::protocol
