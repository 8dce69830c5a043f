#pragma once

#include "kafka/ConnectionProfile.h"

#include <chrono>

namespace groupscope::ui {

// A connection profile as the connection manager keeps it: the librdkafka side plus what
// only the GUI needs. Secrets (SASL password, key passphrase) are never written to
// QSettings: SecretStore holds them (system keychain, or memory for this session only),
// as it holds secret extra properties.
struct SavedConnection {
    kafka::ConnectionProfile profile;
    bool readOnly = false; // every write action (Apply, Undo, import-and-apply) is disabled
    std::chrono::milliseconds refreshInterval{2000};
    // How its windows tell it apart from the others: a colour ("#rrggbb", empty for none)
    // on the window's edge, and a production flag that asks a second time before any write.
    QString colour;
    bool production = false;
    // Names of the profile's secret extra properties (ConnectionProfile::isSecretProperty)
    // whose values SecretStore keeps; they join extraProperties when the profile is used.
    QStringList secretProperties;
    // A profile saved in the connection manager: its windows remember their layout, sort,
    // filter and open group under its name. A one-off --bootstrap-server connection does not.
    bool isSavedProfile = false;

    // What windows and messages call it: the profile's name, else its servers.
    QString displayName() const {
        return profile.name.isEmpty() ? profile.bootstrapServers : profile.name;
    }

    bool needsSaslPassword() const {
        return profile.securityProtocol.startsWith(QStringLiteral("SASL"));
    }
    bool needsKeyPassword() const {
        return !profile.sslKeyLocation.isEmpty() &&
               profile.securityProtocol.endsWith(QStringLiteral("SSL"));
    }
};

} // namespace groupscope::ui
