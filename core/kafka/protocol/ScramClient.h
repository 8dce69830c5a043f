#pragma once

#include "kafka/Result.h"

#include <QByteArray>
#include <QString>

namespace groupscope::kafka::protocol {

// The client side of SCRAM (RFC 5802, with SHA-256 or SHA-512 as RFC 7677 and Kafka's
// KIP-84 use it): client-first, client-final with the proof, and the check of the server's
// signature, so that a broker that does not know the password is not believed either.
class ScramClient {
public:
    enum class Hash { Sha256, Sha512 };

    ScramClient(Hash hash, const QString& username, const QString& password);
    // For tests: a fixed nonce instead of a random one (RFC 7677's example).
    ScramClient(Hash hash, const QString& username, const QString& password,
                const QByteArray& clientNonce);

    QByteArray clientFirstMessage() const;
    // An error when the server's first message is malformed or its nonce does not extend
    // ours; the password never appears in any error.
    Result<QByteArray> clientFinalMessage(const QByteArray& serverFirstMessage);
    Status verifyServerFinalMessage(const QByteArray& serverFinalMessage) const;

private:
    QByteArray hmac(const QByteArray& key, const QByteArray& message) const;
    QByteArray digest(const QByteArray& data) const;

    Hash m_hash;
    QByteArray m_username; // SCRAM's saslname: '=' and ',' escaped
    QByteArray m_password;
    QByteArray m_clientNonce;
    QByteArray m_authMessage;
    QByteArray m_saltedPassword;
};

} // namespace groupscope::kafka::protocol
