#include "kafka/KafkaError.h"

#include "kafka/RdKafkaHandles.h"

namespace groupscope::kafka {

QString KafkaError::toString() const {
    if (!isError())
        return QStringLiteral("no error");
    return QStringLiteral("%1 (%2)").arg(message, codeName());
}

KafkaError KafkaError::fromCode(rd_kafka_resp_err_t code, const QString& context) {
    KafkaError error;
    error.code = code;
    const QString description = QString::fromUtf8(rd_kafka_err2str(code));
    error.message = context.isEmpty() ? description : context + QStringLiteral(": ") + description;
    return error;
}

KafkaError KafkaError::fromError(rd_kafka_error_t* raw) {
    ErrorHandle owned(raw);
    KafkaError error;
    if (!raw)
        return error;
    error.code = rd_kafka_error_code(raw);
    error.message = QString::fromUtf8(rd_kafka_error_string(raw));
    error.retriable = rd_kafka_error_is_retriable(raw);
    error.fatal = rd_kafka_error_is_fatal(raw);
    return error;
}

KafkaError KafkaError::timeout(const QString& message) {
    KafkaError error;
    error.code = RD_KAFKA_RESP_ERR__TIMED_OUT;
    error.message = message;
    error.retriable = true;
    return error;
}

KafkaError KafkaError::invalidArgument(const QString& message) {
    KafkaError error;
    error.code = RD_KAFKA_RESP_ERR__INVALID_ARG;
    error.message = message;
    return error;
}

} // namespace groupscope::kafka
