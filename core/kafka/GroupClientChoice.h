#pragma once
// Which client reads a profile's groups: Groupscope's own group protocol client
// (core/kafka/protocol), or librdkafka's admin API when the profile needs what the own
// client does not speak (GSSAPI, PKCS#12 keystores, inline PEM) or the environment asks
// for librdkafka. AdminClient::create follows it; the CLI and the GUI say what the
// fallback costs before the first request.

#include "kafka/ConnectionProfile.h"
#include "kafka/KafkaError.h"

#include <QString>

namespace groupscope::kafka {

struct GroupClientChoice {
    // The environment variable that forces librdkafka for every profile:
    // GROUPSCOPE_GROUP_CLIENT=librdkafka. For comparing the two clients (the secured
    // broker's tests run both ways) and as a way out should the own client misbehave
    // against some broker. Any other value, or none, leaves the choice to the profile.
    static constexpr const char* environmentVariable = "GROUPSCOPE_GROUP_CLIENT";

    bool ownClient = true;
    // Why not, when !ownClient (names the setting: "SASL mechanism GSSAPI", or the
    // environment variable).
    KafkaError reason;

    // Read afresh on every call (the environment included).
    static GroupClientChoice forProfile(const ConnectionProfile& profile);

    // Empty for the own client; otherwise one sentence for people: why librdkafka reads
    // the groups, and which features that costs.
    QString fallbackNote() const;
    static QString fallbackNote(const KafkaError& reason);
};

} // namespace groupscope::kafka
