#include "widgets/OffsetResetPanel.h"

#include "controllers/ResetController.h"
#include "delegates/ResetModeDelegate.h"
#include "delegates/ResetValueDelegate.h"
#include "dialogs/ApplyConfirmDialog.h"
#include "dialogs/FileChooser.h"
#include "dialogs/TextPrompt.h"
#include "models/OffsetEditModel.h"
#include "models/ResetModeText.h"
#include "models/TableText.h"
#include "offsets/KafkaCommandLine.h"
#include "offsets/OffsetsCsv.h"
#include "widgets/PlaceholderTableView.h"
#include "widgets/TableCopy.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <set>

namespace groupscope::ui {

using offsets::ResetMode;

namespace {

QPushButton* makeButton(const QString& text, const QString& name, QWidget* parent) {
    auto* button = new QPushButton(text, parent);
    button->setObjectName(name);
    button->setAutoDefault(false);
    return button;
}

} // namespace

OffsetResetPanel::OffsetResetPanel(ResetController* controller, QWidget* parent)
    : QWidget(parent)
    , m_controller(controller)
    , m_model(new OffsetEditModel(this))
    , m_view(new PlaceholderTableView(this))
    , m_valueDelegate(new ResetValueDelegate(OffsetEditModel::ModeRole, this))
    , m_modeCombo(new QComboBox(this))
    , m_valueEdit(new QLineEdit(this))
    , m_statusLabel(new QLabel(this))
    , m_blockLabel(new QLabel(this))
    , m_waitForEmpty(new QCheckBox(tr("Apply when the group becomes empty, waiting up to"), this))
    , m_waitMinutes(new QSpinBox(this))
    , m_progress(new QProgressBar(this))
    , m_cancelButton(makeButton(tr("Cancel"), QStringLiteral("cancelApplyButton"), this))
    , m_applyButton(makeButton(tr("Apply…"), QStringLiteral("applyButton"), this))
    , m_deleteButton(makeButton(tr("Delete offsets…"), QStringLiteral("deleteOffsetsButton"), this))
    , m_results(new QTableWidget(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 6, 0, 0);
    buildToolbar(layout);

    setUpTable(layout);
    m_statusLabel->setObjectName(QStringLiteral("resetStatus"));
    m_statusLabel->setWordWrap(true);
    m_statusLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_statusLabel);
    m_blockLabel->setObjectName(QStringLiteral("applyBlockReason"));
    m_blockLabel->setWordWrap(true);
    m_blockLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_blockLabel->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_blockLabel);

    buildApplyRow(layout);

    m_results->setObjectName(QStringLiteral("applyResults"));
    m_results->setColumnCount(5);
    m_results->setHorizontalHeaderLabels(
        {tr("Topic"), tr("Partition"), tr("Before"), tr("After"), tr("Result")});
    m_results->verticalHeader()->hide();
    m_results->horizontalHeader()->setStretchLastSection(true);
    m_results->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_results->setMaximumHeight(140);
    m_results->hide();
    enableCopyAsTsv(m_results);
    layout->addWidget(m_results);

    m_planTimer.setSingleShot(true);
    m_planTimer.setInterval(250); // typing a value re-plans once, not per key
    connect(&m_planTimer, &QTimer::timeout, this, &OffsetResetPanel::plan);
    connect(m_model, &OffsetEditModel::editsChanged, this, [this] {
        updateApplyState();
        schedulePlan();
    });
    connect(m_valueDelegate, &ResetValueDelegate::refused, this, &OffsetResetPanel::showStatus);
    connect(m_waitForEmpty, &QCheckBox::toggled, this, &OffsetResetPanel::updateApplyState);
    connect(m_applyButton, &QPushButton::clicked, this, &OffsetResetPanel::applyEdits);
    connect(m_deleteButton, &QPushButton::clicked, this, &OffsetResetPanel::deleteSelectedOffsets);
    connect(m_cancelButton, &QPushButton::clicked, this, [this] {
        m_controller->cancelApply();
        showStatus(tr("Cancelling…"));
    });
    connect(m_controller, &ResetController::applyingChanged, this, [this](bool applying) {
        m_progress->setVisible(applying);
        m_cancelButton->setVisible(applying);
        updateApplyState();
    });
    connect(m_controller, &ResetController::readOnlyChanged, this,
            &OffsetResetPanel::updateApplyState);
    connect(m_controller, &ResetController::overwrittenAfterWrite, this,
            &OffsetResetPanel::showOverwritten);
    updateApplyState();
}

