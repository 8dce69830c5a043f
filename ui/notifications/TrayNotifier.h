#pragma once

#include "notifications/DesktopNotifier.h"

#include <QPointer>

class QSystemTrayIcon;

namespace groupscope::ui {

// Alerts as the tray icon's balloon message: where no notification service runs on a
// session bus (QSystemTrayIcon then uses the platform's own way, or nothing at all).
class TrayNotifier : public DesktopNotifier {
public:
    explicit TrayNotifier(QSystemTrayIcon* tray);
    void notify(const alerts::Alert& alert) override;
    QString description() const override;

private:
    QPointer<QSystemTrayIcon> m_tray;
};

} // namespace groupscope::ui
