#include "widgets/GroupDetailWidget.h"

#include "delegates/LagBarDelegate.h"
#include "delegates/TextCellDelegate.h"
#include "models/HealthText.h"
#include "models/MemberTableModel.h"
#include "models/PartitionTableModel.h"
#include "widgets/LagChartWidget.h"
#include "widgets/OffsetResetPanel.h"
#include "widgets/PlaceholderTableView.h"
#include "widgets/RebalanceTimelineWidget.h"
#include "widgets/RecordsPanel.h"
#include "widgets/ResetHistoryPanel.h"
#include "widgets/TableCopy.h"

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTime>
#include <QVBoxLayout>

namespace groupscope::ui {

namespace {

void setUpTable(PlaceholderTableView* view) {
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->setShowGrid(false);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 12);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setStretchLastSection(true);
    enableCopyAsTsv(view);
}

} // namespace

GroupDetailWidget::GroupDetailWidget(ResetController* controller, QWidget* parent)
    : QWidget(parent)
    , m_header(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_partitionModel(new PartitionTableModel(this))
    , m_memberModel(new MemberTableModel(this))
    , m_partitionView(new PlaceholderTableView(this))
    , m_memberView(new PlaceholderTableView(this))
    , m_offsetPanel(new OffsetResetPanel(controller, this))
    , m_historyPanel(new ResetHistoryPanel(controller, this))
    , m_recordsPanel(new RecordsPanel(controller, this))
    , m_stuckBanner(new QLabel(this))
    , m_lagChart(new LagChartWidget(this))
    , m_timeline(new RebalanceTimelineWidget(this)) {
    m_header->setObjectName(QStringLiteral("groupDetailHeader"));
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_header->setWordWrap(true); // a long header (an error, a vanished topic) is not cut
    m_header->setText(tr("Double-click a group (or select it and press Enter) to open it here."));

    // Sorting through a proxy keeps the model's rows (and its diff updates) in key order.
    auto* partitionProxy = new QSortFilterProxyModel(this);
    partitionProxy->setSourceModel(m_partitionModel);
    partitionProxy->setSortRole(PartitionTableModel::SortRole);
    m_partitionView->setObjectName(QStringLiteral("partitionTable"));
    m_partitionView->setModel(partitionProxy);
    setUpTable(m_partitionView);
    // Every visible cell of a busy group changes on each refresh: painted the fast way.
    m_partitionView->setItemDelegate(new TextCellDelegate(m_partitionView));
    m_partitionView->setSortingEnabled(true);
    m_partitionView->sortByColumn(PartitionTableModel::TopicColumn, Qt::AscendingOrder);
    m_partitionView->setItemDelegateForColumn(PartitionTableModel::LagColumn,
                                              new LagBarDelegate(PartitionTableModel::LagRole,
                                                                 PartitionTableModel::MaxLagRole,
                                                                 m_partitionView));
    QHeaderView* header = m_partitionView->horizontalHeader();
    header->resizeSection(PartitionTableModel::TopicColumn, 170);
    for (int column = PartitionTableModel::PartitionColumn;
         column <= PartitionTableModel::LogEndColumn; ++column)
        header->resizeSection(column, 90);
    header->resizeSection(PartitionTableModel::LagColumn, 150);
    // Wide enough for "0 (caught up: 1 transaction marker)"; its tooltip has the rest.
    header->resizeSection(PartitionTableModel::EffectiveLagColumn, 240);
    header->resizeSection(PartitionTableModel::TimeLagColumn, 110);
    header->resizeSection(PartitionTableModel::OldestRecordColumn, 140);
    header->resizeSection(PartitionTableModel::OwnerColumn, 240);
    header->resizeSection(PartitionTableModel::LastCommitColumn, 150);

    m_memberView->setObjectName(QStringLiteral("memberTable"));
    m_memberView->setModel(m_memberModel);
    setUpTable(m_memberView);
    // Wide enough for a KIP-848 member id (22 characters); a classic one is elided, and
    // its tooltip has it whole. Reconciliation, the last column, takes the rest.
    m_memberView->horizontalHeader()->resizeSection(MemberTableModel::MemberIdColumn, 220);
    m_memberView->horizontalHeader()->resizeSection(MemberTableModel::InstanceIdColumn, 90);
    m_memberView->horizontalHeader()->resizeSection(MemberTableModel::ClientIdColumn, 200);
    m_memberView->horizontalHeader()->resizeSection(MemberTableModel::HostColumn, 100);
    m_memberView->horizontalHeader()->resizeSection(MemberTableModel::AssignmentColumn, 180);
    m_memberView->horizontalHeader()->resizeSection(MemberTableModel::TargetColumn, 180);
    m_memberView->setPlaceholderText(
        tr("No live members: the group is empty, so its offsets can be changed."));

    m_tabs->setObjectName(QStringLiteral("groupDetailTabs"));
    m_tabs->addTab(m_partitionView, tr("&Partitions"));
    m_tabs->addTab(m_memberView, tr("&Members"));
    m_lagChart->setObjectName(QStringLiteral("lagChart"));
    m_tabs->addTab(m_lagChart, tr("&Lag"));
    m_timeline->setObjectName(QStringLiteral("rebalanceTimeline"));
    m_tabs->addTab(m_timeline, tr("&Timeline"));
    m_recordsPanel->setObjectName(QStringLiteral("recordsPanel"));
    m_tabs->addTab(m_recordsPanel, tr("R&ecords"));
    m_tabs->addTab(m_offsetPanel, tr("Reset &offsets"));
    m_tabs->addTab(m_historyPanel, tr("&History"));
    m_tabs->setEnabled(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 0);
    layout->addWidget(m_header);
    layout->addWidget(m_stuckBanner);
    layout->addWidget(m_tabs, 1);

    connect(m_offsetPanel, &OffsetResetPanel::statusMessage, this,
            &GroupDetailWidget::statusMessage);
    connect(m_historyPanel, &ResetHistoryPanel::statusMessage, this,
            &GroupDetailWidget::statusMessage);
    connect(m_lagChart, &LagChartWidget::statusMessage, this, &GroupDetailWidget::statusMessage);
    setUpRecords();
}

void GroupDetailWidget::setUpRecords() {
    m_stuckBanner->setObjectName(QStringLiteral("stuckBanner"));
    m_stuckBanner->setWordWrap(true);
    // Warning colours that read on light and dark palettes alike.
    m_stuckBanner->setStyleSheet(
        QStringLiteral("QLabel { background: #fff4e5; color: #5c3b00; border: 1px solid #f0b429; "
                       "border-radius: 3px; padding: 4px; }"));
    m_stuckBanner->setTextFormat(Qt::RichText);
    m_stuckBanner->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_stuckBanner->hide();
    connect(m_stuckBanner, &QLabel::linkActivated, this, [this](const QString& link) {
        const qsizetype colon = link.lastIndexOf(u':');
        showRecordsAtCommit({link.left(colon), link.mid(colon + 1).toInt()});
    });
    connect(m_recordsPanel, &RecordsPanel::statusMessage, this, &GroupDetailWidget::statusMessage);
    connect(m_recordsPanel, &RecordsPanel::skipRequested, this, &GroupDetailWidget::proposeSkip);
    // Double-click or Enter on a partition, or its context menu: its records at the commit.
    const auto partitionAt = [this](const QModelIndex& index) {
        const QModelIndex source =
            static_cast<QSortFilterProxyModel*>(m_partitionView->model())->mapToSource(index);
        return m_partitionModel->rowAt(source.row()).topicPartition;
    };
    connect(m_partitionView, &QAbstractItemView::activated, this,
            [this, partitionAt](const QModelIndex& index) {
                if (index.isValid())
                    showRecordsAtCommit(partitionAt(index));
            });
    m_partitionView->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* showRecords = new QAction(tr("Show Records at the Commit"), m_partitionView);
    connect(showRecords, &QAction::triggered, this, [this, partitionAt] {
        const QModelIndex current = m_partitionView->currentIndex();
        if (current.isValid())
            showRecordsAtCommit(partitionAt(current));
    });
    m_partitionView->addAction(showRecords);
}

void GroupDetailWidget::showRecordsAtCommit(const kafka::TopicPartition& partition) {
    const int row = m_partitionModel->rowOfKey(partition);
    const bool committed = row >= 0 && m_partitionModel->rowAt(row).committedOffset.has_value();
    m_tabs->setCurrentWidget(m_recordsPanel);
    m_recordsPanel->showAt(partition, {committed ? records::RecordAnchor::Kind::Committed
                                                 : records::RecordAnchor::Kind::Earliest,
                                       0});
}

void GroupDetailWidget::proposeSkip(const kafka::TopicPartition& partition, int64_t offset) {
    m_tabs->setCurrentWidget(m_offsetPanel);
    if (!m_offsetPanel->proposeOffset(partition, offset))
        emit statusMessage(tr("%1 is not in the Reset offsets table: add its topic there to "
                              "set it to %2.")
                               .arg(partition.toString())
                               .arg(offset));
}

void GroupDetailWidget::updateStuckBanner(const monitor::GroupSnapshot& group) {
    QStringList stuck;
    for (qsizetype i = 0; i < group.partitions.size() && i < group.trend->partitions.size(); ++i) {
        const auto health = group.trend->partitions.at(i).health();
        const monitor::PartitionSnapshot& partition = group.partitions.at(i);
        if (!health || !partition.committedOffset ||
            (*health != lag::PartitionStatus::Stall && *health != lag::PartitionStatus::Stop))
            continue;
        const QString name = partition.topicPartition.toString();
        stuck.append(tr("%1 is %2 at committed offset %3 (its commits do not move while lag "
                        "grows) — <a href=\"%4\">show the record at the commit</a>")
                         .arg(name.toHtmlEscaped(), lag::partitionStatusName(*health))
                         .arg(*partition.committedOffset)
                         .arg(name.toHtmlEscaped()));
    }
    m_stuckBanner->setText(stuck.join(QStringLiteral("<br>")));
    m_stuckBanner->setVisible(!stuck.isEmpty());
}

QTableView* GroupDetailWidget::partitionView() const {
    return m_partitionView;
}

QTableView* GroupDetailWidget::memberView() const {
    return m_memberView;
}

QString GroupDetailWidget::headerText() const {
    return m_header->text();
}

void GroupDetailWidget::openGroup(const QString& groupId, const monitor::GroupSnapshot* current) {
    if (groupId != m_groupId) {
        m_groupId = groupId;
        m_partitionModel->clear();
        m_memberModel->applyMembers({});
        m_partitionView->setPlaceholderText(tr("Loading %1…").arg(groupId));
        m_offsetPanel->setGroup(groupId);
        m_historyPanel->setGroup(groupId);
        m_recordsPanel->setGroup(groupId);
        m_stuckBanner->hide();
        m_monitorSnapshot = {};
        m_committedPartitionsByTopic.clear();
        m_vanishedNote.clear();
        m_lagChart->clear();
        m_timeline->clear();
        m_header->setText(tr("<b>%1</b> — loading…").arg(groupId.toHtmlEscaped()));
        m_tabs->setEnabled(true);
    }
    if (current)
        applyGroup(*current, nullptr);
}

void GroupDetailWidget::applyView(const monitor::ClusterView& view) {
    if (m_groupId.isEmpty())
        return;
    const monitor::GroupSnapshot* group = view.group(m_groupId);
    if (!group && view.listedGroup(m_groupId))
        return; // listed, and not watched yet: its full snapshot comes with the next view
    if (!group || !group->exists()) {
        // Not in the listing any more: Kafka forgot it (deleted, or offsets expired).
        m_header->setText(
            tr("<b>%1</b> — no longer on the cluster").arg(m_groupId.toHtmlEscaped()));
        return;
    }
    applyGroup(*group, view.watchedGroup(m_groupId));
}

void GroupDetailWidget::applyGroup(const monitor::GroupSnapshot& group,
                                   const monitor::GroupMonitorSnapshot* detail) {
    if (group.groupId() != m_groupId)
        return;
    m_partitionModel->applySnapshot(group, detail);
    m_memberModel->applyMembers(group.description.members);
    m_offsetPanel->applySnapshot(group);
    QList<kafka::TopicPartition> partitions;
    for (const monitor::PartitionSnapshot& partition : group.partitions)
        partitions.append(partition.topicPartition);
    m_recordsPanel->setPartitions(partitions);
    updateStuckBanner(group);
    noteVanishedCommits(group);
    m_partitionView->setPlaceholderText(
        tr("Group %1 has no committed offsets and no assigned partitions.").arg(m_groupId));
    updateHeader(group);
    if (!detail)
        return;
    m_monitorSnapshot = *detail;
    m_lagChart->appendSnapshot(*detail);
    m_timeline->setTimeline(detail->timeline, detail->takenAtMs, detail->timelineApproximate(),
                            detail->timelineNote);
}

void GroupDetailWidget::noteVanishedCommits(const monitor::GroupSnapshot& group) {
    if (group.error)
        return; // offsets that could not be read have not vanished
    QMap<QString, int> committed;
    for (const monitor::PartitionSnapshot& partition : group.partitions)
        if (partition.committedOffset)
            ++committed[partition.topicPartition.topic];
    QStringList gone;
    for (auto it = m_committedPartitionsByTopic.cbegin(); it != m_committedPartitionsByTopic.cend();
         ++it)
        if (!committed.contains(it.key()))
            gone.append(tr("%1 (%n partition(s))", nullptr, it.value()).arg(it.key()));
    m_committedPartitionsByTopic = committed;
    if (gone.isEmpty())
        return;
    m_vanishedNote = tr("commits on %2 gone at %1 (topic deleted, or offsets deleted or expired)")
                         .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")),
                              gone.join(QStringLiteral(", ")));
    emit statusMessage(tr("Group %1: %2.").arg(m_groupId, m_vanishedNote));
}

