// MainWindow's deletion of whole groups: the Group menu's and the list's context menu's
// "Delete group…", its confirmation naming the cluster, and the outcome of each group.
// The work is GroupDeleter's (as for groupscope-cli delete), run by the ResetController on
// the admin thread; undo is the History tab's, as for any journal entry.

#include "windows/MainWindow.h"

#include "controllers/ResetController.h"
#include "dialogs/DeleteGroupsConfirm.h"
#include "widgets/GroupDetailWidget.h"
#include "widgets/OffsetResetPanel.h"
#include "widgets/PlaceholderTableView.h"

#include <QAction>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>

namespace groupscope::ui {

void MainWindow::createDeleteActions(QMenu* groupMenu) {
    groupMenu->addSeparator();
    m_deleteAction = groupMenu->addAction(tr("De&lete group…"));
    m_deleteAction->setObjectName(QStringLiteral("deleteGroupAction"));
    m_deleteAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Delete));
    connect(m_deleteAction, &QAction::triggered, this, &MainWindow::deleteSelectedGroups);
    // Offsets, not the group: the selected rows of the Reset offsets tab.
    QAction* deleteOffsets = groupMenu->addAction(tr("Delete the selected rows' &offsets…"));
    deleteOffsets->setObjectName(QStringLiteral("deleteOffsetsAction"));
    deleteOffsets->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Delete));
    connect(deleteOffsets, &QAction::triggered, this, [this] {
        m_detail->tabs()->setCurrentIndex(GroupDetailWidget::OffsetsTab);
        m_detail->offsetPanel()->deleteSelectedOffsets();
    });
    // The Delete key on the list does the same.
    auto* deleteByKey = new QAction(tr("Delete group…"), m_view);
    deleteByKey->setShortcut(QKeySequence::Delete);
    deleteByKey->setShortcutContext(Qt::WidgetShortcut);
    m_view->addAction(deleteByKey);
    connect(deleteByKey, &QAction::triggered, this, &MainWindow::deleteSelectedGroups);
    const auto enable = [this] {
        m_deleteAction->setEnabled(!m_resetController->isReadOnly() &&
                                   !m_resetController->isApplying());
    };
    connect(m_resetController, &ResetController::readOnlyChanged, this, enable);
    connect(m_resetController, &ResetController::applyingChanged, this, enable);

    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        if (!m_view->indexAt(at).isValid())
            return;
        QMenu menu(this);
        menu.addAction(tr("&Open"), this, &MainWindow::openCurrentGroup);
        menu.addAction(tr("&Watch for alerts (★)"), this, &MainWindow::toggleWatchOfSelection);
        menu.addSeparator();
        menu.addAction(m_deleteAction);
        menu.exec(m_view->viewport()->mapToGlobal(at));
    });
}

void MainWindow::deleteSelectedGroups() {
    const QStringList groups = selectedGroups();
    if (groups.isEmpty()) {
        statusBar()->showMessage(tr("Select the groups to delete in the list."), 5000);
        return;
    }
    if (m_resetController->isReadOnly()) {
        statusBar()->showMessage(m_resetController->readOnlyReason(), 5000);
        return;
    }
    statusBar()->showMessage(
        tr("Reading %n group(s) before deleting…", nullptr, int(groups.size())));
    m_resetController->previewDeletion(
        this, groups,
        [this, groups](const kafka::Result<QList<offsets::GroupDeletionPreview>>& previews) {
            if (!previews) {
                statusBar()->clearMessage();
                QMessageBox::warning(this, tr("Delete groups"),
                                     tr("Nothing was deleted: %1").arg(previews.error().message));
                return;
            }
            const QString cluster = m_connection.profile.bootstrapServers;
            if (!DeleteGroupsConfirm::confirm(this, cluster, previews.value())) {
                statusBar()->showMessage(tr("Nothing was deleted."), 5000);
                return;
            }
            QStringList deletable;
            for (const auto& preview : previews.value())
                if (preview.refusal.isEmpty())
                    deletable.append(preview.group.groupId);
            if (!m_resetController->deleteGroups(
                    this, deletable, [this](const auto& results) { showDeleteOutcome(results); }))
                statusBar()->showMessage(m_resetController->lastRefusal(), 8000);
        });
}

void MainWindow::showDeleteOutcome(const kafka::Result<QList<offsets::GroupApplyResult>>& results) {
    if (!results) {
        QMessageBox::warning(this, tr("Delete groups"),
                             tr("Nothing was deleted: %1").arg(results.error().message));
        return;
    }
    QStringList deleted;
    QStringList failed;
    for (const offsets::GroupApplyResult& result : results.value()) {
        QString failure = result.refusal;
        if (failure.isEmpty() && result.failedPartitions() > 0)
            failure = result.partitions.first().error;
        if (failure.isEmpty())
            deleted.append(result.groupId);
        else
            failed.append(tr("%1: %2").arg(result.groupId, failure));
    }
    if (!deleted.isEmpty()) {
        // The group leaves the list with the next refresh: its History tab, with the entry
        // whose Undo commits its offsets again, stays one look away.
        openGroup(deleted.first());
        m_detail->tabs()->setCurrentIndex(GroupDetailWidget::HistoryTab);
        statusBar()->showMessage(tr("Deleted %1; Undo in the History tab commits their "
                                    "offsets again.")
                                     .arg(deleted.join(QStringLiteral(", "))),
                                 15000);
    }
    if (!failed.isEmpty())
        QMessageBox::warning(this, tr("Delete groups"),
                             tr("Not deleted:\n%1").arg(failed.join(u'\n')));
    // The list and the History tab follow by themselves (ResetController::offsetsChanged).
}

} // namespace groupscope::ui
