#include "widgets/RecordsPanel.h"

#include "controllers/ResetController.h"
#include "monitor/AdminTaskRunner.h"
#include "records/RecordBrowser.h"
#include "records/ValueFormat.h"
#include "widgets/TableCopy.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace groupscope::ui {

using monitor::AdminTaskRunner;
using records::Record;
using records::RecordAnchor;

struct RecordsPanel::BrowserSlot {
    std::unique_ptr<records::RecordBrowser> browser;
};

namespace {

enum Column {
    OffsetColumn,
    TimeColumn,
    TypeColumn,
    KeyColumn,
    ValueColumn,
    HeadersColumn,
    SizeColumn
};

// What a cell shows of a value: one line, cut (the detail below has it whole).
constexpr int cellChars = 200;
// What the detail shows before "Show All".
constexpr int detailChars = 64 * 1024;

QString oneLine(const QByteArray& bytes) {
    QString text = records::renderValue(bytes, records::detectFormat(bytes), false);
    text.replace(u'\n', u' ');
    if (text.size() > cellChars)
        text = text.left(cellChars) + QStringLiteral("…");
    return text;
}

QString timeText(const Record& record) {
    return record.timestampMs >= 0 ? QDateTime::fromMSecsSinceEpoch(record.timestampMs)
                                         .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"))
                                   : QStringLiteral("-");
}

} // namespace

RecordsPanel::RecordsPanel(ResetController* controller, QWidget* parent)
    : QWidget(parent)
    , m_controller(controller)
    , m_partitionChoice(new QComboBox(this))
    , m_atEdit(new QLineEdit(this))
    , m_before(new QSpinBox(this))
    , m_after(new QSpinBox(this))
    , m_follow(new QCheckBox(tr("&Follow"), this))
    , m_table(new QTableWidget(this))
    , m_formatChoice(new QComboBox(this))
    , m_detail(new QPlainTextEdit(this))
    , m_showAllButton(new QPushButton(tr("Show All"), this))
    , m_readWholeButton(new QPushButton(tr("Read Whole Value"), this))
    , m_skipButton(new QPushButton(tr("Skip This Record…"), this))
    , m_statusLabel(new QLabel(this))
    , m_followTimer(new QTimer(this))
    , m_slot(std::make_shared<BrowserSlot>()) {
    buildControls();
    m_followTimer->setInterval(500);
    connect(m_followTimer, &QTimer::timeout, this, &RecordsPanel::pollFollow);
    connect(m_follow, &QCheckBox::toggled, this, [this](bool on) {
        if (on)
            m_followTimer->start();
        else
            m_followTimer->stop();
    });
    // A new connection: the next read makes a runner (and a browser) for it.
    connect(m_controller, &ResetController::clusterChanged, this, [this] {
        if (m_controller->runner() &&
            m_controller->runner()->profile().bootstrapServers != m_runnerServers) {
            delete m_runner;
            m_slot = std::make_shared<BrowserSlot>();
        }
    });
}

RecordsPanel::~RecordsPanel() = default;

