#include "kafka/KafkaError.h"

#include "kafka/RdKafkaHandles.h"

#include <librdkafka/rdkafka.h>

namespace groupscope::kafka {

QString KafkaError::codeName() const {
    return QString::fromUtf8(rd_kafka_err2name(static_cast<rd_kafka_resp_err_t>(code)));
}

QString KafkaError::toString() const {
    if (!isError())
        return QStringLiteral("no error");
    return QStringLiteral("%1 (%2)").arg(message, codeName());
}

namespace {

// What each authorisation refusal means for the person who sees it, and what to ask for.
QString authorizationExplanation(int code) {
    switch (static_cast<rd_kafka_resp_err_t>(code)) {
    case RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED:
        return QStringLiteral("not authorised: a Kafka ACL denies this user the operation on the "
                              "group, and changing its offsets needs Read on it");
    case RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED:
        return QStringLiteral("not authorised: a Kafka ACL denies this user the operation on the "
                              "topic");
    case RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED:
        return QStringLiteral("not authorised: a Kafka ACL denies this user the operation on the "
                              "cluster");
    case RD_KAFKA_RESP_ERR_TRANSACTIONAL_ID_AUTHORIZATION_FAILED:
    case RD_KAFKA_RESP_ERR_DELEGATION_TOKEN_AUTHORIZATION_FAILED:
        return QStringLiteral("not authorised: a Kafka ACL denies this user the operation");
    default:
        return {};
    }
}

} // namespace

KafkaError KafkaError::fromCode(int code, const QString& context) {
    KafkaError error;
    error.code = code;
    const QString description =
        QString::fromUtf8(rd_kafka_err2str(static_cast<rd_kafka_resp_err_t>(code)));
    error.message = context.isEmpty() ? description : context + QStringLiteral(": ") + description;
    return error.withExplanation();
}

bool KafkaError::isConnectionFailure() const {
    switch (static_cast<rd_kafka_resp_err_t>(code)) {
    case RD_KAFKA_RESP_ERR__TIMED_OUT:
    case RD_KAFKA_RESP_ERR__TRANSPORT:
    case RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN:
    case RD_KAFKA_RESP_ERR__RESOLVE:
        return true;
    default:
        return false;
    }
}

bool KafkaError::isAuthorizationError() const {
    return !authorizationExplanation(code).isEmpty();
}

KafkaError KafkaError::withExplanation() const {
    const QString explanation = authorizationExplanation(code);
    if (explanation.isEmpty() || message.contains(explanation))
        return *this;
    KafkaError explained = *this;
    explained.message += QStringLiteral("; ") + explanation;
    return explained;
}

KafkaError KafkaError::authenticationFailed(const QString& detail) {
    KafkaError error;
    error.code = RD_KAFKA_RESP_ERR__AUTHENTICATION;
    error.message = QStringLiteral("authentication failed: the broker refused the SASL user name "
                                   "or password (check sasl.username, sasl.password and "
                                   "sasl.mechanism): ") +
                    detail;
    return error;
}

KafkaError KafkaError::tlsHandshakeFailed(const QString& detail) {
    KafkaError error;
    error.code = RD_KAFKA_RESP_ERR__SSL;
    error.message =
        QStringLiteral("TLS handshake failed: the broker's certificate is not trusted by the "
                       "configured CA (ssl.ca.location), was issued for another host name, or "
                       "the broker does not speak TLS on this port: ") +
        detail;
    return error;
}

KafkaError KafkaError::connectionSetupFailure(int code, const QString& reason) {
    if (code == RD_KAFKA_RESP_ERR__AUTHENTICATION || reason.contains(u"SASL authentication error"))
        return authenticationFailed(reason);
    if (code == RD_KAFKA_RESP_ERR__SSL || reason.contains(u"SSL handshake failed") ||
        reason.contains(u"certificate verify failed"))
        return tlsHandshakeFailed(reason);
    return {};
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