void OffsetResetPanel::setUpTable(QBoxLayout* layout) {
    m_view->setObjectName(QStringLiteral("offsetTable"));
    m_view->setModel(m_model);
    m_view->setItemDelegateForColumn(OffsetEditModel::ModeColumn, new ResetModeDelegate(m_view));
    m_view->setItemDelegateForColumn(OffsetEditModel::ValueColumn, m_valueDelegate);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                            QAbstractItemView::AnyKeyPressed);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 12);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->horizontalHeader()->resizeSection(OffsetEditModel::TopicColumn, 110);
    for (int column = OffsetEditModel::PartitionColumn; column <= OffsetEditModel::LagColumn;
         ++column)
        m_view->horizontalHeader()->resizeSection(column, 72);
    m_view->horizontalHeader()->resizeSection(OffsetEditModel::ModeColumn, 85);
    m_view->horizontalHeader()->resizeSection(OffsetEditModel::ValueColumn, 170);
    m_view->horizontalHeader()->resizeSection(OffsetEditModel::NewOffsetColumn, 85);
    m_view->horizontalHeader()->resizeSection(OffsetEditModel::DeltaColumn, 130);
    m_view->horizontalHeader()->resizeSection(OffsetEditModel::NextRecordColumn, 240);
    m_view->setPlaceholderText(tr("Open a group to edit its offsets."));
    enableCopyAsTsv(m_view);
    layout->addWidget(m_view, 1);
    setFocusProxy(m_view); // Alt+3 lands in the table, ready for the keyboard
}

void OffsetResetPanel::buildApplyRow(QBoxLayout* layout) {
    auto* applyRow = new QHBoxLayout;
    m_waitForEmpty->setObjectName(QStringLiteral("waitForEmptyBox"));
    m_waitMinutes->setRange(1, 24 * 60);
    m_waitMinutes->setValue(15);
    m_waitMinutes->setSuffix(tr(" min"));
    m_progress->setRange(0, 0); // an apply is one request per group: no percentage to show
    m_progress->setMaximumWidth(160);
    m_progress->setTextVisible(false);
    m_progress->hide();
    m_cancelButton->hide();
    applyRow->addWidget(m_waitForEmpty);
    applyRow->addWidget(m_waitMinutes);
    applyRow->addStretch(1);
    applyRow->addWidget(m_progress);
    applyRow->addWidget(m_cancelButton);
    applyRow->addWidget(m_deleteButton);
    applyRow->addWidget(m_applyButton);
    layout->addLayout(applyRow);
}

OffsetResetPanel::~OffsetResetPanel() {
    cancelRecordPreview(); // its continuation would be dropped; its reading can stop too
}

