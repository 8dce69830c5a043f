#pragma once

#include "alerts/Alert.h"

#include <QAbstractTableModel>

namespace groupscope::ui {

// The alerts of this session, newest first, for the alert panel: when, which group, what
// changed, from what to what, and why. Bounded: the oldest go beyond maxAlerts.
class AlertListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int maxAlerts = 1000;
    enum Column { TimeColumn, GroupColumn, KindColumn, ChangeColumn, DetailColumn, ColumnCount };
    enum Role { GroupIdRole = Qt::UserRole + 1 };

    explicit AlertListModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    void addAlert(const alerts::Alert& alert);
    void clear();
    const alerts::Alert& alertAt(int row) const { return m_alerts.at(row); }

private:
    QList<alerts::Alert> m_alerts; // newest first
};

} // namespace groupscope::ui
