#pragma once

#include "kafka/Result.h"
#include "kafka/protocol/ConnectionSecurity.h"

#include <chrono>

namespace groupscope::kafka::protocol {

// The bearer token for SASL/OAUTHBEARER: the profile's static token, or one fetched from
// the OIDC token endpoint with the client-credentials grant (RFC 6749 4.4), as librdkafka
// does for sasl.oauthbearer.method=oidc. The client secret goes in the Authorization
// header only, and neither it nor the token appears in any error.
class OAuthTokenSource {
public:
    using Deadline = std::chrono::steady_clock::time_point;
    static Result<QString> token(const ConnectionSecurity& security, Deadline deadline);
};

} // namespace groupscope::kafka::protocol
