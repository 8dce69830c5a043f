#pragma once
// Reading what an OAuth party says: the OIDC token endpoint's answer and a JWT's claims.
// Both come from the network (the endpoint, or a token a profile names), so these read any
// bytes without trusting them, and are fuzzed.

#include <QByteArray>
#include <QString>

#include <chrono>
#include <optional>
#include <variant>

namespace groupscope::kafka::protocol {

// What a JWT's payload says (unverified: for naming and lifetimes only).
struct JwtClaims {
    QString principal;                 // the claim `principalClaim`, e.g. "sub"
    std::optional<qint64> expiresAtMs; // "exp", in ms since the epoch

    // Empty claims when `token` is not a JWT with a JSON payload.
    static JwtClaims of(const QString& token,
                        const QString& principalClaim = QStringLiteral("sub"));
};

// The token endpoint's answer to a client-credentials request (RFC 6749 5.1 and 5.2).
struct OAuthTokenAnswer {
    QString token;
    // How long the token lives: the answer's expires_in, else the token's own "exp" seen
    // from `nowMs`; nullopt when neither says (the token is then not kept for reuse).
    std::optional<std::chrono::milliseconds> lifetime;

    // The answer, or what is wrong with it: the HTTP status and the endpoint's error code
    // ("invalid_client"), never the rest of the body, which may echo what was sent.
    static std::variant<OAuthTokenAnswer, QString> read(int httpStatus, const QByteArray& body,
                                                        qint64 nowMs);
};

} // namespace groupscope::kafka::protocol
