#include "kafka/protocol/OAuthTokenAnswer.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

#include <algorithm>

namespace groupscope::kafka::protocol {

namespace {

// Seconds as a JSON number may say anything (1e300, -5, NaN): kept within what a token can
// sensibly live, so that the conversion to milliseconds never overflows.
std::optional<qint64> boundedSeconds(const QJsonValue& value) {
    if (!value.isDouble())
        return std::nullopt;
    const double seconds = value.toDouble();
    constexpr double tenYears = 10.0 * 365 * 24 * 3600;
    if (!(seconds >= 1)) // also NaN; under a second is no lifetime to keep a token for
        return std::nullopt;
    return qint64(std::min(seconds, tenYears));
}

} // namespace

JwtClaims JwtClaims::of(const QString& token, const QString& principalClaim) {
    JwtClaims claims;
    const QStringList parts = token.split(u'.');
    if (parts.size() != 3)
        return claims;
    const auto decoded = QByteArray::fromBase64Encoding(
        parts[1].toLatin1(),
        QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return claims;
    const QJsonObject payload = QJsonDocument::fromJson(*decoded).object();
    claims.principal = payload.value(principalClaim).toString();
    // "exp" is seconds since the epoch; a value past the year 2300 or before 1970 is no
    // expiry anyone meant.
    if (const QJsonValue exp = payload.value(u"exp"); exp.isDouble()) {
        const double seconds = exp.toDouble();
        if (seconds >= 1 && seconds < 1.0e10)
            claims.expiresAtMs = qint64(seconds * 1000);
    }
    return claims;
}

std::variant<OAuthTokenAnswer, QString>
OAuthTokenAnswer::read(int httpStatus, const QByteArray& body, qint64 nowMs) {
    const QJsonObject answer = QJsonDocument::fromJson(body).object();
    if (httpStatus != 200) {
        const QString reason = answer.value(u"error").toString().left(80);
        return reason.isEmpty() ? QStringLiteral("HTTP %1").arg(httpStatus)
                                : QStringLiteral("HTTP %1 (%2)").arg(httpStatus).arg(reason);
    }
    OAuthTokenAnswer read;
    read.token = answer.value(u"access_token").toString();
    if (read.token.isEmpty())
        return QStringLiteral("the answer has no access_token");
    if (const auto seconds = boundedSeconds(answer.value(u"expires_in")))
        read.lifetime = std::chrono::seconds(*seconds);
    else if (const auto exp = JwtClaims::of(read.token).expiresAtMs; exp && *exp > nowMs)
        read.lifetime = std::chrono::milliseconds(*exp - nowMs);
    return read;
}

} // namespace groupscope::kafka::protocol
