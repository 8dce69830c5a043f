#include "kafka/protocol/ScramClient.h"

#include <QCryptographicHash>
#include <QList>
#include <QMessageAuthenticationCode>
#include <QPasswordDigestor>
#include <QRandomGenerator>

namespace groupscope::kafka::protocol {

namespace {

QCryptographicHash::Algorithm algorithmOf(ScramClient::Hash hash) {
    return hash == ScramClient::Hash::Sha512 ? QCryptographicHash::Sha512
                                             : QCryptographicHash::Sha256;
}

QByteArray randomNonce() {
    QByteArray bytes(24, '\0');
    QRandomGenerator::system()->generate(bytes.begin(), bytes.end());
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

// "r=...,s=...,i=..." → the value of `key`, or a null array.
QByteArray attribute(const QByteArray& message, char key) {
    for (const QByteArray& part : message.split(',')) {
        if (part.size() >= 2 && part[0] == key && part[1] == '=')
            return part.mid(2);
    }
    return {};
}

// The broker's "e=" reason (RFC 5802 server-error), as far as it is a short printable word:
// whatever a broker sends there ends up in an error the user reads.
QString serverError(const QByteArray& reason) {
    QString readable;
    for (const char c : reason.left(80))
        readable.append(c >= 0x20 && c < 0x7f ? QChar::fromLatin1(c) : QChar(u'?'));
    return QStringLiteral("the broker refused: %1").arg(readable);
}

KafkaError scramError(const QString& detail) {
    return KafkaError::authenticationFailed(QStringLiteral("SCRAM: %1").arg(detail));
}

// Iteration counts beyond this would make the client spend minutes deriving the key: a
// hostile or broken broker must not freeze the worker (Kafka's own maximum is 16384).
constexpr int maximumIterations = 1 << 20;

} // namespace

ScramClient::ScramClient(Hash hash, const QString& username, const QString& password)
    : ScramClient(hash, username, password, randomNonce()) {}

ScramClient::ScramClient(Hash hash, const QString& username, const QString& password,
                         const QByteArray& clientNonce)
    : m_hash(hash)
    , m_username(username.toUtf8().replace("=", "=3D").replace(",", "=2C"))
    , m_password(password.toUtf8())
    , m_clientNonce(clientNonce) {}

QByteArray ScramClient::hmac(const QByteArray& key, const QByteArray& message) const {
    return QMessageAuthenticationCode::hash(message, key, algorithmOf(m_hash));
}

QByteArray ScramClient::digest(const QByteArray& data) const {
    return QCryptographicHash::hash(data, algorithmOf(m_hash));
}

QByteArray ScramClient::clientFirstMessage() const {
    return "n,,n=" + m_username + ",r=" + m_clientNonce;
}

Result<QByteArray> ScramClient::clientFinalMessage(const QByteArray& serverFirstMessage) {
    const QByteArray nonce = attribute(serverFirstMessage, 'r');
    const QByteArray salt = QByteArray::fromBase64(attribute(serverFirstMessage, 's'));
    bool numeric = false;
    const int iterations = attribute(serverFirstMessage, 'i').toInt(&numeric);
    if (!attribute(serverFirstMessage, 'e').isEmpty())
        return scramError(serverError(attribute(serverFirstMessage, 'e')));
    if (nonce.isEmpty() || salt.isEmpty() || !numeric || iterations < 1)
        return scramError(QStringLiteral("the broker's first message is malformed"));
    if (iterations > maximumIterations)
        return scramError(QStringLiteral("the broker asks for %1 iterations").arg(iterations));
    if (!nonce.startsWith(m_clientNonce) || nonce.size() == m_clientNonce.size())
        return scramError(QStringLiteral("the broker's nonce does not extend the client's"));

    const int keyLength = m_hash == Hash::Sha512 ? 64 : 32;
    m_saltedPassword = QPasswordDigestor::deriveKeyPbkdf2(algorithmOf(m_hash), m_password, salt,
                                                          iterations, quint64(keyLength));
    const QByteArray clientFirstBare = "n=" + m_username + ",r=" + m_clientNonce;
    const QByteArray withoutProof = "c=biws,r=" + nonce; // biws: base64 of "n,,"
    m_authMessage = clientFirstBare + "," + serverFirstMessage + "," + withoutProof;

    const QByteArray clientKey = hmac(m_saltedPassword, "Client Key");
    const QByteArray clientSignature = hmac(digest(clientKey), m_authMessage);
    QByteArray proof = clientKey;
    for (qsizetype i = 0; i < proof.size(); ++i)
        proof[i] = char(proof[i] ^ clientSignature[i]);
    return withoutProof + ",p=" + proof.toBase64();
}

Status ScramClient::verifyServerFinalMessage(const QByteArray& serverFinalMessage) const {
    if (const QByteArray error = attribute(serverFinalMessage, 'e'); !error.isEmpty())
        return scramError(serverError(error));
    const QByteArray serverKey = hmac(m_saltedPassword, "Server Key");
    const QByteArray expected = hmac(serverKey, m_authMessage).toBase64();
    if (attribute(serverFinalMessage, 'v') != expected)
        return scramError(QStringLiteral("the broker's signature is wrong: it does not know the "
                                         "password, or something between altered the exchange"));
    return Done{};
}

} // namespace groupscope::kafka::protocol
