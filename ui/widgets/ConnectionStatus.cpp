#include "widgets/ConnectionStatus.h"

#include "controllers/ProfileController.h"

#include <QLabel>
#include <QMainWindow>
#include <QStatusBar>

namespace groupscope::ui {

namespace {

QString timeOfDay(const QDateTime& time) {
    return time.toLocalTime().toString(QStringLiteral("HH:mm:ss"));
}

// An error red that stays readable on the palette in use: dark red on light windows,
// light red on dark ones.
QString errorColour(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < 128 ? QStringLiteral("#ff8a80")
                                                             : QStringLiteral("#b42318");
}

} // namespace

ConnectionStatus::ConnectionStatus(QMainWindow* window, ProfileController* profile)
    : QObject(window)
    , m_window(window)
    , m_statusLabel(new QLabel(window))
    , m_refreshLabel(new QLabel(window)) {
    m_statusLabel->setObjectName(QStringLiteral("connectionStatus"));
    m_statusLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Long error texts are cut by the status bar; the tooltip holds the whole text.
    m_statusLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_refreshLabel->setObjectName(QStringLiteral("lastRefresh"));
    // The profile and the connection's state are normal widgets, which a temporary message
    // ("Deleted g; Undo in the History tab…") replaces for its few seconds: a permanent
    // widget that stretches would leave such a message no room at all.
    QStatusBar* bar = window->statusBar();
    bar->addWidget(profile->profileLabel());
    bar->addWidget(m_statusLabel, 1);
    bar->addPermanentWidget(profile->modeLabel());
    bar->addPermanentWidget(m_refreshLabel);
}

QString ConnectionStatus::text() const {
    return m_statusLabel->text();
}

void ConnectionStatus::showNotConnected() {
    m_servers.clear();
    show(tr("Not connected"), false);
}

void ConnectionStatus::showConnecting(const QString& servers) {
    m_servers = servers;
    m_lastGoodRefresh = {};
    m_lastFailure.clear();
    m_refreshLabel->clear();
    show(tr("Connecting to %1…").arg(servers), false);
}

void ConnectionStatus::showConnected(const monitor::ClusterView& view, int groups) {
    m_lastGoodRefresh =
        view.cluster.takenAt.isValid() ? view.cluster.takenAt : QDateTime::currentDateTime();
    // The time of the refresh is in its own permanent label beside this one.
    QString status = tr("Connected to %1 — %2")
                         .arg(m_servers, groups == 1 ? tr("1 group") : tr("%1 groups").arg(groups));
    if (const auto& skips = view.offsetsTopicSkips; skips.total() > 0)
        status +=
            (skips.total() == 1 ? tr(" — offsets topic: 1 record skipped")
                                : tr(" — offsets topic: %1 records skipped").arg(skips.total())) +
            (skips.lastDecodeError.isEmpty() ? QString()
                                             : tr(" (last: %1)").arg(skips.lastDecodeError));
    show(status, false);
    m_refreshLabel->setText(tr("Last refresh %1").arg(timeOfDay(m_lastGoodRefresh)));
}

void ConnectionStatus::showFailure(const QString& message) {
    // The age of what is on screen goes first: error texts can be long and get cut off.
    const QString failedAt = timeOfDay(QDateTime::currentDateTime());
    const QString text = m_lastGoodRefresh.isValid()
                             ? tr("Refresh failed at %1, showing data from %2 — %3")
                                   .arg(failedAt, timeOfDay(m_lastGoodRefresh), message)
                             : tr("Refresh failed at %1 — %2").arg(failedAt, message);
    m_lastFailure = message;
    show(text, true);
}

QString ConnectionStatus::unavailableText() const {
    if (m_servers.isEmpty())
        return tr("Not connected. Use File › Connections… to choose a cluster.");
    if (!m_lastGoodRefresh.isValid())
        return m_isError ? tr("Cannot reach %1.\n\n%2").arg(m_servers, m_lastFailure)
                         : tr("Connecting to %1…").arg(m_servers);
    return {};
}

void ConnectionStatus::show(const QString& text, bool isError) {
    m_isError = isError;
    m_statusLabel->setText(text);
    m_statusLabel->setToolTip(text);
    m_statusLabel->setStyleSheet(
        isError ? QStringLiteral("color: %1;").arg(errorColour(m_window->palette())) : QString());
    emit changed();
}

} // namespace groupscope::ui
