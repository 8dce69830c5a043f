#pragma once

#include "kafka/ConnectionProfile.h"
#include "kafka/Result.h"

#include <QString>

namespace groupscope::kafka {

// What a profile's transport exposes of its credentials, said before anything is sent.

// Groupscope's own property (never given to librdkafka) that lets an OIDC token endpoint be
// reached over http:// on a host other than this machine.
inline const QString allowInsecureTokenEndpointKey =
    QStringLiteral("groupscope.oauthbearer.token.endpoint.allow.insecure");

// Empty, or the warning for a profile whose password can be read on the network path:
// SASL/PLAIN over SASL_PLAINTEXT (the password crosses in clear), or SCRAM over
// SASL_PLAINTEXT to a broker that is not on this machine (the exchange and every record
// after it can be read and altered).
QString cleartextCredentialsWarning(const ConnectionProfile& profile);

// Refuses an OIDC token endpoint over http:// on a host other than this machine, where the
// client secret would cross the network in clear, unless the profile sets
// allowInsecureTokenEndpointKey to true.
Status checkTokenEndpoint(const ConnectionProfile& profile);

// "localhost", or an address of the loopback interface.
bool isLoopbackHost(const QString& host);

} // namespace groupscope::kafka
