#pragma once

#include "controllers/ResetController.h"
#include "monitor/AdminTaskRunner.h"
#include "offsets/ResetSession.h"
#include "snapshot/GroupSnapshot.h"

#include <QTimer>
#include <QWidget>

class QBoxLayout;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;
class QTableWidget;

namespace groupscope::ui {

class OffsetEditModel;
class PlaceholderTableView;
class ResetValueDelegate;

// The editable offsets table of one group with everything around a reset: set a mode and
// value for the selected rows, fill a topic, add a topic, import/export Kafka's CSV, copy
// the equivalent kafka-consumer-groups command, a live preview planned on a worker (new
// offsets, messages replayed or skipped, the record each row would read next), and
// Apply (confirmation with the full diff, progress, cancel, per-partition result). Apply
// is disabled, with the reason, while the group has members or the profile is read-only.
class OffsetResetPanel : public QWidget {
    Q_OBJECT
public:
    OffsetResetPanel(ResetController* controller, QWidget* parent = nullptr);
    ~OffsetResetPanel() override;

    void setGroup(const QString& groupId);
    void applySnapshot(const monitor::GroupSnapshot& group);

    OffsetEditModel* model() const { return m_model; }
    QTableView* view() const;
    QPushButton* applyButton() const { return m_applyButton; }
    // Why Apply is disabled (empty when it is enabled).
    QString applyBlockReason() const { return m_blockReason; }
    QString statusText() const;
    // What the last apply did, one line per partition ("topic:0 5 -> 2 ok").
    QStringList lastResults() const { return m_lastResults; }
    QCheckBox* waitForEmptyBox() const { return m_waitForEmpty; }

    // Menu/shortcut entry points of the main window.
    void exportCsv();
    void importCsv();
    void copyKafkaCommand();
    void addTopic();
    void applyEdits();
    // Deletes the group's committed offsets of the selected rows (OffsetResetPanelDelete.cpp).
    void deleteSelectedOffsets();
    // Sets `partition`'s row to `offset` (the Records tab's "Skip This Record"); the preview
    // follows and nothing is written until Apply. False when the table has no such row.
    bool proposeOffset(const kafka::TopicPartition& partition, int64_t offset);
    QPushButton* deleteOffsetsButton() const { return m_deleteButton; }

signals:
    void statusMessage(const QString& text);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void syncModel(bool liveChanged);
    void catchUp();
    void buildToolbar(QLayout* layout);
    void setUpTable(QBoxLayout* layout);
    void buildApplyRow(QBoxLayout* layout);
    void setForSelected();
    void fillTopic();
    QList<int> selectedRows() const;
    void schedulePlan();
    void plan();
    void showPlan(const offsets::ResetSession& session, quint64 generation);
    void startRecordPreview(quint64 generation);
    void cancelRecordPreview();
    void updateApplyState();
    void showStatus(const QString& text);
    void showResults(const kafka::Result<QList<offsets::GroupApplyResult>>& results);
    // A group refused because it moved since the preview, or because a consumer still
    // commits to it: asks the second question and applies again. True when it did ask.
    bool askAgain(const QList<offsets::GroupApplyResult>& results);
    // The background read-back found partitions overwritten: says which.
    void showOverwritten(const QList<offsets::GroupApplyResult>& verified);
    // The confirmation (naming the consumers found still committing, if any), then apply.
    void confirmAndApply(const offsets::RecentCommitReport& recentCommits);
    void updateValueHint();

    ResetController* m_controller;
    OffsetEditModel* m_model;
    PlaceholderTableView* m_view;
    ResetValueDelegate* m_valueDelegate;
    QComboBox* m_modeCombo;
    QLineEdit* m_valueEdit;
    QLabel* m_statusLabel;
    QLabel* m_blockLabel;
    QCheckBox* m_waitForEmpty;
    QSpinBox* m_waitMinutes;
    QProgressBar* m_progress;
    QPushButton* m_cancelButton;
    // What the user confirmed for the apply in flight (a second question adds to it).
    ResetController::ApplyChoices m_applyChoices;
    QPushButton* m_applyButton;
    QPushButton* m_deleteButton;
    QTableWidget* m_results;
    QTimer m_planTimer;
    monitor::GroupSnapshot m_group;
    offsets::ResetSession m_session; // planned for the edits on screen
    monitor::AdminTaskRunner::CancelToken m_previewCancel;
    QString m_blockReason;
    QStringList m_lastResults;
    bool m_planning = false;
    bool m_planAgain = false;
    bool m_modelBehind = false; // m_group is newer than the table (hidden, no edits)
};

} // namespace groupscope::ui
