#include "controllers/ProfileController.h"

#include "controllers/ResetController.h"
#include "kafka/GroupClientChoice.h"

#include <QColor>
#include <QFrame>
#include <QLabel>
#include <QMainWindow>

namespace groupscope::ui {

ProfileController::ProfileController(QMainWindow* window, ResetController* resets)
    : QObject(window)
    , m_resets(resets)
    , m_colourBar(new QFrame(window))
    , m_profileLabel(new QLabel(window))
    , m_modeLabel(new QLabel(window)) {
    // The profile's colour runs along the window's top edge, so that two windows on two
    // clusters are told apart at a glance.
    m_colourBar->setObjectName(QStringLiteral("profileColourBar"));
    m_colourBar->setFixedHeight(5);
    m_colourBar->hide();
    m_profileLabel->setObjectName(QStringLiteral("profileLabel"));
    m_modeLabel->setObjectName(QStringLiteral("connectionMode"));
}

QColor ProfileController::colour() const {
    return QColor(m_connection.colour);
}

void ProfileController::setConnection(const SavedConnection& connection) {
    m_connection = connection;
    const QString name = connection.displayName();
    const QColor shown = colour();
    m_colourBar->setVisible(shown.isValid());
    m_colourBar->setStyleSheet(
        shown.isValid() ? QStringLiteral("background-color: %1;").arg(shown.name()) : QString());
    m_profileLabel->setText(connection.production ? tr("● %1 · production").arg(name)
                                                  : tr("● %1").arg(name));
    m_profileLabel->setStyleSheet(
        shown.isValid() ? QStringLiteral("color: %1; font-weight: bold;").arg(shown.name())
                        : QStringLiteral("font-weight: bold;"));
    m_profileLabel->setVisible(!name.isEmpty());
    m_resets->setProduction(connection.production, name);
    m_resets->setReadOnly(
        connection.readOnly,
        tr("The connection profile “%1” is read-only: offsets cannot be changed from it.")
            .arg(name));
    showModes();
}

void ProfileController::showModes() {
    // What this connection cannot do: change offsets (read-only), or show what only
    // Groupscope's own protocol client reads (the profile needs librdkafka).
    QStringList modes;
    QStringList reasons;
    if (m_connection.readOnly) {
        modes.append(tr("Read-only"));
        reasons.append(m_resets->readOnlyReason());
    } else if (m_connection.production) {
        modes.append(tr("Production"));
        reasons.append(tr("Every write asks a second time, for the profile's name."));
    }
    if (const QString note =
            kafka::GroupClientChoice::forProfile(m_connection.profile).fallbackNote();
        !note.isEmpty()) {
        modes.append(tr("Via librdkafka"));
        reasons.append(note);
    }
    m_modeLabel->setText(modes.join(QStringLiteral(" · ")));
    m_modeLabel->setToolTip(reasons.join(u'\n'));
    m_modeLabel->setVisible(!modes.isEmpty());
}

QString ProfileController::windowTitle(std::optional<int> groups) const {
    const QString servers = m_connection.profile.bootstrapServers;
    const QString name = m_connection.displayName();
    QString title = name == servers ? name : tr("%1 (%2)").arg(name, servers);
    if (groups)
        title =
            tr("%1 — %2").arg(title, *groups == 1 ? tr("1 group") : tr("%1 groups").arg(*groups));
    if (m_connection.production)
        title = tr("%1 [production]").arg(title);
    return tr("Groupscope — %1").arg(title);
}

} // namespace groupscope::ui
