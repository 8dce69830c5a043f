#pragma once

#include "models/GroupFilterProxyModel.h"

#include <QStringList>
#include <QWidget>

class QComboBox;
class QLineEdit;

namespace groupscope::ui {

class GroupListModel;
class PlaceholderTableView;

// The group list of a window: the filter row (text, state) above the table of groups,
// with the text that says why the table is empty. It shows what it is given
// (GroupListModel::applySummaries) and says which group the user opens.
class GroupBrowser : public QWidget {
    Q_OBJECT
public:
    explicit GroupBrowser(QWidget* parent = nullptr);

    GroupListModel* model() const { return m_model; }
    GroupFilterProxyModel* proxy() const { return m_proxy; }
    PlaceholderTableView* view() const { return m_view; }
    QLineEdit* filterEdit() const { return m_filterEdit; }
    QComboBox* stateFilter() const { return m_stateFilter; }

    // The selected groups, or the current one when none is selected.
    QStringList selectedGroups() const;
    QString currentGroup() const;
    // Makes `groupId` the current row when it is listed and not current already.
    void selectGroup(const QString& groupId);
    void focusFilter();
    // What the empty table says while the list cannot be shown (not connected, connecting,
    // unreachable); empty once a refresh arrived, when the filters explain an empty table.
    void setUnavailableText(const QString& text);

signals:
    // Enter or a double click on a row.
    void groupActivated(const QString& groupId);

private:
    void setUpFilters();
    void setUpTable();
    void updatePlaceholder();

    GroupListModel* m_model;
    GroupFilterProxyModel* m_proxy;
    PlaceholderTableView* m_view;
    QLineEdit* m_filterEdit;
    QComboBox* m_stateFilter;
    QString m_unavailableText;
};

} // namespace groupscope::ui
