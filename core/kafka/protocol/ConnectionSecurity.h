#pragma once
// How the group protocol client secures a connection, read from the same connection
// profile (and so the same librdkafka property names) as every other client in Groupscope.

#include "kafka/ConnectionProfile.h"
#include "kafka/Result.h"

#include <QString>

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
    // OAUTHBEARER: a static token (sasl.oauthbearer.config "token=..."), or OIDC client
    // credentials fetched from the token endpoint (sasl.oauthbearer.method=oidc).
    QString oauthStaticToken;
    QString oauthTokenEndpoint;
    QString oauthClientId;
    QString oauthClientSecret;
    QString oauthScope;

    // The settings of `profile`, or an error naming what this client does not speak (e.g.
    // GSSAPI, or a TLS setting it cannot honour): the caller then falls back to librdkafka
    // and says which features that costs.
    static Result<ConnectionSecurity> fromProfile(const ConnectionProfile& profile);
};

} // namespace groupscope::kafka::protocol
