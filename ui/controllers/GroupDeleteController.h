#pragma once

#include "kafka/Result.h"
#include "offsets/GroupDeleter.h"

#include <QObject>

#include <functional>

class QAbstractItemView;
class QAction;
class QMainWindow;
class QMenu;

namespace groupscope::ui {

class GroupDetailWidget;
class ResetController;

// Deleting whole groups from a window: the Group menu's and the list's "Delete group…",
// its confirmation naming the cluster, and each group's outcome. The work is GroupDeleter's
// (as for groupscope-cli delete), run by the ResetController on the admin thread; undo is
// the History tab's, as for any journal entry.
class GroupDeleteController : public QObject {
    Q_OBJECT
public:
    // `selectedGroups` gives the groups the user chose, `clusterName` the cluster the
    // confirmation names. Dialogs and status messages go to `window`.
    GroupDeleteController(QMainWindow* window, ResetController* resets, GroupDetailWidget* detail,
                          std::function<QStringList()> selectedGroups,
                          std::function<QString()> clusterName);

    // "Delete group…" (Ctrl+Delete) and "Delete the selected rows' offsets…" in `groupMenu`,
    // and the Delete key on `list`.
    void addActions(QMenu* groupMenu, QAbstractItemView* list);
    QAction* deleteAction() const { return m_deleteAction; }
    // Reads the selected groups, asks, deletes those that can be, reports each.
    void deleteSelectedGroups();

signals:
    // Groups were deleted: the window opens the first in its History tab, where Undo is.
    void groupsDeleted(const QStringList& groups);

private:
    void showOutcome(const kafka::Result<QList<offsets::GroupApplyResult>>& results);

    QMainWindow* m_window;
    ResetController* m_resets;
    GroupDetailWidget* m_detail;
    std::function<QStringList()> m_selectedGroups;
    std::function<QString()> m_clusterName;
    QAction* m_deleteAction = nullptr;
};

} // namespace groupscope::ui
