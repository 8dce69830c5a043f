#include "controllers/GroupDeleteController.h"

#include "controllers/ResetController.h"
#include "dialogs/DeleteGroupsConfirm.h"
#include "widgets/GroupDetailWidget.h"
#include "widgets/OffsetResetPanel.h"

#include <QAbstractItemView>
#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>

namespace groupscope::ui {

GroupDeleteController::GroupDeleteController(QMainWindow* window, ResetController* resets,
                                             GroupDetailWidget* detail,
                                             std::function<QStringList()> selectedGroups,
                                             std::function<QString()> clusterName)
    : QObject(window)
    , m_window(window)
    , m_resets(resets)
    , m_detail(detail)
    , m_selectedGroups(std::move(selectedGroups))
    , m_clusterName(std::move(clusterName)) {}

void GroupDeleteController::addActions(QMenu* groupMenu, QAbstractItemView* list) {
    groupMenu->addSeparator();
    m_deleteAction = groupMenu->addAction(tr("De&lete group…"));
    m_deleteAction->setObjectName(QStringLiteral("deleteGroupAction"));
    m_deleteAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Delete));
    connect(m_deleteAction, &QAction::triggered, this,
            &GroupDeleteController::deleteSelectedGroups);
    // Offsets, not the group: the selected rows of the Reset offsets tab.
    QAction* deleteOffsets = groupMenu->addAction(tr("Delete the selected rows' &offsets…"));
    deleteOffsets->setObjectName(QStringLiteral("deleteOffsetsAction"));
    deleteOffsets->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Delete));
    connect(deleteOffsets, &QAction::triggered, this, [this] {
        m_detail->tabs()->setCurrentIndex(GroupDetailWidget::OffsetsTab);
        m_detail->offsetPanel()->deleteSelectedOffsets();
    });
    // The Delete key on the list does the same.
    auto* deleteByKey = new QAction(tr("Delete group…"), list);
    deleteByKey->setShortcut(QKeySequence::Delete);
    deleteByKey->setShortcutContext(Qt::WidgetShortcut);
    list->addAction(deleteByKey);
    connect(deleteByKey, &QAction::triggered, this, &GroupDeleteController::deleteSelectedGroups);
    const auto enable = [this] {
        m_deleteAction->setEnabled(!m_resets->isReadOnly() && !m_resets->isApplying());
    };
    connect(m_resets, &ResetController::readOnlyChanged, this, enable);
    connect(m_resets, &ResetController::applyingChanged, this, enable);
}

void GroupDeleteController::deleteSelectedGroups() {
    QStatusBar* status = m_window->statusBar();
    const QStringList groups = m_selectedGroups();
    if (groups.isEmpty()) {
        status->showMessage(tr("Select the groups to delete in the list."), 5000);
        return;
    }
    if (m_resets->isReadOnly()) {
        status->showMessage(m_resets->readOnlyReason(), 5000);
        return;
    }
    status->showMessage(tr("Reading %n group(s) before deleting…", nullptr, int(groups.size())));
    m_resets->previewDeletion(
        this, groups,
        [this, status](const kafka::Result<QList<offsets::GroupDeletionPreview>>& previews) {
            if (!previews) {
                status->clearMessage();
                QMessageBox::warning(m_window, tr("Delete groups"),
                                     tr("Nothing was deleted: %1").arg(previews.error().message));
                return;
            }
            if (!DeleteGroupsConfirm::confirm(m_window, m_clusterName(), previews.value())) {
                status->showMessage(tr("Nothing was deleted."), 5000);
                return;
            }
            QStringList deletable;
            for (const auto& preview : previews.value())
                if (preview.refusal.isEmpty())
                    deletable.append(preview.group.groupId);
            if (!m_resets->deleteGroups(this, deletable,
                                        [this](const auto& results) { showOutcome(results); }))
                status->showMessage(m_resets->lastRefusal(), 8000);
        });
}

void GroupDeleteController::showOutcome(
    const kafka::Result<QList<offsets::GroupApplyResult>>& results) {
    if (!results) {
        QMessageBox::warning(m_window, tr("Delete groups"),
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
        emit groupsDeleted(deleted);
        m_detail->tabs()->setCurrentIndex(GroupDetailWidget::HistoryTab);
        m_window->statusBar()->showMessage(tr("Deleted %1; Undo in the History tab commits "
                                              "their offsets again.")
                                               .arg(deleted.join(QStringLiteral(", "))),
                                           15000);
    }
    if (!failed.isEmpty())
        QMessageBox::warning(m_window, tr("Delete groups"),
                             tr("Not deleted:\n%1").arg(failed.join(u'\n')));
    // The list and the History tab follow by themselves (ResetController::offsetsChanged).
}

} // namespace groupscope::ui
