#include "widgets/ResetHistoryPanel.h"

#include "controllers/ResetController.h"
#include "dialogs/ApplyConfirmDialog.h"
#include "models/TableText.h"
#include "widgets/TableCopy.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QTableWidget>
#include <QThreadPool>
#include <QVBoxLayout>

namespace groupscope::ui {

namespace {

// Entries read at a time: the table stays quick with a journal of 100,000 entries.
constexpr int pageSize = 500;

} // namespace

ResetHistoryPanel::ResetHistoryPanel(ResetController* controller, QWidget* parent)
    : QWidget(parent)
    , m_controller(controller)
    , m_table(new QTableWidget(this))
    , m_undoButton(new QPushButton(tr("Undo…"), this))
    , m_olderButton(new QPushButton(tr("Show Older"), this))
    , m_allClusters(new QCheckBox(tr("All clusters"), this))
    , m_statusLabel(new QLabel(this)) {
    m_table->setObjectName(QStringLiteral("historyTable"));
    m_table->setColumnCount(6);
    m_table->setHorizontalHeaderLabels(
        {tr("When"), tr("What"), tr("Partitions"), tr("State"), tr("By"), tr("Entry")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    enableCopyAsTsv(m_table);
    m_undoButton->setObjectName(QStringLiteral("undoButton"));
    m_undoButton->setAutoDefault(false);
    auto* reloadButton = new QPushButton(tr("Reload"), this);
    reloadButton->setAutoDefault(false);
    m_statusLabel->setWordWrap(true);
    m_statusLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_olderButton->setObjectName(QStringLiteral("olderEntriesButton"));
    m_olderButton->setAutoDefault(false);
    m_olderButton->hide();
    m_allClusters->setObjectName(QStringLiteral("allClustersBox"));
    m_allClusters->setToolTip(tr("Also the entries recorded on other clusters, and those "
                                 "recorded before Groupscope kept cluster ids"));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_statusLabel, 1);
    buttons->addWidget(m_allClusters);
    buttons->addWidget(m_olderButton);
    buttons->addWidget(reloadButton);
    buttons->addWidget(m_undoButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 6, 0, 0);
    auto* where =
        new QLabel(tr("Write journal: %1").arg(offsets::WriteJournal::defaultPath()), this);
    where->setForegroundRole(QPalette::PlaceholderText);
    where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(where);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);

    connect(reloadButton, &QPushButton::clicked, this, &ResetHistoryPanel::reload);
    connect(m_allClusters, &QCheckBox::toggled, this, &ResetHistoryPanel::reload);
    connect(m_controller, &ResetController::clusterChanged, this, &ResetHistoryPanel::reload);
    connect(m_olderButton, &QPushButton::clicked, this, [this] {
        if (!m_entries.isEmpty())
            readPage(m_entries.last().id);
    });
    connect(m_undoButton, &QPushButton::clicked, this, [this] { undoRow(m_table->currentRow()); });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &ResetHistoryPanel::updateButtons);
    connect(m_controller, &ResetController::applyingChanged, this,
            &ResetHistoryPanel::updateButtons);
    connect(m_controller, &ResetController::readOnlyChanged, this,
            &ResetHistoryPanel::updateButtons);
    connect(m_controller, &ResetController::offsetsChanged, this, [this](const QString& groupId) {
        if (groupId == m_groupId)
            reload();
    });
    updateButtons();
}

QString ResetHistoryPanel::statusText() const {
    return m_statusLabel->text();
}

void ResetHistoryPanel::showStatus(const QString& text) {
    m_statusLabel->setText(text);
    emit statusMessage(text);
}

void ResetHistoryPanel::setGroup(const QString& groupId) {
    m_groupId = groupId;
    m_statusLabel->clear();
    reload();
}

void ResetHistoryPanel::reload() {
    readPage({});
}

void ResetHistoryPanel::readPage(const QString& olderThan) {
    if (m_groupId.isEmpty()) {
        showEntries(QList<offsets::JournalEntry>{}, false);
        return;
    }
    // The journal is shared with other processes that may hold its lock for a moment:
    // read on a pool thread, and show the latest answer only.
    const int reload = ++m_reloads;
    QPointer<ResetHistoryPanel> panel(this);
    offsets::JournalQuery query;
    query.groupId = m_groupId;
    query.clusterId = m_allClusters->isChecked() ? QString() : m_controller->clusterId();
    query.olderThan = olderThan;
    query.limit = pageSize + 1; // one more tells whether there are older entries
    const bool append = !olderThan.isEmpty();
    QThreadPool::globalInstance()->start([panel, reload, query, append] {
        offsets::WriteJournal journal;
        auto entries = journal.entries(query);
        QMetaObject::invokeMethod(
            panel.data(),
            [panel, reload, entries, append] {
                if (panel && panel->m_reloads == reload)
                    panel->showEntries(entries, append);
            },
            Qt::QueuedConnection);
    });
}

void ResetHistoryPanel::showEntries(const kafka::Result<QList<offsets::JournalEntry>>& entries,
                                    bool append) {
    if (!append) {
        m_entries.clear();
        m_table->setRowCount(0);
    }
    if (!entries) {
        showStatus(tr("Cannot read the write journal: %1").arg(entries.error().message));
        updateButtons();
        return;
    }
    QList<offsets::JournalEntry> page = entries.value();
    const bool older = page.size() > pageSize;
    if (older)
        page.removeLast();
    m_olderButton->setVisible(older);
    for (const auto& entry : std::as_const(page)) {
        m_entries.append(entry);
        addRow(entry);
    }
    m_table->resizeColumnToContents(0);
    updateButtons();
}

