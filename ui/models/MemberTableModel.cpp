#include "models/MemberTableModel.h"

#include "models/TableText.h"

#include <QMap>

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
    case AssignmentColumn:
        return shown.assignment == fresh.assignment;
    }
    return true;
}

QVariant MemberTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const kafka::MemberDescription& row = m_rows.at(index.row());
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
    case AssignmentColumn:
        return role == Qt::ToolTipRole ? assignmentText(row.assignment)
                                             .replace(QStringLiteral("; "), QStringLiteral("\n"))
                                       : assignmentText(row.assignment);
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
    case AssignmentColumn:
        return tr("Assigned partitions");
    }
    return {};
}

void MemberTableModel::applyMembers(const QList<kafka::MemberDescription>& members) {
    applyRows(members);
}

} // namespace groupscope::ui
