#pragma once

#include "notifications/DesktopNotifier.h"

#include <QDBusConnection>
#include <QObject>

#include <memory>

namespace groupscope::ui {

// Alerts as freedesktop.org desktop notifications: org.freedesktop.Notifications.Notify on
// the session bus (the notification daemon of GNOME, KDE, Xfce, dunst, ...). The call is
// asynchronous, so the GUI thread never waits for the daemon; when it answers with an error
// (no daemon, none activatable), this and every later alert go to `fallback` instead.
class FreedesktopNotifier : public QObject, public DesktopNotifier {
    Q_OBJECT
public:
    static constexpr const char* service = "org.freedesktop.Notifications";
    static constexpr const char* path = "/org/freedesktop/Notifications";

    FreedesktopNotifier(QDBusConnection bus, std::unique_ptr<DesktopNotifier> fallback,
                        QObject* parent = nullptr);
    ~FreedesktopNotifier() override;

    void notify(const alerts::Alert& alert) override;
    QString description() const override;
    // Whether the daemon refused or was missing, so alerts go to the fallback.
    bool usesFallback() const { return m_failed; }

private:
    QDBusConnection m_bus;
    std::unique_ptr<DesktopNotifier> m_fallback;
    bool m_failed = false;
};

} // namespace groupscope::ui
