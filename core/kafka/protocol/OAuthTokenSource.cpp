#include "kafka/protocol/OAuthTokenSource.h"

#include "kafka/protocol/OAuthTokenAnswer.h"

#include "kafka/protocol/ProtocolError.h"

#include <librdkafka/rdkafka.h>

#include <QCryptographicHash>
#include <QDateTime>
#include <QEventLoop>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QTimer>
#include <QUrl>
#include <QUrlQuery>

namespace groupscope::kafka::protocol {

namespace {

using Clock = std::chrono::steady_clock;

KafkaError tokenError(const QString& endpoint, const QString& detail) {
    return protocolError(RD_KAFKA_RESP_ERR__AUTHENTICATION,
                         QStringLiteral("authentication failed: could not get an OAuth token "
                                        "from %1 (check sasl.oauthbearer.client.id, "
                                        ".client.secret and .scope): %2")
                             .arg(endpoint, detail));
}

QByteArray base64Url(const QByteArray& bytes) {
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

struct CachedToken {
    QString token;
    Clock::time_point refreshAt;
};

QMutex cacheMutex;
QHash<QByteArray, CachedToken> cache;

// The cache key: the endpoint, client and scope; the secret only as part of a digest, so
// that a changed secret fetches anew and the secret itself is kept nowhere.
QByteArray cacheKey(const ConnectionSecurity& security) {
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const QString& part : {security.oauthTokenEndpoint, security.oauthClientId,
                                security.oauthClientSecret, security.oauthScope}) {
        hash.addData(part.toUtf8());
        hash.addData(QByteArrayView("\0", 1));
    }
    return hash.result();
}

Result<QString> fetchToken(const ConnectionSecurity& security,
                           OAuthTokenSource::Deadline deadline) {
    const QUrl endpoint(security.oauthTokenEndpoint);
    if (!endpoint.isValid() || endpoint.scheme().isEmpty())
        return KafkaError::invalidArgument(
            QStringLiteral("sasl.oauthbearer.token.endpoint.url is not set to a valid URL"));
    const QString where = endpoint.toString(QUrl::RemoveUserInfo | QUrl::RemoveQuery);

    QNetworkAccessManager network;
    QNetworkRequest request(endpoint);
    request.setHeader(QNetworkRequest::ContentTypeHeader,
                      QStringLiteral("application/x-www-form-urlencoded"));
    const QByteArray credentials = (QUrl::toPercentEncoding(security.oauthClientId) + ':' +
                                    QUrl::toPercentEncoding(security.oauthClientSecret))
                                       .toBase64();
    request.setRawHeader("Authorization", "Basic " + credentials);
    request.setRawHeader("Accept", "application/json");
    if (!security.oauthCaLocation.isEmpty()) {
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        const QList<QSslCertificate> authorities =
            QSslCertificate::fromPath(security.oauthCaLocation, QSsl::Pem);
        if (authorities.isEmpty())
            return KafkaError::invalidArgument(
                QStringLiteral("the CA file %1 (https.ca.location) holds no PEM certificate")
                    .arg(security.oauthCaLocation));
        tls.setCaCertificates(authorities);
        request.setSslConfiguration(tls);
    }
    QUrlQuery form;
    form.addQueryItem(QStringLiteral("grant_type"), QStringLiteral("client_credentials"));
    if (!security.oauthScope.isEmpty())
        form.addQueryItem(QStringLiteral("scope"), security.oauthScope);

    QNetworkReply* reply = network.post(request, form.toString(QUrl::FullyEncoded).toUtf8());
    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    timer.start(int(std::max<int64_t>(1, left.count())));
    if (!reply->isFinished())
        loop.exec();
    if (!reply->isFinished()) {
        reply->abort();
        reply->deleteLater();
        return tokenError(where, QStringLiteral("no answer in time"));
    }
    reply->deleteLater();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = reply->readAll();
    if (reply->error() != QNetworkReply::NoError && status == 0)
        return tokenError(where, reply->errorString());
    auto answer = OAuthTokenAnswer::read(status, body, QDateTime::currentMSecsSinceEpoch());
    if (const QString* problem = std::get_if<QString>(&answer))
        return tokenError(where, *problem);
    const OAuthTokenAnswer& read = std::get<OAuthTokenAnswer>(answer);
    // Fetched again at 80 % of its lifetime; one that does not say how long it lives is not
    // kept.
    if (read.lifetime) {
        QMutexLocker lock(&cacheMutex);
        cache.insert(cacheKey(security),
                     CachedToken{read.token, Clock::now() + *read.lifetime * 8 / 10});
    }
    return read.token;
}

} // namespace

Result<QString> OAuthTokenSource::token(const ConnectionSecurity& security, Deadline deadline) {
    if (!security.oauthStaticToken.isEmpty())
        return security.oauthStaticToken;
    if (!security.oauthUnsecuredPrincipal.isEmpty())
        return unsecuredToken(security);
    {
        QMutexLocker lock(&cacheMutex);
        if (auto cached = cache.constFind(cacheKey(security));
            cached != cache.cend() && Clock::now() < cached->refreshAt)
            return cached->token;
    }
    return fetchToken(security, deadline);
}

void OAuthTokenSource::clearCache() {
    QMutexLocker lock(&cacheMutex);
    cache.clear();
}

QString OAuthTokenSource::unsecuredToken(const ConnectionSecurity& security) {
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    QJsonObject payload{{security.oauthPrincipalClaim, security.oauthUnsecuredPrincipal},
                        {QStringLiteral("iat"), now},
                        {QStringLiteral("exp"), now + security.oauthLifeSeconds}};
    if (!security.oauthUnsecuredScope.isEmpty())
        payload.insert(security.oauthScopeClaim,
                       QJsonArray::fromStringList(security.oauthUnsecuredScope));
    const QByteArray header = R"({"alg":"none"})";
    return QString::fromLatin1(base64Url(header) + '.' +
                               base64Url(QJsonDocument(payload).toJson(QJsonDocument::Compact)) +
                               '.');
}

} // namespace groupscope::kafka::protocol