void OffsetResetPanel::buildToolbar(QLayout* layout) {
    auto* row = new QHBoxLayout;
    m_modeCombo->setObjectName(QStringLiteral("bulkModeCombo"));
    for (ResetMode mode : ResetModeText::all())
        m_modeCombo->addItem(ResetModeText::label(mode), int(mode));
    m_valueEdit->setObjectName(QStringLiteral("bulkValueEdit"));
    m_valueEdit->setClearButtonEnabled(true);
    m_valueEdit->setMinimumWidth(220);
    connect(m_modeCombo, &QComboBox::currentIndexChanged, this, &OffsetResetPanel::updateValueHint);
    updateValueHint();
    auto* setButton =
        makeButton(tr("Set for selected"), QStringLiteral("setForSelectedButton"), this);
    setButton->setToolTip(tr("Give every selected row this mode and value"));
    auto* fillButton = makeButton(tr("Fill whole topic"), QStringLiteral("fillTopicButton"), this);
    fillButton->setToolTip(
        tr("Copy the current row's mode and value to all partitions of its topic"));
    auto* addButton = makeButton(tr("Add topic…"), QStringLiteral("addTopicButton"), this);
    addButton->setToolTip(tr("Add all partitions of a topic the group has no commits on"));
    auto* clearButton = makeButton(tr("Clear edits"), QStringLiteral("clearEditsButton"), this);
    connect(setButton, &QPushButton::clicked, this, &OffsetResetPanel::setForSelected);
    connect(m_valueEdit, &QLineEdit::returnPressed, this, &OffsetResetPanel::setForSelected);
    connect(fillButton, &QPushButton::clicked, this, &OffsetResetPanel::fillTopic);
    connect(addButton, &QPushButton::clicked, this, &OffsetResetPanel::addTopic);
    connect(clearButton, &QPushButton::clicked, m_model, &OffsetEditModel::clearEdits);
    row->addWidget(new QLabel(tr("Mode:"), this));
    row->addWidget(m_modeCombo);
    row->addWidget(m_valueEdit, 1);
    row->addWidget(setButton);
    row->addWidget(fillButton);
    row->addWidget(addButton);
    row->addWidget(clearButton);
    row->addSpacing(12);
    auto* importButton = makeButton(tr("Import CSV…"), QStringLiteral("importCsvButton"), this);
    auto* exportButton = makeButton(tr("Export CSV…"), QStringLiteral("exportCsvButton"), this);
    auto* commandButton =
        makeButton(tr("Copy as command"), QStringLiteral("copyCommandButton"), this);
    commandButton->setToolTip(tr("Copy the equivalent kafka-consumer-groups command"));
    connect(importButton, &QPushButton::clicked, this, &OffsetResetPanel::importCsv);
    connect(exportButton, &QPushButton::clicked, this, &OffsetResetPanel::exportCsv);
    connect(commandButton, &QPushButton::clicked, this, &OffsetResetPanel::copyKafkaCommand);
    row->addWidget(importButton);
    row->addWidget(exportButton);
    row->addWidget(commandButton);
    static_cast<QBoxLayout*>(layout)->addLayout(row);
}

void OffsetResetPanel::updateValueHint() {
    const auto mode = ResetMode(m_modeCombo->currentData().toInt());
    m_valueEdit->setEnabled(ResetModeText::takesValue(mode));
    m_valueEdit->setPlaceholderText(ResetModeText::hint(mode));
    m_valueEdit->setToolTip(ResetModeText::hint(mode));
}

QTableView* OffsetResetPanel::view() const {
    return m_view;
}

QString OffsetResetPanel::statusText() const {
    return m_statusLabel->text();
}

void OffsetResetPanel::showStatus(const QString& text) {
    m_statusLabel->setText(text);
    emit statusMessage(text);
}

void OffsetResetPanel::setGroup(const QString& groupId) {
    if (groupId == m_model->groupId())
        return;
    m_model->setGroup(groupId);
    cancelRecordPreview();
    m_session = {};
    m_group = {};
    m_modelBehind = false;
    m_results->hide();
    m_lastResults.clear();
    m_statusLabel->clear();
    m_view->setPlaceholderText(tr("Group %1 has no committed offsets yet. Use “Add topic…” to "
                                  "set offsets on a topic's partitions.")
                                   .arg(groupId));
    updateApplyState();
}

