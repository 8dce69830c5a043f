#include "kafka/protocol/TlsSocketFactory.h"

#include <QFile>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslSocket>

namespace groupscope::kafka::protocol {

namespace {

Result<QByteArray> readFile(const QString& path, const char* what) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return KafkaError::invalidArgument(QStringLiteral("cannot read the %1 %2: %3")
                                               .arg(QLatin1String(what), path, file.errorString()));
    return file.readAll();
}

} // namespace

Result<std::unique_ptr<QSslSocket>> TlsSocketFactory::create(const ConnectionSecurity& security) {
    if (!QSslSocket::supportsSsl())
        return KafkaError::tlsHandshakeFailed(
            QStringLiteral("this build of Qt has no TLS backend (OpenSSL not found)"));
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    if (!security.caLocation.isEmpty()) {
        Result<QByteArray> pem = readFile(security.caLocation, "CA file (ssl.ca.location)");
        if (!pem)
            return pem.error();
        const QList<QSslCertificate> authorities = QSslCertificate::fromData(pem.value());
        if (authorities.isEmpty())
            return KafkaError::invalidArgument(
                QStringLiteral("the CA file %1 (ssl.ca.location) holds no PEM certificate")
                    .arg(security.caLocation));
        configuration.setCaCertificates(authorities);
    }
    if (!security.certificateLocation.isEmpty()) {
        Result<QByteArray> pem =
            readFile(security.certificateLocation, "client certificate (ssl.certificate.location)");
        if (!pem)
            return pem.error();
        const QList<QSslCertificate> chain = QSslCertificate::fromData(pem.value());
        if (chain.isEmpty())
            return KafkaError::invalidArgument(
                QStringLiteral("the client certificate %1 holds no PEM certificate")
                    .arg(security.certificateLocation));
        configuration.setLocalCertificateChain(chain);
        const QString keyPath =
            security.keyLocation.isEmpty() ? security.certificateLocation : security.keyLocation;
        Result<QByteArray> keyPem = readFile(keyPath, "client key (ssl.key.location)");
        if (!keyPem)
            return keyPem.error();
        QSslKey key;
        for (QSsl::KeyAlgorithm algorithm : {QSsl::Rsa, QSsl::Ec, QSsl::Dsa}) {
            key = QSslKey(keyPem.value(), algorithm, QSsl::Pem, QSsl::PrivateKey,
                          security.keyPassword.toUtf8());
            if (!key.isNull())
                break;
        }
        if (key.isNull())
            return KafkaError::invalidArgument(
                QStringLiteral("cannot open the client key %1: not a PEM private key, or the "
                               "passphrase (ssl.key.password) is wrong")
                    .arg(keyPath));
        configuration.setPrivateKey(key);
    }
    configuration.setPeerVerifyMode(security.verifyCertificate ? QSslSocket::VerifyPeer
                                                               : QSslSocket::VerifyNone);
    auto socket = std::make_unique<QSslSocket>();
    socket->setSslConfiguration(configuration);
    if (security.verifyCertificate && !security.verifyHostName) {
        // The chain is still checked; only a name mismatch is accepted, as librdkafka does
        // with ssl.endpoint.identification.algorithm=none. The signal comes during the
        // blocking handshake, on this thread.
        QSslSocket* raw = socket.get();
        QObject::connect(raw, &QSslSocket::sslErrors, raw, [raw](const QList<QSslError>& errors) {
            for (const QSslError& error : errors) {
                if (error.error() != QSslError::HostNameMismatch)
                    return;
            }
            raw->ignoreSslErrors();
        });
    }
    return socket;
}

QString TlsSocketFactory::describeFailure(const QSslSocket& socket) {
    QStringList reasons;
    for (const QSslError& error : socket.sslHandshakeErrors())
        reasons.append(error.errorString());
    if (reasons.isEmpty())
        reasons.append(socket.errorString());
    reasons.removeDuplicates();
    return reasons.join(QStringLiteral("; "));
}

} // namespace groupscope::kafka::protocol
