#include "notifications/FreedesktopNotifier.h"

#include <QCoreApplication>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QVariantMap>

namespace groupscope::ui {

namespace {

// The specification's urgency hint: 1 normal, 2 critical (stays until dismissed).
uchar urgencyOf(const alerts::Alert& alert) {
    const bool critical =
        alert.kind == alerts::AlertKind::StuckRebalance ||
        alert.kind == alerts::AlertKind::WriteOverwritten ||
        (alert.kind == alerts::AlertKind::Health && alert.to.startsWith(QStringLiteral("ERR")));
    return critical ? 2 : 1;
}

} // namespace

FreedesktopNotifier::FreedesktopNotifier(QDBusConnection bus,
                                         std::unique_ptr<DesktopNotifier> fallback, QObject* parent)
    : QObject(parent)
    , m_bus(std::move(bus))
    , m_fallback(std::move(fallback)) {}

FreedesktopNotifier::~FreedesktopNotifier() = default;

void FreedesktopNotifier::notify(const alerts::Alert& alert) {
    if (m_failed || !m_bus.isConnected()) {
        if (m_fallback)
            m_fallback->notify(alert);
        return;
    }
    QDBusMessage call =
        QDBusMessage::createMethodCall(QString::fromLatin1(service), QString::fromLatin1(path),
                                       QString::fromLatin1(service), QStringLiteral("Notify"));
    const QVariantMap hints{
        {QStringLiteral("urgency"), QVariant::fromValue(urgencyOf(alert))},
        {QStringLiteral("desktop-entry"), QStringLiteral("org.groupscope.Groupscope")}};
    // Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout)
    call << QStringLiteral("Groupscope") << uint(0) << QStringLiteral("org.groupscope.Groupscope")
         << alert.title() << alert.detail.toHtmlEscaped() << QStringList() << hints << int(-1);
    auto* watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(call), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, alert](QDBusPendingCallWatcher* finished) {
                finished->deleteLater();
                if (!finished->isError())
                    return;
                // No daemon after all: the tray has to do, for this alert and the next.
                m_failed = true;
                if (m_fallback)
                    m_fallback->notify(alert);
            });
}

QString FreedesktopNotifier::description() const {
    if (m_failed && m_fallback)
        return m_fallback->description();
    return QCoreApplication::translate("FreedesktopNotifier", "desktop notifications (D-Bus)");
}

} // namespace groupscope::ui