void OffsetResetPanel::applySnapshot(const monitor::GroupSnapshot& group) {
    if (group.groupId() != m_model->groupId())
        return;
    const bool liveChanged = [&] {
        if (group.partitions.size() != m_group.partitions.size())
            return true;
        for (qsizetype i = 0; i < group.partitions.size(); ++i) {
            const auto& a = group.partitions.at(i);
            const auto& b = m_group.partitions.at(i);
            if (a.topicPartition != b.topicPartition || a.committedOffset != b.committedOffset ||
                a.logStartOffset != b.logStartOffset || a.logEndOffset != b.logEndOffset)
                return true;
        }
        return false;
    }();
    m_group = group;
    // A hidden table without edits has nobody to show its rows to: it catches up when it
    // is shown or an action needs it, which spares the GUI a diff of every partition on
    // each refresh while the user looks at another tab.
    if (isVisible() || m_model->hasEdits())
        syncModel(liveChanged);
    else
        m_modelBehind = true;
    updateApplyState();
}

void OffsetResetPanel::syncModel(bool liveChanged) {
    m_modelBehind = false;
    m_model->applySnapshot(m_group);
    // The preview resolves against the live log: when the log moved, plan again.
    if (liveChanged && m_model->hasEdits() && !m_controller->isApplying())
        schedulePlan();
}

void OffsetResetPanel::catchUp() {
    if (m_modelBehind)
        syncModel(false); // without edits there is no plan to redo
}

void OffsetResetPanel::showEvent(QShowEvent* event) {
    catchUp();
    QWidget::showEvent(event);
}

QList<int> OffsetResetPanel::selectedRows() const {
    std::set<int> rows;
    for (const QModelIndex& index : m_view->selectionModel()->selectedIndexes())
        rows.insert(index.row());
    if (rows.empty() && m_view->currentIndex().isValid())
        rows.insert(m_view->currentIndex().row());
    return {rows.begin(), rows.end()};
}

bool OffsetResetPanel::proposeOffset(const kafka::TopicPartition& partition, int64_t offset) {
    catchUp();
    const int row = m_model->rowOfKey(partition);
    if (row < 0 || !m_model->setSpec({row}, offsets::ResetMode::ToOffset, QString::number(offset)))
        return false;
    m_view->selectRow(row);
    showStatus(tr("%1 set to offset %2: check the preview and the record it reads next, then "
                  "Apply (undo is in the History tab).")
                   .arg(partition.toString())
                   .arg(offset));
    return true;
}

void OffsetResetPanel::setForSelected() {
    const QList<int> rows = selectedRows();
    if (rows.isEmpty()) {
        showStatus(tr("Select the rows to change first (Ctrl+A selects all)."));
        return;
    }
    const auto mode = ResetMode(m_modeCombo->currentData().toInt());
    if (!m_model->setSpec(rows, mode, m_valueEdit->text()))
        showStatus(tr("Not set: %1").arg(m_model->lastRefusal()));
    else
        showStatus(tr("%n row(s) set to %1.", nullptr, int(rows.size()))
                       .arg(ResetModeText::label(mode) +
                            (ResetModeText::takesValue(mode)
                                 ? QStringLiteral(" ") + m_valueEdit->text().trimmed()
                                 : QString())));
}

void OffsetResetPanel::fillTopic() {
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid()) {
        showStatus(tr("Choose a row whose mode and value should fill its topic."));
        return;
    }
    m_model->fillTopic(current.row());
}

void OffsetResetPanel::addTopic() {
    catchUp();
    const auto topic = TextPrompt::ask(this, tr("Add topic"), tr("Add all partitions of topic:"));
    if (!topic || topic->trimmed().isEmpty())
        return;
    const QString name = topic->trimmed();
    showStatus(tr("Looking up the partitions of %1…").arg(name));
    m_controller->topicPartitions(this, name, [this, name](const auto& partitions) {
        if (!partitions) {
            showStatus(tr("Cannot add %1: %2").arg(name, partitions.error().message));
            return;
        }
        m_model->addPartitions(partitions.value());
        showStatus(tr("Added %n partition(s) of %1; set their mode to plan them.", nullptr,
                      int(partitions.value().size()))
                       .arg(name));
    });
}

void OffsetResetPanel::schedulePlan() {
    m_planTimer.start();
}

