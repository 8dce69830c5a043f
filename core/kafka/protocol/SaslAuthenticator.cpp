#include "kafka/protocol/SaslAuthenticator.h"

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/BrokerConnection.h"
#include "kafka/protocol/MessageCodec.h"
#include "kafka/protocol/OAuthTokenSource.h"
#include "kafka/protocol/ScramClient.h"

#include <librdkafka/rdkafka.h>

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

// One SaslAuthenticate round: sends `token`, returns the broker's reply bytes.
Result<QByteArray> exchange(BrokerConnection& connection, const QByteArray& token,
                            Deadline deadline) {
    const ApiSpec& api = saslAuthenticateApi();
    Struct request = MessageCodec::make(api.request);
    request.set("AuthBytes", token);
    Result<Struct> answer = connection.call(api, request, deadline);
    if (!answer)
        return answer.error();
    const int64_t error = answer.value().integer("ErrorCode");
    if (error != 0) {
        const QString message = answer.value().string("ErrorMessage");
        return KafkaError::authenticationFailed(
            QStringLiteral("broker %1: %2")
                .arg(connection.address().toString(),
                     message.isEmpty() ? KafkaError::fromCode(int(error)).message : message));
    }
    return answer.value().bytes("AuthBytes");
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
    if (mechanism == u"OAUTHBEARER") {
        Result<QString> token = OAuthTokenSource::token(security, deadline);
        if (!token)
            return token.error();
        // RFC 7628's initial client response: GS2 header, then the bearer token.
        const QByteArray message =
            QByteArrayLiteral("n,,\x01") + "auth=Bearer " + token.value().toUtf8() + "\x01\x01";
        Result<QByteArray> answer = exchange(connection, message, deadline);
        return answer ? Status(Done{}) : Status(answer.error());
    }
    return KafkaError::authenticationFailed(
        QStringLiteral("SASL mechanism %1 is not supported by Groupscope's group protocol client")
            .arg(mechanism));
}

} // namespace groupscope::kafka::protocol