void GroupDetailWidget::updateHeader(const monitor::GroupSnapshot& group) {
    const auto& description = group.description;
    QStringList parts{QStringLiteral("<b>%1</b>").arg(m_groupId.toHtmlEscaped()),
                      kafka::groupStateName(description.state)};
    if (!description.partitionAssignor.isEmpty())
        parts.append(tr("assignor %1").arg(description.partitionAssignor.toHtmlEscaped()));
    parts.append(tr("%n member(s)", nullptr, int(description.members.size())));
    if (description.coordinator.id >= 0)
        parts.append(tr("coordinator %1").arg(description.coordinator.toString().toHtmlEscaped()));
    if (group.trend->health != lag::GroupStatus::NotFound)
        parts.append(tr("health %1").arg(lag::groupStatusName(group.trend->health)));
    if (const QString rebalance = rebalanceHeaderText(group.trend->rebalance); !rebalance.isEmpty())
        parts.append(rebalance.toHtmlEscaped());
    if (group.error)
        parts.append(tr("error: %1").arg(group.error.toString().toHtmlEscaped()));
    if (!m_vanishedNote.isEmpty())
        parts.append(m_vanishedNote.toHtmlEscaped());
    m_header->setText(parts.join(QStringLiteral(" · ")));
    // The list's health tooltip, here too: why the verdict, and the rebalances behind it.
    m_header->setToolTip(
        healthToolTip(group.trend->health, group.trend->healthReason, group.trend->rebalance));
}

} // namespace groupscope::ui
