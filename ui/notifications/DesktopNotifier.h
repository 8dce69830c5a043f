#pragma once

#include "alerts/Alert.h"

#include <QString>

namespace groupscope::ui {

// Shows an alert outside the window: a desktop notification, or the tray's message. An
// interface so that tests record what would have been shown (RecordingNotifier in
// tests/gui) and the window does not care which one the desktop offers.
class DesktopNotifier {
public:
    virtual ~DesktopNotifier() = default;
    virtual void notify(const alerts::Alert& alert) = 0;
    // "desktop notifications (D-Bus)", "system tray": for the alert panel's footer.
    virtual QString description() const = 0;
};

} // namespace groupscope::ui
