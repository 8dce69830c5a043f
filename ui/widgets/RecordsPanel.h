#pragma once

#include "records/Record.h"
#include "records/RecordWindow.h"

#include <QPointer>
#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace groupscope::monitor {
class AdminTaskRunner;
}

namespace groupscope::ui {

class ResetController;

// A group's Records tab: one partition's records around the group's committed offset (the
// record it reads next, marked), or around an offset, a date-time, the earliest or the
// latest offset; "Follow" adds records as they arrive. Read-only: a RecordBrowser that
// joins no group and never commits, on a task runner of its own (so a long write elsewhere
// never holds it up, and the GUI thread never waits). At most maxRows records are kept.
// "Skip This Record" asks for a reset past the selected record (skipRequested): the Reset
// offsets tab then previews, confirms, journals and can undo it as any other reset.
class RecordsPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int maxRows = 2000;

    RecordsPanel(ResetController* controller, QWidget* parent = nullptr);
    ~RecordsPanel() override;

    void setGroup(const QString& groupId);
    // The partitions offered in the chooser: the group's, as the last refresh listed them.
    void setPartitions(const QList<kafka::TopicPartition>& partitions);
    // Shows `partition` around `anchor` (the entry point of the Partitions tab's "Show
    // Records" and of the stuck partition's "Show the record at the commit").
    void showAt(const kafka::TopicPartition& partition, const records::RecordAnchor& anchor);

    const QList<records::Record>& records() const { return m_records; }
    const records::ResolvedAnchor& anchor() const { return m_anchor; }
    QTableWidget* table() const { return m_table; }
    QPlainTextEdit* detail() const { return m_detail; }
    QPushButton* skipButton() const { return m_skipButton; }
    QCheckBox* followBox() const { return m_follow; }
    QString statusText() const;
    // Reads in flight: tests wait for none.
    bool isLoading() const { return m_loading; }

signals:
    // A reset of `partition` to `offset` (past the selected record) is wanted.
    void skipRequested(const kafka::TopicPartition& partition, int64_t offset);
    void statusMessage(const QString& text);

private:
    struct BrowserSlot; // the browser, touched on the runner's thread only

    void buildControls();
    monitor::AdminTaskRunner* runner();
    void load(const records::RecordAnchor& anchor);
    void showPage(const kafka::Result<records::RecordPage>& page);
    void appendRecords(const QList<records::Record>& records);
    void addRecordRow(const records::Record& record);
    void addGapRow(const records::OffsetGap& gap);
    void addLogEndRow();
    void pollFollow();
    void showDetail();
    // Reads the selected record again with its whole value (one cut at maxValueBytes).
    void readWholeValue();
    void showStatus(const QString& text, bool isError = false);
    kafka::TopicPartition currentPartition() const;
    const records::Record* selectedRecord() const;

    ResetController* m_controller;
    QString m_groupId;
    QComboBox* m_partitionChoice;
    QLineEdit* m_atEdit;
    QSpinBox* m_before;
    QSpinBox* m_after;
    QCheckBox* m_follow;
    QTableWidget* m_table;
    QComboBox* m_formatChoice;
    QPlainTextEdit* m_detail;
    QPushButton* m_showAllButton;
    QPushButton* m_readWholeButton;
    QPushButton* m_skipButton;
    QLabel* m_statusLabel;
    QTimer* m_followTimer;

    QPointer<monitor::AdminTaskRunner> m_runner;
    QString m_runnerServers; // the bootstrap servers m_runner was made for
    std::shared_ptr<BrowserSlot> m_slot;
    QList<records::Record> m_records; // as the table shows them, in order
    QList<int> m_recordOfRow;         // the index in m_records of each table row, -1 for others
    records::ResolvedAnchor m_anchor;
    bool m_loading = false;
    bool m_polling = false;
    bool m_showAll = false;
    quint64 m_loads = 0; // the latest load's number: older answers are dropped
};

} // namespace groupscope::ui
