// SASL authentication, described from Kafka's message specifications
// (SaslHandshakeRequest/Response, SaslAuthenticateRequest/Response).

#include "kafka/protocol/Apis.h"

namespace groupscope::kafka::protocol {

// SaslHandshake: picks the mechanism. v1 is the one Groupscope needs: after it the
// mechanism's tokens travel in SaslAuthenticate requests (after v0 they are raw frames). Never
// flexible, and Kafka cannot bump it (KAFKA-9577).
const ApiSpec& saslHandshakeApi() {
    using enum FieldType;
    static const ApiSpec api{ApiKey::SaslHandshake, "SaslHandshake",
                             MessageSpec{"SaslHandshakeRequest",
                                         between(0, 1),
                                         never(),
                                         {
                                             field("Mechanism", String, since(0)),
                                         }},
                             MessageSpec{"SaslHandshakeResponse",
                                         between(0, 1),
                                         never(),
                                         {
                                             field("ErrorCode", Int16, since(0)),
                                             field("Mechanisms", StringArray, since(0)),
                                         }}};
    return api;
}

// SaslAuthenticate: one round of the mechanism's exchange (PLAIN one, SCRAM two,
// OAUTHBEARER one). v1+ tells the session lifetime, after which the connection must
// re-authenticate (KIP-368).
const ApiSpec& saslAuthenticateApi() {
    using enum FieldType;
    static const ApiSpec api{
        ApiKey::SaslAuthenticate, "SaslAuthenticate",
        MessageSpec{"SaslAuthenticateRequest",
                    between(0, 2),
                    since(2),
                    {
                        field("AuthBytes", Bytes, since(0)),
                    }},
        MessageSpec{"SaslAuthenticateResponse",
                    between(0, 2),
                    since(2),
                    {
                        field("ErrorCode", Int16, since(0)),
                        field("ErrorMessage", String, since(0)).nullable(since(0)),
                        field("AuthBytes", Bytes, since(0)),
                        field("SessionLifetimeMs", Int64, since(1)),
                    }}};
    return api;
}

} // namespace groupscope::kafka::protocol
