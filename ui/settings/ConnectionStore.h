#pragma once

#include "settings/SavedConnection.h"

#include <QList>

namespace groupscope::ui {

// Reads and writes the saved profiles: QSettings (group "connections") for everything but
// secrets, SecretStore for the passwords and secret extra properties.
class ConnectionStore {
public:
    // Profiles come without their secrets (SecretStore has them). A secret an older version
    // left in the settings file in clear moves to SecretStore and leaves the file.
    static QList<SavedConnection> load();
    // Replaces every saved profile. Secrets the profiles carry go to SecretStore; the
    // settings file gets only the names of secret properties.
    static void save(const QList<SavedConnection>& connections);
    // The connection without its secrets, after handing them to SecretStore.
    static SavedConnection keepSecrets(const SavedConnection& connection);
    // Forgets every secret of a profile (it was deleted).
    static void forgetSecrets(const SavedConnection& connection);
    // SecretStore's key for one secret of a profile: "sasl-password", "ssl-key-password", or
    // a property's name.
    static QString secretKey(const QString& profileName, const QString& which);
    static QString propertySecretKey(const QString& profileName, const QString& property);
    static const QString saslPasswordKey;
    static const QString keyPasswordKey;
    static QString lastUsed();
    static void setLastUsed(const QString& name);
};

} // namespace groupscope::ui
