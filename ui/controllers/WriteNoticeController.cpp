#include "controllers/WriteNoticeController.h"

#include "controllers/AlertController.h"
#include "controllers/ResetController.h"
#include "controllers/WindowAlertsController.h"

#include <QApplication>
#include <QDateTime>
#include <QMainWindow>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

#include <algorithm>

namespace groupscope::ui {

WriteNoticeController::WriteNoticeController(QMainWindow* window, ResetController* resets,
                                             WindowAlertsController* alerts,
                                             std::function<QString()> connectionName)
    : QObject(window)
    , m_window(window)
    , m_resets(resets)
    , m_alerts(alerts)
    , m_connectionName(std::move(connectionName)) {
    connect(resets, &ResetController::writeFinished, this, &WriteNoticeController::showOutcome);
    connect(resets, &ResetController::overwrittenAfterWrite, alerts,
            &WindowAlertsController::alertOverwritten);
}

void WriteNoticeController::showOutcome(const QString& summary) {
    if (!m_closeWhenWriteEnds) {
        m_window->statusBar()->showMessage(summary, 15000);
        return;
    }
    alerts::Alert alert;
    alert.atMs = QDateTime::currentMSecsSinceEpoch();
    alert.group = m_connectionName();
    alert.kind = alerts::AlertKind::WriteFinished;
    alert.from = tr("window closed");
    alert.to = tr("done");
    alert.detail = summary;
    m_alerts->alerts()->raise(alert);
    m_closeWhenWriteEnds = false;
    m_window->close();
    if (s_quitting && !anyWindowWaitsForItsWrite())
        QCoreApplication::quit();
}

bool WriteNoticeController::anyWindowWaitsForItsWrite() {
    const QWidgetList windows = QApplication::topLevelWidgets();
    return std::any_of(windows.cbegin(), windows.cend(), [](QWidget* window) {
        const auto notices =
            window->findChildren<WriteNoticeController*>(QString(), Qt::FindDirectChildrenOnly);
        return std::any_of(notices.cbegin(), notices.cend(),
                           [](const WriteNoticeController* n) { return n->m_closeWhenWriteEnds; });
    });
}

bool WriteNoticeController::closeMustWait() {
    if (!m_resets->isApplying())
        return false;
    QMessageBox box(QMessageBox::Warning, tr("A change is being applied"),
                    tr("Groupscope is writing offsets to %1. Closing the window now would "
                       "leave you without its outcome.")
                        .arg(m_connectionName()),
                    QMessageBox::NoButton, m_window);
    box.setInformativeText(tr("The window can go now and close itself when the write is done; "
                              "its outcome is then shown as a notification and kept in the "
                              "History tab's journal."));
    QPushButton* whenDone = box.addButton(tr("Close When Done"), QMessageBox::AcceptRole);
    QPushButton* stop =
        box.addButton(tr("Stop If Not Sent Yet, Then Close"), QMessageBox::DestructiveRole);
    box.addButton(tr("Keep Open"), QMessageBox::RejectRole);
    box.setDefaultButton(whenDone);
    box.exec();
    if (box.clickedButton() != whenDone && box.clickedButton() != stop)
        return true; // the window stays
    if (box.clickedButton() == stop)
        m_resets->cancelApply();
    m_closeWhenWriteEnds = true;
    m_window->hide();
    return true;
}

} // namespace groupscope::ui
