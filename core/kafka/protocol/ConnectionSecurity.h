#pragma once
// How the group protocol client secures a connection, read from the same connection
// profile (and so the same librdkafka property names) as every other client in Groupscope.

#include "kafka/ConnectionProfile.h"
#include "kafka/Result.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace groupscope::kafka::protocol {

struct ConnectionSecurity {
    bool tls = false;
    QString caLocation;          // PEM file; empty: the system's trust store
    QString certificateLocation; // client certificate (PEM), for mutual TLS
    QString keyLocation;
    QString keyPassword;
    // Verification stays on unless the profile turned it off explicitly.
    bool verifyCertificate = true;
    bool verifyHostName = true;

    // Empty: no SASL. PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER.
    QString saslMechanism;
    QString username;
    QString password;
    // OAUTHBEARER, in one of three ways, read from librdkafka's sasl.oauthbearer.* keys:
    //  - a ready token the user obtained: sasl.oauthbearer.config "token=..." (Groupscope's
    //    own form; AdminClient hands it to librdkafka too);
    //  - librdkafka's unsecured JWT for test clusters: enable.sasl.oauthbearer.unsecure.jwt
    //    =true with sasl.oauthbearer.config "principal=NAME [scope=A,B] [lifeSeconds=N]
    //    [principalClaimName=sub] [scopeClaimName=scope] [extension_NAME=VALUE]", an
    //    unsigned token made afresh for each connection;
    //  - OIDC client credentials fetched from the token endpoint
    //    (sasl.oauthbearer.method=oidc, .token.endpoint.url, .client.id, .client.secret,
    //    .scope, .extensions "NAME=VALUE,..."; https.ca.location for the endpoint's CA).
    QString oauthStaticToken;
    QString oauthUnsecuredPrincipal;
    QString oauthPrincipalClaim = QStringLiteral("sub");
    QStringList oauthUnsecuredScope;
    QString oauthScopeClaim = QStringLiteral("scope");
    int oauthLifeSeconds = 3600;
    QString oauthTokenEndpoint;
    QString oauthClientId;
    QString oauthClientSecret;
    QString oauthScope;
    QString oauthCaLocation; // https.ca.location: PEM file; empty: the system's trust store
    // SASL extensions sent with the token (KIP-342), in order.
    QList<QPair<QString, QString>> oauthExtensions;

    // The settings of `profile`, or an error naming what this client does not speak (e.g.
    // GSSAPI, or a TLS setting it cannot honour): the caller then falls back to librdkafka
    // and says which features that costs.
    static Result<ConnectionSecurity> fromProfile(const ConnectionProfile& profile);
};

} // namespace groupscope::kafka::protocol
