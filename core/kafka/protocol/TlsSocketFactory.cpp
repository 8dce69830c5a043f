#include "kafka/protocol/TlsSocketFactory.h"

#include <QFile>
#include <QHostAddress>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslError>
#include <QSslKey>
#include <QSslSocket>

#include <algorithm>

namespace groupscope::kafka::protocol {

namespace {

Result<QByteArray> readFile(const QString& path, const char* what) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return KafkaError::invalidArgument(QStringLiteral("cannot read the %1 %2: %3")
                                               .arg(QLatin1String(what), path, file.errorString()));
    return file.readAll();
}

// True for a name OpenSSL checks as an IPv4 address: four decimal numbers up to 255.
bool isDottedQuad(const QString& host) {
    const QStringList parts = host.split(u'.');
    if (parts.size() != 4)
        return false;
    for (const QString& part : parts) {
        bool number = false;
        if (part.isEmpty() ||
            !std::all_of(part.cbegin(), part.cend(), [](QChar c) { return c.isDigit(); }) ||
            part.toInt(&number) > 255 || !number)
            return false;
    }
    return true;
}

// RFC 6125 as OpenSSL applies it: a case-insensitive match, or a wildcard standing for the
// whole leftmost label ("*.example.com" matches "a.example.com", not "a.b.example.com").
bool matchesName(const QString& pattern, const QString& host) {
    if (pattern.compare(host, Qt::CaseInsensitive) == 0)
        return true;
    if (!pattern.startsWith(u"*.") || pattern.count(u'.') < 2)
        return false;
    const qsizetype firstDot = host.indexOf(u'.');
    return firstDot > 0 && host.mid(firstDot).compare(pattern.mid(1), Qt::CaseInsensitive) == 0;
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
                QStringLiteral("cannot load the client key %1: wrong key passphrase "
                               "(ssl.key.password), or not a PEM private key")
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

QString TlsSocketFactory::hostNameMismatch(const QSslSocket& socket, const QString& host) {
    // Qt's own check stands for host names and for addresses spelled as OpenSSL spells them.
    if (QHostAddress(host).isNull() || host.contains(u':') || isDottedQuad(host))
        return {};
    const QSslCertificate certificate = socket.peerCertificate();
    QStringList names = certificate.subjectAlternativeNames().values(QSsl::DnsEntry);
    if (names.isEmpty())
        names = certificate.subjectInfo(QSslCertificate::CommonName);
    for (const QString& name : std::as_const(names)) {
        if (matchesName(name, host))
            return {};
    }
    return QStringLiteral("%1 (\"%2\" is a host name to TLS, not an IP address; the "
                          "certificate names %3)")
        .arg(QSslError(QSslError::HostNameMismatch).errorString(), host,
             names.isEmpty() ? QStringLiteral("no host") : names.join(QStringLiteral(", ")));
}

} // namespace groupscope::kafka::protocol
