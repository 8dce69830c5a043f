// MainWindow's part in a write's life beyond the panel that asked for it: the outcome in the
// status bar (or, once the window is closed, as a notification), an alert when offsets
// written to a watched group were overwritten by a consumer soon after, and a close that
// asks while a write runs instead of dropping it.

#include "windows/MainWindow.h"

#include "controllers/AlertController.h"
#include "controllers/ResetController.h"

#include <QApplication>
#include <QDateTime>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

#include <algorithm>

namespace groupscope::ui {

namespace {

alerts::Alert overwrittenAlert(const offsets::GroupApplyResult& group) {
    QStringList written;
    QStringList now;
    for (const offsets::JournalPartition& partition : group.overwrittenPartitions()) {
        written.append(QStringLiteral("%1 %2").arg(partition.topicPartition.toString(),
                                                   QString::number(partition.after.value_or(-1))));
        now.append(
            QStringLiteral("%1 %2").arg(partition.topicPartition.toString(),
                                        QString::number(partition.overwrittenWith.value_or(-1))));
    }
    alerts::Alert alert;
    alert.atMs = QDateTime::currentMSecsSinceEpoch();
    alert.group = group.groupId;
    alert.kind = alerts::AlertKind::WriteOverwritten;
    alert.from = MainWindow::tr("written %1").arg(written.join(QStringLiteral(", ")));
    alert.to = MainWindow::tr("now %1").arg(now.join(QStringLiteral(", ")));
    alert.detail = MainWindow::tr("A consumer still commits to the group and overwrote the "
                                  "offsets written (journal entry %1).")
                       .arg(group.journalId);
    return alert;
}

} // namespace

void MainWindow::setUpWriteNotices() {
    connect(m_resetController, &ResetController::writeFinished, this,
            [this](const QString& summary) {
                if (!m_closeWhenWriteEnds) {
                    statusBar()->showMessage(summary, 15000);
                    return;
                }
                alerts::Alert alert;
                alert.atMs = QDateTime::currentMSecsSinceEpoch();
                alert.group = m_connection.displayName();
                alert.kind = alerts::AlertKind::WriteFinished;
                alert.from = tr("window closed");
                alert.to = tr("done");
                alert.detail = summary;
                m_alerts->raise(alert);
                m_closeWhenWriteEnds = false;
                close();
                if (s_quitting && !anyWindowWaitsForItsWrite())
                    QCoreApplication::quit();
            });
    connect(m_resetController, &ResetController::overwrittenAfterWrite, this,
            [this](const QList<offsets::GroupApplyResult>& verified) {
                for (const offsets::GroupApplyResult& group : verified)
                    if (!group.overwrittenPartitions().isEmpty() &&
                        m_alerts->isWatched(group.groupId))
                        m_alerts->raise(overwrittenAlert(group));
            });
}

bool MainWindow::anyWindowWaitsForItsWrite() {
    const QWidgetList windows = QApplication::topLevelWidgets();
    return std::any_of(windows.cbegin(), windows.cend(), [](QWidget* widget) {
        auto* window = qobject_cast<MainWindow*>(widget);
        return window && window->m_closeWhenWriteEnds;
    });
}

bool MainWindow::closeWaitsForWrite() {
    if (!m_resetController->isApplying())
        return false;
    QMessageBox box(QMessageBox::Warning, tr("A change is being applied"),
                    tr("Groupscope is writing offsets to %1. Closing the window now would "
                       "leave you without its outcome.")
                        .arg(m_connection.displayName()),
                    QMessageBox::NoButton, this);
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
        m_resetController->cancelApply();
    m_closeWhenWriteEnds = true;
    hide();
    return true;
}

} // namespace groupscope::ui
