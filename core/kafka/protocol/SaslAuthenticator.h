#pragma once

#include "kafka/Result.h"
#include "kafka/protocol/ConnectionSecurity.h"

#include <chrono>

namespace groupscope::kafka::protocol {

class BrokerConnection;

// SASL on a freshly opened connection (KIP-152: SaslHandshake, then SaslAuthenticate
// frames): PLAIN, SCRAM-SHA-256/512 (RFC 5802/7677) and OAUTHBEARER (RFC 7628). A refusal
// is KafkaError::authenticationFailed with the broker's message; nothing secret is put in
// any error.
class SaslAuthenticator {
public:
    using Deadline = std::chrono::steady_clock::time_point;
    static Status authenticate(BrokerConnection& connection, const ConnectionSecurity& security,
                               Deadline deadline);
};

} // namespace groupscope::kafka::protocol
