#pragma once

#include "kafka/ConnectionProfile.h"

#include <chrono>

namespace groupscope::ui {

// A connection profile as the connection manager keeps it: the librdkafka side plus what
// only the GUI needs. Secrets (SASL password, key passphrase) are never written to
// QSettings: SecretStore holds them (system keychain, or memory for this session only).
struct SavedConnection {
    kafka::ConnectionProfile profile;
    bool readOnly = false; // every write action (Apply, Undo, import-and-apply) is disabled
    std::chrono::milliseconds refreshInterval{2000};

    bool needsSaslPassword() const {
        return profile.securityProtocol.startsWith(QStringLiteral("SASL"));
    }
    bool needsKeyPassword() const {
        return !profile.sslKeyLocation.isEmpty() &&
               profile.securityProtocol.endsWith(QStringLiteral("SSL"));
    }
};

} // namespace groupscope::ui
