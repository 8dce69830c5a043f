#pragma once

#include "offsets/AuditLog.h"
#include "offsets/ResetSession.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace groupscope::ui {

class ResetController;

// The audit log entries of one group, newest first, with "Undo…": the entry's inverse
// (ResetSession::undoOf) is planned on the worker, confirmed with the same dialog as any
// apply, then applied and recorded as an undo.
class ResetHistoryPanel : public QWidget {
    Q_OBJECT
public:
    ResetHistoryPanel(ResetController* controller, QWidget* parent = nullptr);

    void setGroup(const QString& groupId);
    void reload();
    QTableWidget* table() const { return m_table; }
    QPushButton* undoButton() const { return m_undoButton; }
    QString statusText() const;
    const QList<offsets::AuditEntry>& entries() const { return m_entries; }

    // Undoes the entry on `row` of the table (what "Undo…" does).
    void undoRow(int row);

signals:
    void statusMessage(const QString& text);

private:
    void updateButtons();
    void showStatus(const QString& text);
    void confirmAndUndo(const offsets::AuditEntry& entry,
                        const kafka::Result<offsets::ResetSession>& session);
    void showUndoResults(const kafka::Result<QList<offsets::GroupApplyResult>>& results);

    ResetController* m_controller;
    QTableWidget* m_table;
    QPushButton* m_undoButton;
    QLabel* m_statusLabel;
    QString m_groupId;
    QList<offsets::AuditEntry> m_entries; // as shown: newest first
    bool m_planning = false;
};

} // namespace groupscope::ui
