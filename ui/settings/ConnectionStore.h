#pragma once

#include "settings/SavedConnection.h"

#include <QList>

namespace groupscope::ui {

// Reads and writes the saved profiles with QSettings (group "connections").
class ConnectionStore {
public:
    static QList<SavedConnection> load();
    // Replaces every saved profile; the secret fields of the profiles are ignored.
    static void save(const QList<SavedConnection>& connections);
    static QString lastUsed();
    static void setLastUsed(const QString& name);
};

} // namespace groupscope::ui
