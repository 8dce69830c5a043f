#pragma once

#include "offsets/ResetSession.h"
#include "offsets/WriteJournal.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace groupscope::ui {

class ResetController;

// The write journal's entries of one group on the connected cluster (or, ticked, on every
// cluster), newest first, a page of 500 at a time read on a pool thread, with their state (in
// doubt, recovered, overwritten) and "Undo…": the entry's inverse (ResetSession::undoOf) is planned
// on the worker, its conflicts (partitions that moved since the entry) are named and left out, an
// entry of another cluster id is refused, and the rest is confirmed with the same dialog as any
// apply, applied and recorded.
class ResetHistoryPanel : public QWidget {
    Q_OBJECT
public:
    ResetHistoryPanel(ResetController* controller, QWidget* parent = nullptr);

    void setGroup(const QString& groupId);
    void reload();
    QTableWidget* table() const { return m_table; }
    QPushButton* undoButton() const { return m_undoButton; }
    QPushButton* olderButton() const { return m_olderButton; }
    QCheckBox* allClustersBox() const { return m_allClusters; }
    QString statusText() const;
    const QList<offsets::JournalEntry>& entries() const { return m_entries; }

    // Undoes the entry on `row` of the table (what "Undo…" does).
    void undoRow(int row);

signals:
    void statusMessage(const QString& text);

private:
    void updateButtons();
    void showStatus(const QString& text);
    // Reads a page: the newest, or the one before `olderThan` (appended).
    void readPage(const QString& olderThan);
    void showEntries(const kafka::Result<QList<offsets::JournalEntry>>& entries, bool append);
    void addRow(const offsets::JournalEntry& entry);
    void confirmAndUndo(const offsets::JournalEntry& entry,
                        const kafka::Result<offsets::ResetSession>& session);
    void showUndoResults(const kafka::Result<QList<offsets::GroupApplyResult>>& results);

    ResetController* m_controller;
    QTableWidget* m_table;
    QPushButton* m_undoButton;
    QPushButton* m_olderButton;
    QCheckBox* m_allClusters;
    QLabel* m_statusLabel;
    QString m_groupId;
    QList<offsets::JournalEntry> m_entries; // as shown: newest first
    int m_reloads = 0;                      // the latest reload's number: older answers are dropped
    bool m_planning = false;
};

} // namespace groupscope::ui
