#pragma once

#include <QSortFilterProxyModel>

namespace groupscope::ui {

// Sorts GroupListModel rows by their typed values (GroupListModel::lessThan: numbers as
// numbers, so a lag of 1,200 sorts after 900 and a time lag of 10 min after 9 min; its only
// source model is a GroupListModel) and filters them by a text that matches the
// group id or one of its topics, case-insensitively.
class GroupFilterProxyModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit GroupFilterProxyModel(QObject* parent = nullptr);

    // The state filter's choices; rebalancing covers both rebalance phases.
    enum class StateFilter { All, Stable, Empty, Rebalancing, Dead };

    QString filterText() const { return m_filterText; }
    void setFilterText(const QString& text);
    StateFilter stateFilter() const { return m_stateFilter; }
    void setStateFilter(StateFilter filter);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    QString m_filterText;
    StateFilter m_stateFilter = StateFilter::All;
};

} // namespace groupscope::ui