void RecordsPanel::buildControls() {
    m_partitionChoice->setObjectName(QStringLiteral("recordsPartition"));
    m_partitionChoice->setMinimumContentsLength(24);
    m_atEdit->setObjectName(QStringLiteral("recordsAt"));
    m_atEdit->setPlaceholderText(tr("offset or date-time (yyyy-MM-ddTHH:mm:ss)"));
    m_atEdit->setClearButtonEnabled(true);
    for (QSpinBox* box : {m_before, m_after}) {
        box->setRange(0, maxRows / 2);
        box->setValue(10);
    }
    m_before->setPrefix(tr("before "));
    m_after->setPrefix(tr("after "));
    auto* committed = new QPushButton(tr("&Committed"), this);
    auto* earliest = new QPushButton(tr("&Earliest"), this);
    auto* latest = new QPushButton(tr("&Latest"), this);
    auto* go = new QPushButton(tr("&Go"), this);
    for (QPushButton* button :
         {committed, earliest, latest, go, m_showAllButton, m_readWholeButton, m_skipButton})
        button->setAutoDefault(false);
    m_readWholeButton->setObjectName(QStringLiteral("readWholeValue"));
    m_readWholeButton->setToolTip(
        tr("Values over 1 MiB are cut to keep memory bounded: read this record again, whole"));
    committed->setToolTip(tr("Around the group's committed offset: the record it reads next"));
    go->setToolTip(tr("Jump to the offset or date-time typed"));

    m_table->setObjectName(QStringLiteral("recordsTable"));
    m_table->setColumnCount(7);
    m_table->setHorizontalHeaderLabels({tr("Offset"), tr("Timestamp"), tr("Type"), tr("Key"),
                                        tr("Value"), tr("Headers"), tr("Size")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setSectionResizeMode(ValueColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->resizeSection(OffsetColumn, 110);
    m_table->horizontalHeader()->resizeSection(TimeColumn, 170);
    m_table->horizontalHeader()->resizeSection(TypeColumn, 100);
    m_table->horizontalHeader()->resizeSection(KeyColumn, 140);
    enableCopyAsTsv(m_table);

    m_formatChoice->setObjectName(QStringLiteral("recordsFormat"));
    m_formatChoice->addItem(tr("Automatic"));
    m_formatChoice->addItem(tr("Text"), int(records::ValueFormat::Text));
    m_formatChoice->addItem(tr("JSON"), int(records::ValueFormat::Json));
    m_formatChoice->addItem(tr("Hex"), int(records::ValueFormat::Hex));
    m_detail->setObjectName(QStringLiteral("recordDetail"));
    m_detail->setReadOnly(true);
    m_detail->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_detail->setFont(QFont(QStringLiteral("monospace")));
    m_detail->setPlaceholderText(tr("Select a record to see its key, headers and whole value."));
    m_showAllButton->hide();
    m_readWholeButton->hide();
    m_skipButton->setObjectName(QStringLiteral("skipRecordButton"));
    m_skipButton->setEnabled(false);
    m_skipButton->setToolTip(tr("Put a reset past the selected record into the Reset offsets tab "
                                "(previewed, confirmed and undoable as any reset)"));
    m_statusLabel->setWordWrap(true);
    m_statusLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Partition:"), this));
    controls->addWidget(m_partitionChoice);
    controls->addWidget(committed);
    controls->addWidget(earliest);
    controls->addWidget(latest);
    controls->addWidget(m_atEdit, 1);
    controls->addWidget(go);
    controls->addWidget(m_before);
    controls->addWidget(m_after);
    controls->addWidget(m_follow);

    auto* detailPane = new QWidget(this);
    auto* detailLayout = new QVBoxLayout(detailPane);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    auto* detailBar = new QHBoxLayout;
    detailBar->addWidget(new QLabel(tr("Show values as:"), this));
    detailBar->addWidget(m_formatChoice);
    detailBar->addWidget(m_showAllButton);
    detailBar->addWidget(m_readWholeButton);
    detailBar->addStretch(1);
    detailBar->addWidget(m_skipButton);
    detailLayout->addLayout(detailBar);
    detailLayout->addWidget(m_detail, 1);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(detailPane);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 6, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_statusLabel);

    connect(committed, &QPushButton::clicked, this, [this] {
        load({RecordAnchor::Kind::Committed, 0});
    });
    connect(earliest, &QPushButton::clicked, this, [this] {
        load({RecordAnchor::Kind::Earliest, 0});
    });
    connect(latest, &QPushButton::clicked, this, [this] { load({RecordAnchor::Kind::Latest, 0}); });
    const auto jump = [this] {
        const auto anchor = RecordAnchor::parse(m_atEdit->text());
        if (!anchor) {
            showStatus(anchor.error().message, true);
            return;
        }
        load(anchor.value());
    };
    connect(go, &QPushButton::clicked, this, jump);
    connect(m_atEdit, &QLineEdit::returnPressed, this, jump);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, [this] {
        m_showAll = false;
        showDetail();
    });
    connect(m_formatChoice, &QComboBox::currentIndexChanged, this, &RecordsPanel::showDetail);
    connect(m_showAllButton, &QPushButton::clicked, this, [this] {
        m_showAll = true;
        showDetail();
    });
    connect(m_readWholeButton, &QPushButton::clicked, this, &RecordsPanel::readWholeValue);
    connect(m_skipButton, &QPushButton::clicked, this, [this] {
        if (const Record* record = selectedRecord())
            emit skipRequested(m_anchor.partition, record->offset + 1);
    });
}

QString RecordsPanel::statusText() const {
    return m_statusLabel->text();
}

void RecordsPanel::showStatus(const QString& text, bool isError) {
    m_statusLabel->setText(text);
    m_statusLabel->setStyleSheet(isError ? QStringLiteral("color: #b42318") : QString());
    if (isError)
        emit statusMessage(text);
}

void RecordsPanel::setGroup(const QString& groupId) {
    if (groupId == m_groupId)
        return;
    m_groupId = groupId;
    m_follow->setChecked(false);
    m_partitionChoice->clear();
    m_table->setRowCount(0);
    m_records.clear();
    m_recordOfRow.clear();
    m_anchor = {};
    m_detail->clear();
    m_statusLabel->clear();
    ++m_loads; // a read still on its way is for the previous group: its answer is dropped
    m_loading = false;
}

void RecordsPanel::setPartitions(const QList<kafka::TopicPartition>& partitions) {
    QStringList names;
    for (const kafka::TopicPartition& partition : partitions)
        names.append(partition.toString());
    QStringList shown;
    for (int i = 0; i < m_partitionChoice->count(); ++i)
        shown.append(m_partitionChoice->itemText(i));
    if (names == shown)
        return;
    const QString current = m_partitionChoice->currentText();
    m_partitionChoice->clear();
    for (const kafka::TopicPartition& partition : partitions)
        m_partitionChoice->addItem(partition.toString(),
                                   QVariant::fromValue(QStringList{
                                       partition.topic, QString::number(partition.partition)}));
    if (const int index = m_partitionChoice->findText(current); index >= 0)
        m_partitionChoice->setCurrentIndex(index);
}

kafka::TopicPartition RecordsPanel::currentPartition() const {
    const QStringList parts = m_partitionChoice->currentData().toStringList();
    if (parts.size() != 2)
        return {};
    return {parts.at(0), parts.at(1).toInt()};
}

void RecordsPanel::showAt(const kafka::TopicPartition& partition, const RecordAnchor& anchor) {
    int index = m_partitionChoice->findText(partition.toString());
    if (index < 0) {
        m_partitionChoice->addItem(partition.toString(),
                                   QVariant::fromValue(QStringList{
                                       partition.topic, QString::number(partition.partition)}));
        index = m_partitionChoice->count() - 1;
    }
    m_partitionChoice->setCurrentIndex(index);
    load(anchor);
}

monitor::AdminTaskRunner* RecordsPanel::runner() {
    if (!m_runner && m_controller->runner()) {
        const kafka::ConnectionProfile profile = m_controller->runner()->profile();
        m_runner = new AdminTaskRunner(profile, std::chrono::milliseconds(15000), this);
        m_runnerServers = profile.bootstrapServers;
    }
    return m_runner;
}

void RecordsPanel::load(const RecordAnchor& anchor) {
    const kafka::TopicPartition partition = currentPartition();
    AdminTaskRunner* worker = runner();
    if (partition.topic.isEmpty() || !worker) {
        showStatus(worker ? tr("Choose a partition.") : tr("Not connected to a cluster."), true);
        return;
    }
    const quint64 load = ++m_loads;
    m_loading = true;
    showStatus(tr("Reading %1 around %2…").arg(partition.toString(), anchor.describe()));
    const int before = m_before->value();
    const int after = m_after->value();
    worker->post(this, [this, load, slot = m_slot, group = m_groupId, partition, anchor, before,
                        after, profile = worker->profile()](
                           kafka::AdminClient* admin, const kafka::KafkaError& creationError,
                           const AdminTaskRunner::CancelToken& cancel) {
        kafka::Result<records::RecordPage> page(creationError);
        if (admin) {
            const auto resolved = records::resolveAnchor(*admin, group, partition, anchor);
            if (!resolved) {
                page = resolved.error();
            } else {
                if (!slot->browser || slot->browser->partition() != partition) {
                    slot->browser.reset();
                    records::RecordBrowser::Options options;
                    options.profile = profile;
                    options.timeout = std::chrono::milliseconds(8000);
                    auto opened =
                        records::RecordBrowser::open(partition, resolved.value().offset, options);
                    if (opened)
                        slot->browser = std::move(opened).value();
                    else
                        page = opened.error();
                }
                if (slot->browser) {
                    page = records::readAround(*slot->browser, resolved.value(), before, after,
                                               cancel.get());
                    // Follow continues right after what the page shows.
                    if (page) {
                        const auto& shown = page.value().records;
                        const int64_t next =
                            shown.isEmpty() ? resolved.value().offset : shown.last().offset + 1;
                        slot->browser->readFrom(next, 0, next);
                    }
                }
            }
        }
        // A reader that failed (a topic deleted, reading denied) is not trusted with the
        // next read: it opens afresh, on whatever topic has the name by then.
        if (!page)
            slot->browser.reset();
        return AdminTaskRunner::Continuation([this, load, page] {
            if (load != m_loads)
                return; // a newer read, or another group, replaced it
            m_loading = false;
            showPage(page);
        });
    });
}

void RecordsPanel::showPage(const kafka::Result<records::RecordPage>& page) {
    m_table->setRowCount(0);
    m_records.clear();
    m_recordOfRow.clear();
    m_detail->clear();
    if (!page) {
        m_anchor = {};
        showStatus(tr("Cannot read the records: %1").arg(page.error().message), true);
        return;
    }
    m_anchor = page.value().anchor;
    qsizetype gap = 0;
    const QList<records::OffsetGap>& gaps = page.value().gaps;
    for (const Record& record : page.value().records) {
        while (gap < gaps.size() && gaps.at(gap).to < record.offset)
            addGapRow(gaps.at(gap++));
        m_records.append(record);
        addRecordRow(record);
    }
    if (m_anchor.offset >= m_anchor.logEndOffset)
        addLogEndRow();
    QStringList status{tr("%1: log %2 to %3; %n record(s) shown, committed records only.", nullptr,
                          int(m_records.size()))
                           .arg(m_anchor.partition.toString())
                           .arg(m_anchor.logStartOffset)
                           .arg(m_anchor.logEndOffset)};
    if (m_anchor.committedOffset)
        status.append(
            tr("Group %1 committed %2 (▶).").arg(m_groupId).arg(*m_anchor.committedOffset));
    if (!m_anchor.note.isEmpty())
        status.append(m_anchor.note + u'.');
    showStatus(status.join(u' '));
    // The anchor's row in view and selected, so its detail shows at once.
    for (int row = 0; row < m_recordOfRow.size(); ++row)
        if (m_recordOfRow.at(row) >= 0 &&
            m_records.at(m_recordOfRow.at(row)).offset == m_anchor.offset) {
            m_table->selectRow(row);
            m_table->scrollToItem(m_table->item(row, 0), QAbstractItemView::PositionAtCenter);
            break;
        }
}

void RecordsPanel::appendRecords(const QList<Record>& arrived) {
    for (const Record& record : arrived) {
        if (!m_records.isEmpty() && record.offset > m_records.last().offset + 1)
            addGapRow({m_records.last().offset + 1, record.offset - 1});
        m_records.append(record);
        addRecordRow(record);
    }
    // Bounded: the oldest rows go first.
    const int excess = int(m_records.size()) - maxRows;
    if (excess <= 0)
        return;
    int rowsToDrop = 0;
    int recordsDropped = 0;
    while (rowsToDrop < m_recordOfRow.size() && recordsDropped < excess) {
        if (m_recordOfRow.at(rowsToDrop) >= 0)
            ++recordsDropped;
        ++rowsToDrop;
    }
    for (int i = 0; i < rowsToDrop; ++i)
        m_table->removeRow(0);
    m_records.remove(0, recordsDropped);
    m_recordOfRow.remove(0, rowsToDrop);
    for (int& index : m_recordOfRow)
        if (index >= 0)
            index -= recordsDropped;
}

void RecordsPanel::addRecordRow(const Record& record) {
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    const bool atCommit = m_anchor.committedOffset && record.offset == *m_anchor.committedOffset;
    const QStringList cells{
        atCommit ? QStringLiteral("▶ %1").arg(record.offset) : QString::number(record.offset),
        timeText(record),
        records::timestampTypeName(record.timestampType),
        record.key.isNull() ? QStringLiteral("null") : oneLine(record.key),
        record.value.isNull() ? QStringLiteral("null (tombstone)") : oneLine(record.value),
        QString(),
        QLocale().toString(record.sizeBytes())};
    QStringList headers;
    for (const auto& [name, value] : record.headers)
        headers.append(name + u'=' + oneLine(value));
    for (int column = 0; column < cells.size(); ++column) {
        auto* item = new QTableWidgetItem(
            column == HeadersColumn ? headers.join(QStringLiteral(", ")) : cells.at(column));
        if (column == OffsetColumn || column == SizeColumn)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (atCommit) {
            QFont font = item->font();
            font.setBold(true);
            item->setFont(font);
            item->setBackground(palette().color(QPalette::Highlight).lighter(185));
            item->setToolTip(tr("The committed offset of group %1: the record it reads next "
                                "(where a stuck consumer is most likely failing)")
                                 .arg(m_groupId));
        }
        m_table->setItem(row, column, item);
    }
    m_recordOfRow.append(int(m_records.size()) - 1);
}

void RecordsPanel::addGapRow(const records::OffsetGap& gap) {
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    auto* offsets = new QTableWidgetItem(gap.from == gap.to
                                             ? QString::number(gap.from)
                                             : QStringLiteral("%1–%2").arg(gap.from).arg(gap.to));
    offsets->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    auto* why = new QTableWidgetItem(
        tr("no record here: a transaction marker, an aborted or a compacted record"));
    for (QTableWidgetItem* item : {offsets, why}) {
        QFont font = item->font();
        font.setItalic(true);
        item->setFont(font);
        item->setForeground(palette().color(QPalette::PlaceholderText));
    }
    m_table->setItem(row, OffsetColumn, offsets);
    m_table->setItem(row, ValueColumn, why);
    m_recordOfRow.append(-1);
}

void RecordsPanel::addLogEndRow() {
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    const bool committedHere =
        m_anchor.committedOffset && *m_anchor.committedOffset == m_anchor.offset;
    auto* offset = new QTableWidgetItem(committedHere ? QStringLiteral("▶ %1").arg(m_anchor.offset)
                                                      : QString::number(m_anchor.offset));
    offset->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    auto* what = new QTableWidgetItem(
        committedHere
            ? tr("the log end: group %1 has read everything; nothing to read yet").arg(m_groupId)
            : tr("the log end: nothing to read yet"));
    m_table->setItem(row, OffsetColumn, offset);
    m_table->setItem(row, ValueColumn, what);
    m_recordOfRow.append(-1);
}

void RecordsPanel::pollFollow() {
    if (m_polling || m_loading || !m_runner || m_anchor.partition.topic.isEmpty())
        return;
    m_polling = true;
    const quint64 load = m_loads;
    m_runner->post(this, [this, load, slot = m_slot](kafka::AdminClient*, const kafka::KafkaError&,
                                                     const AdminTaskRunner::CancelToken&) {
        QList<Record> arrived;
        if (slot->browser)
            arrived = slot->browser->takeNew(std::chrono::milliseconds(200), maxRows);
        return AdminTaskRunner::Continuation([this, load, arrived] {
            m_polling = false;
            if (load != m_loads || arrived.isEmpty())
                return;
            appendRecords(arrived);
            if (m_follow->isChecked())
                m_table->scrollToBottom();
        });
    });
}

void RecordsPanel::showDetail() {
    const Record* record = selectedRecord();
    m_skipButton->setEnabled(record != nullptr);
    m_showAllButton->hide();
    m_readWholeButton->hide();
    if (!record) {
        m_detail->clear();
        return;
    }
    const QVariant chosen = m_formatChoice->currentData();
    const auto render = [&](const QByteArray& bytes) {
        const records::ValueFormat format =
            chosen.isValid() ? records::ValueFormat(chosen.toInt()) : records::detectFormat(bytes);
        return records::renderValue(bytes, format, true);
    };
    QStringList lines{
        tr("Offset %1 · %2 (%3) · %4 bytes")
            .arg(record->offset)
            .arg(timeText(*record), records::timestampTypeName(record->timestampType),
                 QLocale().toString(record->sizeBytes())),
        tr("Key: %1").arg(record->key.isNull() ? QStringLiteral("null") : render(record->key))};
    for (const auto& [name, value] : record->headers)
        lines.append(tr("Header %1: %2").arg(name, render(value)));
    QString value = render(record->value);
    if (record->valueCut()) {
        // Only the first bytes are held: Read Whole Value reads the record again, whole,
        // and shows all of it.
        m_readWholeButton->show();
        value = value.left(detailChars);
        lines.append(tr("Value (cut to keep memory bounded: the first %1 of %2 bytes are held, "
                        "the first %3 characters shown; Read Whole Value reads it all):")
                         .arg(QLocale().toString(record->value.size()),
                              QLocale().toString(record->valueSize),
                              QLocale().toString(detailChars)));
    } else if (!m_showAll && value.size() > detailChars) {
        value = value.left(detailChars);
        m_showAllButton->show();
        lines.append(tr("Value (the first %1 characters; Show All for the rest):")
                         .arg(QLocale().toString(detailChars)));
    } else {
        lines.append(tr("Value:"));
    }
    lines.append(value);
    m_detail->setPlainText(lines.join(u'\n'));
}

void RecordsPanel::readWholeValue() {
    const Record* record = selectedRecord();
    AdminTaskRunner* worker = runner();
    if (!record || !worker)
        return;
    const int64_t offset = record->offset;
    const kafka::TopicPartition partition = m_anchor.partition;
    const quint64 load = m_loads;
    showStatus(tr("Reading the whole value of offset %1…").arg(offset));
    worker->post(this, [this, load, partition, offset,
                        profile = worker->profile()](kafka::AdminClient*, const kafka::KafkaError&,
                                                     const AdminTaskRunner::CancelToken& cancel) {
        records::RecordBrowser::Options options;
        options.profile = profile;
        options.timeout = std::chrono::milliseconds(15000);
        const kafka::Result<Record> whole =
            records::RecordBrowser::readWhole(partition, offset, options, cancel.get());
        return AdminTaskRunner::Continuation([this, load, offset, whole] {
            if (load != m_loads)
                return; // the table shows another page now
            if (!whole) {
                showStatus(tr("Could not read the whole value of offset %1: %2")
                               .arg(offset)
                               .arg(whole.error().toString()),
                           true);
                return;
            }
            for (Record& shown : m_records)
                if (shown.offset == offset)
                    shown = whole.value();
            showStatus(tr("Offset %1: the whole value, %2 bytes.")
                           .arg(offset)
                           .arg(QLocale().toString(whole.value().valueSize)));
            m_showAll = true;
            showDetail();
        });
    });
}

const Record* RecordsPanel::selectedRecord() const {
    const int row = m_table->currentRow();
    if (row < 0 || row >= m_recordOfRow.size() || m_recordOfRow.at(row) < 0)
        return nullptr;
    return &m_records.at(m_recordOfRow.at(row));
}

} // namespace groupscope::ui