void OffsetResetPanel::plan() {
    if (m_planning) {
        m_planAgain = true; // one plan at a time; the newest edits win
        return;
    }
    const quint64 generation = m_model->generation();
    const QList<offsets::RowRequest> requests = m_model->requests();
    if (requests.isEmpty()) {
        m_model->applyPlan({}, generation);
        updateApplyState();
        return;
    }
    m_planning = true;
    cancelRecordPreview(); // it reads the offsets of the plan being replaced
    updateApplyState();
    m_controller->plan(this, offsets::ResetSession::forRequests(requests),
                       [this, generation](const kafka::Result<offsets::ResetSession>& session) {
                           m_planning = false;
                           if (session)
                               showPlan(session.value(), generation);
                           else
                               showStatus(tr("Could not plan: %1").arg(session.error().message));
                           if (std::exchange(m_planAgain, false) ||
                               generation != m_model->generation())
                               schedulePlan();
                           updateApplyState();
                       });
}

void OffsetResetPanel::showPlan(const offsets::ResetSession& session, quint64 generation) {
    m_model->applyPlan(session.plan(), generation);
    if (generation == m_model->generation())
        m_session = session; // what Apply applies: the plan on screen
    const offsets::ResetPlan& current = session.plan();
    QString text = tr("Preview: replays %1, skips %2 message(s)")
                       .arg(current.messagesReplayed())
                       .arg(current.messagesSkipped());
    if (const int errors = current.errorCount())
        text += tr("; %n row(s) with errors", nullptr, errors);
    showStatus(text + QLatin1Char('.'));
    if (generation == m_model->generation() && m_model->needsRecordPreview())
        startRecordPreview(generation);
}

// The Next record column: read after the plan, in a job of its own, so the plan's numbers
// and Apply never wait for records to arrive.
void OffsetResetPanel::startRecordPreview(quint64 generation) {
    cancelRecordPreview();
    m_previewCancel = m_controller->previewRecords(
        this, m_session, [this, generation](const kafka::Result<offsets::ResetSession>& session) {
            m_previewCancel.reset();
            if (session)
                m_model->applyRecordPreviews(session.value().previews(), generation);
        });
}

void OffsetResetPanel::cancelRecordPreview() {
    if (m_previewCancel)
        m_previewCancel->store(true);
    m_previewCancel.reset();
}

void OffsetResetPanel::updateApplyState() {
    const offsets::ResetPlan& plan = m_model->plan();
    const bool changes = std::any_of(plan.rows.cbegin(), plan.rows.cend(),
                                     [](const auto& row) { return row.changes(); });
    const auto& members = m_group.description.members;
    QString reason;
    if (m_model->groupId().isEmpty())
        reason = tr("No group is open.");
    else if (m_controller->isReadOnly())
        reason = m_controller->readOnlyReason();
    else if (m_controller->isApplying())
        reason = tr("An apply is in progress.");
    else if (!m_model->hasEdits())
        reason = tr("Nothing to apply: choose a mode other than “current” for some partitions.");
    else if (!m_model->previewIsCurrent() || m_planning)
        reason = tr("Waiting for the preview…");
    else if (plan.errorCount() > 0)
        reason = tr("%n row(s) have errors (see Warnings / errors); fix them first.", nullptr,
                    plan.errorCount());
    else if (!changes)
        reason = tr("The plan leaves every offset where it is.");
    else if (!members.isEmpty() && !m_waitForEmpty->isChecked())
        reason = offsets::ResetApplier::activeGroupRefusal(m_group.description);
    m_blockReason = reason;
    m_applyButton->setEnabled(reason.isEmpty());
    m_applyButton->setToolTip(reason.isEmpty() ? tr("Review the changes, then apply them")
                                               : reason);
    m_blockLabel->setText(reason);
    m_blockLabel->setVisible(!reason.isEmpty() && m_model->hasEdits());
    m_waitForEmpty->setEnabled(!m_controller->isReadOnly() && !m_controller->isApplying());
    m_deleteButton->setEnabled(m_waitForEmpty->isEnabled() && !m_model->groupId().isEmpty());
    m_deleteButton->setToolTip(
        m_controller->isReadOnly()
            ? m_controller->readOnlyReason()
            : tr("Delete the group's committed offsets of the selected rows"));
    m_waitMinutes->setEnabled(m_waitForEmpty->isEnabled() && m_waitForEmpty->isChecked());
}

