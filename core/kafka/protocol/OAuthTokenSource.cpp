#include "kafka/protocol/OAuthTokenSource.h"

#include "kafka/protocol/ProtocolError.h"

#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>
#include <QUrl>
#include <QUrlQuery>

namespace groupscope::kafka::protocol {

namespace {

KafkaError tokenError(const QString& endpoint, const QString& detail) {
    return KafkaError::authenticationFailed(
        QStringLiteral("could not get an OAuth token from %1: %2").arg(endpoint, detail));
}

} // namespace

Result<QString> OAuthTokenSource::token(const ConnectionSecurity& security, Deadline deadline) {
    if (!security.oauthStaticToken.isEmpty())
        return security.oauthStaticToken;
    const QUrl endpoint(security.oauthTokenEndpoint);
    if (!endpoint.isValid() || endpoint.scheme().isEmpty())
        return KafkaError::invalidArgument(
            QStringLiteral("sasl.oauthbearer.token.endpoint.url is not set to a valid URL"));

    QNetworkAccessManager network;
    QNetworkRequest request(endpoint);
    request.setHeader(QNetworkRequest::ContentTypeHeader,
                      QStringLiteral("application/x-www-form-urlencoded"));
    const QByteArray credentials = (QUrl::toPercentEncoding(security.oauthClientId) + ':' +
                                    QUrl::toPercentEncoding(security.oauthClientSecret))
                                       .toBase64();
    request.setRawHeader("Authorization", "Basic " + credentials);
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
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    timer.start(int(std::max<int64_t>(1, left.count())));
    loop.exec();
    const QString where = endpoint.toString(QUrl::RemoveUserInfo | QUrl::RemoveQuery);
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
    const QJsonObject answer = QJsonDocument::fromJson(body).object();
    if (status != 200) {
        const QString reason = answer.value(u"error").toString();
        return tokenError(where,
                          QStringLiteral("HTTP %1%2").arg(status).arg(inParentheses(reason)));
    }
    const QString token = answer.value(u"access_token").toString();
    if (token.isEmpty())
        return tokenError(where, QStringLiteral("the answer has no access_token"));
    return token;
}

} // namespace groupscope::kafka::protocol