void ResetHistoryPanel::addRow(const offsets::JournalEntry& entry) {
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    QString what = entry.description;
    if (!entry.undoOf.isEmpty())
        what = tr("undo of %1").arg(entry.undoOf);
    QString state = offsets::journalStateName(entry.state);
    if (entry.hasOverwrittenPartitions())
        state = tr("%1, overwritten").arg(state);
    const QStringList cells{
        entry.time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
        what,
        QString::number(entry.partitions.size()),
        state,
        entry.appliedBy,
        entry.id};
    for (int column = 0; column < cells.size(); ++column)
        m_table->setItem(row, column, new QTableWidgetItem(cells.at(column)));
    m_table->item(row, 1)->setToolTip(tr("Cluster %1 (id %2)").arg(entry.cluster, entry.clusterId));
    if (!entry.note.isEmpty())
        m_table->item(row, 3)->setToolTip(entry.note);
}

void ResetHistoryPanel::updateButtons() {
    const bool selected = m_table->currentRow() >= 0 && !m_table->selectedItems().isEmpty();
    QString reason;
    if (m_controller->isReadOnly())
        reason = m_controller->readOnlyReason();
    else if (m_controller->isApplying() || m_planning)
        reason = tr("An apply is in progress.");
    else if (!selected)
        reason = tr("Select an entry to undo.");
    m_undoButton->setEnabled(reason.isEmpty());
    m_undoButton->setToolTip(reason.isEmpty()
                                 ? tr("Put the offsets back to where they were before this change")
                                 : reason);
}

void ResetHistoryPanel::undoRow(int row) {
    if (row < 0 || row >= m_entries.size())
        return;
    if (m_controller->isReadOnly()) {
        showStatus(m_controller->readOnlyReason());
        return;
    }
    const offsets::JournalEntry entry = m_entries.at(row);
    auto session = offsets::ResetSession::undoOf(entry);
    if (!session) {
        showStatus(session.error().message);
        return;
    }
    m_planning = true;
    updateButtons();
    showStatus(tr("Planning the undo of %1…").arg(entry.id));
    m_controller->plan(this, session.value(),
                       [this, entry](const kafka::Result<offsets::ResetSession>& planned) {
                           m_planning = false;
                           updateButtons();
                           confirmAndUndo(entry, planned);
                       });
}

void ResetHistoryPanel::confirmAndUndo(const offsets::JournalEntry& entry,
                                       const kafka::Result<offsets::ResetSession>& planned) {
    if (!planned) {
        showStatus(tr("Could not plan the undo: %1").arg(planned.error().message));
        return;
    }
    offsets::ResetSession session = planned.value();
    if (!session.undoClusterMismatch().isEmpty()) {
        showStatus(tr("Not undone: %1.").arg(session.undoClusterMismatch()));
        return;
    }
    if (session.plan().errorCount() > 0) {
        showStatus(tr("The undo plan has errors; nothing was changed."));
        return;
    }
    // Conflicts are left out: only partitions still where the entry left them go back.
    QString warning;
    if (!session.undoConflicts().isEmpty()) {
        QStringList lines{tr("%n partition(s) moved since this entry and are left as they are "
                             "(before / after / now):",
                             nullptr, int(session.undoConflicts().size()))};
        for (const offsets::UndoConflict& conflict : session.undoConflicts())
            lines.append(
                QStringLiteral("%1: %2 / %3 / %4")
                    .arg(conflict.topicPartition.toString(), tableText::offset(conflict.before),
                         tableText::offset(conflict.after), tableText::offset(conflict.now)));
        warning = lines.join(QLatin1Char('\n'));
        session.skipUndoConflicts();
    }
    if (session.plan().rows.isEmpty() && session.deletions().isEmpty()) {
        showStatus(tr("Nothing to undo: every partition moved since entry %1.").arg(entry.id) +
                   QLatin1Char(' ') + warning);
        return;
    }
    m_planning = true;
    updateButtons();
    m_controller->findRecentCommits(
        this, entry.groupId,
        [this, entry, session, warning](const kafka::Result<offsets::RecentCommitReport>& report) {
            m_planning = false;
            updateButtons();
            if (!report) {
                showStatus(tr("Could not check for consumers that still commit: %1")
                               .arg(report.error().message));
                return;
            }
            QString fullWarning = warning;
            if (!report.value().isEmpty())
                fullWarning =
                    report.value().refusalText(entry.groupId, QDateTime::currentMSecsSinceEpoch()) +
                    (warning.isEmpty() ? QString() : QStringLiteral("\n") + warning);
            if (!ApplyConfirmDialog::confirm(window(), session.plan(), tr("Undo"),
                                             session.deletions().value(entry.groupId), fullWarning))
                return;
            // The user confirmed with the consumers found in view: the write does not ask again.
            const bool started = m_controller->apply(
                this, session, std::chrono::milliseconds(0),
                [this](const auto& results) { showUndoResults(results); },
                ResetController::ApplyChoices{!report.value().isEmpty(), false});
            showStatus(started ? tr("Undoing %1…").arg(entry.id) : m_controller->lastRefusal());
        });
}

void ResetHistoryPanel::showUndoResults(
    const kafka::Result<QList<offsets::GroupApplyResult>>& results) {
    if (!results) {
        showStatus(tr("Undo failed: %1").arg(results.error().message));
        return;
    }
    QStringList problems;
    int applied = 0;
    for (const auto& group : results.value()) {
        if (!group.refusal.isEmpty())
            problems.append(group.refusal);
        applied += int(group.partitions.size()) - group.failedPartitions();
    }
    showStatus(problems.isEmpty() ? tr("Undone: %n partition(s) restored.", nullptr, applied)
                                  : tr("Undo incomplete: %1").arg(problems.join(QLatin1Char(' '))));
}

} // namespace groupscope::ui