void OffsetResetPanel::exportCsv() {
    catchUp();
    QList<offsets::OffsetsCsvRow> rows;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const OffsetEditRow& line = m_model->rowAt(row);
        // Kafka's --export writes the planned offsets; unedited rows keep their commit.
        const auto offset = line.edited() ? line.newOffset : line.committedOffset;
        if (offset)
            rows.append({QString(), line.topicPartition, *offset, 0});
    }
    if (rows.isEmpty()) {
        showStatus(tr("Nothing to export: no partition has an offset."));
        return;
    }
    const QString path = FileChooser::saveFile(this, tr("Export offsets"),
                                               m_model->groupId() + QStringLiteral("-offsets.csv"),
                                               tr("Kafka offsets CSV (*.csv)"));
    if (path.isEmpty())
        return;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(offsets::OffsetsCsv::write(rows, false)) < 0) {
        showStatus(tr("Cannot write %1: %2").arg(path, file.errorString()));
        return;
    }
    showStatus(tr("Exported %n partition(s) to %1 (Kafka's --from-file format).", nullptr,
                  int(rows.size()))
                   .arg(path));
}

void OffsetResetPanel::importCsv() {
    catchUp();
    if (m_model->groupId().isEmpty())
        return;
    const QString path = FileChooser::openFile(this, tr("Import offsets"),
                                               tr("Kafka offsets CSV (*.csv);;All files (*)"));
    if (path.isEmpty())
        return;
    auto rows = offsets::OffsetsCsv::readFile(path, {m_model->groupId()});
    if (!rows) {
        showStatus(tr("Not imported: %1").arg(rows.error().message));
        return;
    }
    QList<kafka::TopicPartition> partitions;
    for (const auto& row : rows.value())
        partitions.append(row.topicPartition);
    m_model->addPartitions(partitions);
    for (const auto& row : rows.value())
        m_model->setSpec({m_model->rowOfKey(row.topicPartition)}, ResetMode::ToOffset,
                         QString::number(row.offset));
    showStatus(tr("Imported %n row(s) from %1; review the preview, then apply.", nullptr,
                  int(rows.value().size()))
                   .arg(path));
}

void OffsetResetPanel::copyKafkaCommand() {
    catchUp();
    const QList<offsets::RowRequest> requests = m_model->requests();
    if (requests.isEmpty()) {
        showStatus(tr("No command: nothing is edited."));
        return;
    }
    for (const auto& request : requests)
        if (!(request.spec == requests.first().spec)) {
            showStatus(tr("No single command: the rows use different modes or values. Export "
                          "CSV and use kafka-consumer-groups --from-file instead."));
            return;
        }
    if (!offsets::KafkaResetCommand::expressible(requests.first().spec)) {
        showStatus(tr("No command: Kafka's tool cannot copy another group's offsets. Export "
                      "CSV and use kafka-consumer-groups --from-file instead."));
        return;
    }
    // Name the partitions explicitly, topic by topic: the command then covers exactly the
    // edited rows, whatever else the group has.
    QMap<QString, QStringList> partitions;
    for (const auto& request : requests)
        partitions[request.topicPartition.topic].append(
            QString::number(request.topicPartition.partition));
    offsets::KafkaResetCommand command;
    command.bootstrapServers =
        m_controller->runner() ? m_controller->runner()->profile().bootstrapServers : QString();
    command.groups = {m_model->groupId()};
    for (auto it = partitions.cbegin(); it != partitions.cend(); ++it)
        command.scope.topics.append(it.key() + QLatin1Char(':') +
                                    it.value().join(QLatin1Char(',')));
    command.spec = requests.first().spec;
    command.execute = true;
    QApplication::clipboard()->setText(command.toString());
    showStatus(tr("Copied: %1").arg(command.toString()));
}

} // namespace groupscope::ui
