#include "notifications/TrayNotifier.h"

#include <QCoreApplication>
#include <QSystemTrayIcon>

namespace groupscope::ui {

TrayNotifier::TrayNotifier(QSystemTrayIcon* tray)
    : m_tray(tray) {}

void TrayNotifier::notify(const alerts::Alert& alert) {
    if (!m_tray)
        return;
    // A hidden icon cannot show a message: the tray icon appears with the first alert.
    if (!m_tray->isVisible())
        m_tray->show();
    const QSystemTrayIcon::MessageIcon icon =
        alert.kind == alerts::AlertKind::Health || alert.kind == alerts::AlertKind::WriteOverwritten
            ? QSystemTrayIcon::Warning
            : QSystemTrayIcon::Information;
    m_tray->showMessage(alert.title(), alert.detail, icon, 15000);
}

QString TrayNotifier::description() const {
    return QCoreApplication::translate("TrayNotifier", "system tray messages");
}

} // namespace groupscope::ui
