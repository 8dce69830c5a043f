#include "models/AlertListModel.h"

#include <QDateTime>

namespace groupscope::ui {

AlertListModel::AlertListModel(QObject* parent)
    : QAbstractTableModel(parent) {}

int AlertListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_alerts.size());
}

int AlertListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AlertListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= m_alerts.size())
        return {};
    const alerts::Alert& alert = m_alerts.at(index.row());
    if (role == GroupIdRole)
        return alert.group;
    if (role == Qt::ToolTipRole)
        return index.column() == TimeColumn
                   ? QDateTime::fromMSecsSinceEpoch(alert.atMs).toString(Qt::ISODate)
                   : alert.detail;
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case TimeColumn:
        return QDateTime::fromMSecsSinceEpoch(alert.atMs).toString(QStringLiteral("HH:mm:ss"));
    case GroupColumn:
        return alert.group;
    case KindColumn:
        return alerts::alertKindName(alert.kind);
    case ChangeColumn:
        return QStringLiteral("%1 \u2192 %2").arg(alert.from, alert.to);
    case DetailColumn:
        return alert.detail;
    }
    return {};
}

QVariant AlertListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case GroupColumn:
        return tr("Group");
    case KindColumn:
        return tr("What changed");
    case ChangeColumn:
        return tr("From \u2192 to");
    case DetailColumn:
        return tr("Why");
    }
    return {};
}

void AlertListModel::addAlert(const alerts::Alert& alert) {
    beginInsertRows({}, 0, 0);
    m_alerts.prepend(alert);
    endInsertRows();
    if (m_alerts.size() > maxAlerts) {
        beginRemoveRows({}, maxAlerts, int(m_alerts.size()) - 1);
        m_alerts.resize(maxAlerts);
        endRemoveRows();
    }
}

void AlertListModel::clear() {
    if (m_alerts.isEmpty())
        return;
    beginResetModel();
    m_alerts.clear();
    endResetModel();
}

} // namespace groupscope::ui
