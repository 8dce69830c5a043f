#include "kafka/protocol/SaslAuthenticator.h"

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/BrokerConnection.h"
#include "kafka/protocol/MessageCodec.h"
#include "kafka/protocol/OAuthTokenSource.h"
#include "kafka/protocol/ProtocolError.h"
#include "kafka/protocol/ScramClient.h"

#include <librdkafka/rdkafka.h>

#include <QJsonDocument>
#include <QJsonObject>

namespace groupscope::kafka::protocol {

namespace {

using Deadline = SaslAuthenticator::Deadline;

Status handshake(BrokerConnection& connection, const QString& mechanism, Deadline deadline) {
    const ApiSpec& api = saslHandshakeApi();
    Struct request = MessageCodec::make(api.request);
    request.set("Mechanism", mechanism);
    // Version 1 says that SaslAuthenticate frames follow (KIP-152); version 0's raw
    // tokens are not spoken here.
    Result<Struct> answer = connection.call(api, 1, request, deadline);
    if (!answer)
        return answer.error();
    const int64_t error = answer.value().integer("ErrorCode");
    if (error == RD_KAFKA_RESP_ERR_UNSUPPORTED_SASL_MECHANISM)
        return KafkaError::authenticationFailed(
            QStringLiteral("broker %1 does not enable SASL mechanism %2 (it offers %3)")
                .arg(connection.address().toString(), mechanism,
                     answer.value().strings("Mechanisms").join(QStringLiteral(", "))));
    if (error != 0)
        return KafkaError::fromCode(
            int(error),
            QStringLiteral("SASL handshake with %1").arg(connection.address().toString()));
    return Done{};
}

// One SaslAuthenticate round as the broker answered it; notes the session lifetime the
// broker gave (with the last round).
Result<Struct> round(BrokerConnection& connection, const QByteArray& token, Deadline deadline) {
    const ApiSpec& api = saslAuthenticateApi();
    Struct request = MessageCodec::make(api.request);
    request.set("AuthBytes", token);
    Result<Struct> answer = connection.call(api, request, deadline);
    if (answer && answer.value().integer("ErrorCode") == 0)
        connection.setSessionLifetime(
            std::chrono::milliseconds(answer.value().integer("SessionLifetimeMs")));
    return answer;
}

// The broker's reason for failing a round: its message, else what its error code means.
QString refusal(const Struct& answer) {
    const QString message = answer.string("ErrorMessage");
    return message.isEmpty() ? KafkaError::fromCode(int(answer.integer("ErrorCode"))).message
                             : message;
}

// One round: sends `token`, returns the broker's reply bytes.
Result<QByteArray> exchange(BrokerConnection& connection, const QByteArray& token,
                            Deadline deadline) {
    Result<Struct> answer = round(connection, token, deadline);
    if (!answer)
        return answer.error();
    if (answer.value().integer("ErrorCode") != 0)
        return KafkaError::authenticationFailed(
            QStringLiteral("broker %1: %2")
                .arg(connection.address().toString(), refusal(answer.value())));
    return answer.value().bytes("AuthBytes");
}

// RFC 7628 3.1's client response: GS2 header, the bearer token, the extensions.
QByteArray oauthClientResponse(const QString& token, const ConnectionSecurity& security) {
    // Two literals: "\x01auth" would read as the hex escape \x01a.
    QByteArray message = QByteArrayLiteral("n,,\x01"
                                           "auth=Bearer ") +
                         token.toUtf8() + '\x01';
    for (const auto& [key, value] : security.oauthExtensions)
        message += key.toUtf8() + '=' + value.toUtf8() + '\x01';
    return message + '\x01';
}

Status authenticateOAuth(BrokerConnection& connection, const ConnectionSecurity& security,
                         Deadline deadline) {
    Result<QString> token = OAuthTokenSource::token(security, deadline);
    if (!token)
        return token.error();
    Result<QByteArray> answer =
        exchange(connection, oauthClientResponse(token.value(), security), deadline);
    if (!answer || answer.value().isEmpty())
        return answer ? Status(Done{}) : Status(answer.error());
    // RFC 7628 3.2.2: a refusal comes as a challenge, a JSON status ("invalid_token"), to
    // which the client answers %x01; the broker then fails the exchange with its message.
    const QString status =
        QJsonDocument::fromJson(answer.value()).object().value(QStringLiteral("status")).toString();
    Result<Struct> final = round(connection, QByteArrayLiteral("\x01"), deadline);
    // The broker's message is most often the challenge again: said once.
    QString reason =
        final && final.value().integer("ErrorCode") != 0 ? refusal(final.value()) : QString();
    if (reason.trimmed() == QString::fromUtf8(answer.value()).trimmed())
        reason.clear();
    return protocolError(
        RD_KAFKA_RESP_ERR__AUTHENTICATION,
        QStringLiteral("authentication failed: broker %1 refused the SASL OAUTHBEARER token%2 "
                       "(check sasl.oauthbearer.config, or the token endpoint's client and "
                       "scope)%3")
            .arg(connection.address().toString(),
                 inParentheses(status.isEmpty() ? QString() : QStringLiteral("status ") + status),
                 reason.isEmpty() ? QString() : QStringLiteral(": ") + reason));
}

Status authenticateScram(BrokerConnection& connection, const ConnectionSecurity& security,
                         Deadline deadline) {
    ScramClient scram(security.saslMechanism == u"SCRAM-SHA-512" ? ScramClient::Hash::Sha512
                                                                 : ScramClient::Hash::Sha256,
                      security.username, security.password);
    Result<QByteArray> serverFirst = exchange(connection, scram.clientFirstMessage(), deadline);
    if (!serverFirst)
        return serverFirst.error();
    Result<QByteArray> clientFinal = scram.clientFinalMessage(serverFirst.value());
    if (!clientFinal)
        return clientFinal.error();
    Result<QByteArray> serverFinal = exchange(connection, clientFinal.value(), deadline);
    if (!serverFinal)
        return serverFinal.error();
    return scram.verifyServerFinalMessage(serverFinal.value());
}

} // namespace

Status SaslAuthenticator::authenticate(BrokerConnection& connection,
                                       const ConnectionSecurity& security, Deadline deadline) {
    const QString& mechanism = security.saslMechanism;
    if (Status agreed = handshake(connection, mechanism, deadline); !agreed)
        return agreed;
    if (mechanism == u"PLAIN") {
        // RFC 4616: authorisation id (empty), user, password, separated by NUL.
        const QByteArray token = QByteArray(1, '\0') + security.username.toUtf8() +
                                 QByteArray(1, '\0') + security.password.toUtf8();
        Result<QByteArray> answer = exchange(connection, token, deadline);
        return answer ? Status(Done{}) : Status(answer.error());
    }
    if (mechanism.startsWith(u"SCRAM-"))
        return authenticateScram(connection, security, deadline);
    if (mechanism == u"OAUTHBEARER")
        return authenticateOAuth(connection, security, deadline);
    return KafkaError::authenticationFailed(
        QStringLiteral("SASL mechanism %1 is not supported by Groupscope's group protocol client")
            .arg(mechanism));
}

} // namespace groupscope::kafka::protocol
