#pragma once

#include <QDockWidget>

class QLabel;
class QTableView;

namespace groupscope::ui {

class AlertListModel;

// The alert panel: a dock beside the group list listing this session's alerts on watched
// groups, newest first. Enter or a double-click on an alert opens its group.
class AlertPanel : public QDockWidget {
    Q_OBJECT
public:
    AlertPanel(AlertListModel* model, QWidget* parent = nullptr);

    QTableView* view() const { return m_view; }
    // Where alerts go besides this panel, e.g. "desktop notifications (D-Bus)".
    void setNotifierDescription(const QString& description);
    void setWatchedCount(int groups);

signals:
    void groupActivated(const QString& groupId);

private:
    void updateFooter();

    AlertListModel* m_model;
    QTableView* m_view;
    QLabel* m_footer;
    QString m_notifier;
    int m_watched = 0;
};

} // namespace groupscope::ui
