#pragma once

#include "kafka/Result.h"
#include "kafka/protocol/ConnectionSecurity.h"

#include <chrono>
#include <optional>

namespace groupscope::kafka::protocol {

// The bearer token for SASL/OAUTHBEARER: the profile's static token, librdkafka's unsecured
// JWT made afresh, or one fetched from the OIDC token endpoint with the client-credentials
// grant (RFC 6749 4.4), as librdkafka does for sasl.oauthbearer.method=oidc. A fetched token
// is kept (process-wide, per endpoint, client and scope) until 80 % of its lifetime, as
// librdkafka refreshes it, so that the connections to every broker share one. The client
// secret goes in the Authorization header only, and neither it nor any token appears in an
// error.
class OAuthTokenSource {
public:
    using Deadline = std::chrono::steady_clock::time_point;
    static Result<QString> token(const ConnectionSecurity& security, Deadline deadline);

    // librdkafka's unsecured JWT (header {"alg":"none"}, no signature) for the security's
    // principal, scope and lifetime, issued now.
    static QString unsecuredToken(const ConnectionSecurity& security);

    // Forgets every fetched token (tests).
    static void clearCache();
};

} // namespace groupscope::kafka::protocol
