#include "models/MemberTableModel.h"

#include "models/TableText.h"

#include <QColor>
#include <QMap>

#include <algorithm>
#include <iterator>

namespace groupscope::ui {

MemberTableModel::MemberTableModel(QObject* parent)
    : KeyedTableModel(parent) {}

int MemberTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString MemberTableModel::assignmentText(const QList<kafka::TopicPartition>& assignment) {
    QMap<QString, QList<int32_t>> byTopic;
    for (const auto& tp : assignment)
        byTopic[tp.topic].append(tp.partition);
    QStringList parts;
    for (auto it = byTopic.begin(); it != byTopic.end(); ++it) {
        std::sort(it->begin(), it->end());
        QStringList numbers;
        for (int32_t partition : *it)
            numbers.append(QString::number(partition));
        parts.append(QStringLiteral("%1: %2").arg(it.key(), numbers.join(QStringLiteral(", "))));
    }
    return parts.join(QStringLiteral("; "));
}

QString MemberTableModel::tasksText(const kafka::StreamsTasks& tasks) {
    const auto idsText = [](const QList<kafka::StreamsTaskIds>& ids) {
        QStringList names;
        for (const kafka::StreamsTaskIds& id : ids)
            for (int32_t partition : id.partitions)
                names.append(QStringLiteral("%1_%2").arg(id.subtopologyId).arg(partition));
        return names.join(QStringLiteral(", "));
    };
    QStringList parts;
    if (!tasks.active.isEmpty())
        parts.append(tr("active %1").arg(idsText(tasks.active)));
    if (!tasks.standby.isEmpty())
        parts.append(tr("standby %1").arg(idsText(tasks.standby)));
    if (!tasks.warmup.isEmpty())
        parts.append(tr("warm-up %1").arg(idsText(tasks.warmup)));
    return parts.join(QStringLiteral("; "));
}

namespace {

QString epochText(const kafka::MemberDescription& member) {
    if (!member.memberEpoch)
        return {};
    if (member.targetEpoch && *member.targetEpoch != *member.memberEpoch)
        return QStringLiteral("%1 \u2192 %2").arg(*member.memberEpoch).arg(*member.targetEpoch);
    return QString::number(*member.memberEpoch);
}

// The partitions of `from` that `without` does not have.
QList<kafka::TopicPartition> difference(QList<kafka::TopicPartition> from,
                                        QList<kafka::TopicPartition> without) {
    std::sort(from.begin(), from.end());
    std::sort(without.begin(), without.end());
    QList<kafka::TopicPartition> rest;
    std::set_difference(from.cbegin(), from.cend(), without.cbegin(), without.cend(),
                        std::back_inserter(rest));
    return rest;
}

} // namespace

QString MemberTableModel::reconciliationText(const kafka::MemberDescription& member) {
    if (member.targetTasks)
        return member.isReconciling()
                   ? tr("reconciling: to run %1").arg(tasksText(*member.targetTasks))
                   : tr("done");
    if (!member.targetAssignment)
        return {};
    if (!member.isReconciling())
        return tr("done");
    // The new protocol's order: the member first revokes what it must give up, then the
    // coordinator hands it what it lacks (once its previous owner has let go).
    const auto toRevoke = difference(member.assignment, *member.targetAssignment);
    const auto toReceive = difference(*member.targetAssignment, member.assignment);
    QStringList steps;
    if (!toRevoke.isEmpty())
        steps.append(tr("revokes %1").arg(assignmentText(toRevoke)));
    if (!toReceive.isEmpty())
        steps.append(tr("receives %1").arg(assignmentText(toReceive)));
    return tr("reconciling: %1").arg(steps.join(QStringLiteral("; ")));
}

bool MemberTableModel::sameCell(const kafka::MemberDescription& shown,
                                const kafka::MemberDescription& fresh, int column) const {
    switch (column) {
    case MemberIdColumn:
        return shown.memberId == fresh.memberId;
    case InstanceIdColumn:
        return shown.groupInstanceId == fresh.groupInstanceId;
    case ClientIdColumn:
        return shown.clientId == fresh.clientId;
    case HostColumn:
        return shown.host == fresh.host;
    case EpochColumn:
        return shown.memberEpoch == fresh.memberEpoch && shown.targetEpoch == fresh.targetEpoch;
    case AssignmentColumn:
        return shown.assignment == fresh.assignment && shown.tasks == fresh.tasks;
    case TargetColumn:
        return shown.targetAssignment == fresh.targetAssignment &&
               shown.targetTasks == fresh.targetTasks;
    case ReconciliationColumn:
        return shown.assignment == fresh.assignment &&
               shown.targetAssignment == fresh.targetAssignment && shown.tasks == fresh.tasks &&
               shown.targetTasks == fresh.targetTasks;
    }
    return true;
}

QVariant MemberTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const kafka::MemberDescription& row = m_rows.at(index.row());
    if (role == Qt::ForegroundRole && index.column() == ReconciliationColumn && row.isReconciling())
        return QColor(0xe0, 0x8a, 0x00); // the health column's "warning" colour
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case MemberIdColumn:
        return row.memberId;
    case InstanceIdColumn:
        return row.groupInstanceId.isEmpty() && role == Qt::DisplayRole ? tableText::none()
                                                                        : row.groupInstanceId;
    case ClientIdColumn:
        return row.clientId;
    case HostColumn:
        return row.host;
    case EpochColumn:
        if (!row.memberEpoch)
            return role == Qt::ToolTipRole ? tr("Classic-protocol members have no epochs")
                                           : tableText::none();
        return role == Qt::ToolTipRole
                   ? tr("Member epoch %1; target assignment epoch %2")
                         .arg(*row.memberEpoch)
                         .arg(row.targetEpoch ? QString::number(*row.targetEpoch) : tr("unknown"))
                   : epochText(row);
    case AssignmentColumn:
        if (row.tasks)
            return row.tasks->active.isEmpty() && row.tasks->standby.isEmpty() &&
                           row.tasks->warmup.isEmpty() && role == Qt::DisplayRole
                       ? tableText::none()
                       : tasksText(*row.tasks);
        return role == Qt::ToolTipRole
                   ? assignmentText(row.assignment)
                         .replace(QStringLiteral("; "), QStringLiteral("\n"))
                   : (row.assignment.isEmpty() ? tableText::none()
                                               : assignmentText(row.assignment));
    case TargetColumn:
        if (row.targetTasks)
            return tasksText(*row.targetTasks);
        if (!row.targetAssignment)
            return role == Qt::ToolTipRole
                       ? tr("A classic-protocol member: its assignment is its leader's choice")
                       : tableText::none();
        return assignmentText(*row.targetAssignment);
    case ReconciliationColumn:
        if (!row.targetAssignment && !row.targetTasks)
            return role == Qt::ToolTipRole ? QString() : tableText::none();
        return reconciliationText(row);
    }
    return {};
}

QVariant MemberTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::TextAlignmentRole)
        return QVariant(Qt::AlignLeft | Qt::AlignVCenter); // as the cells below
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case MemberIdColumn:
        return tr("Member id");
    case InstanceIdColumn:
        return tr("Instance id");
    case ClientIdColumn:
        return tr("Client id");
    case HostColumn:
        return tr("Host");
    case EpochColumn:
        return tr("Epoch");
    case AssignmentColumn:
        return tr("Assigned partitions");
    case TargetColumn:
        return tr("Target assignment");
    case ReconciliationColumn:
        return tr("Reconciliation");
    }
    return {};
}

void MemberTableModel::applyMembers(const QList<kafka::MemberDescription>& members) {
    applyRows(members);
}

} // namespace groupscope::ui
