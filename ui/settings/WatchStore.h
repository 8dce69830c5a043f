#pragma once

#include "alerts/AlertThresholds.h"

#include <QHash>
#include <QSet>
#include <QString>

namespace groupscope::ui {

// What the user watches on one connection: the starred groups and each one's thresholds.
struct WatchSettings {
    QSet<QString> groups;
    QHash<QString, alerts::AlertThresholds> thresholds; // only groups with their own
};

// Reads and writes WatchSettings with QSettings, per connection (group "watch", keyed by
// the profile's name, or its bootstrap servers for a connection never saved), and the one
// application-wide choice of keeping Groupscope in the tray when its window is closed.
class WatchStore {
public:
    static WatchSettings load(const QString& connectionKey);
    static void save(const QString& connectionKey, const WatchSettings& settings);

    // Off unless the user turns it on: closing the window quits, as everywhere else.
    static bool keepRunningInTray();
    static void setKeepRunningInTray(bool keep);
};

} // namespace groupscope::ui
