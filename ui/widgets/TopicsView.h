#pragma once

#include "monitor/TopicSummary.h"

#include <QWidget>

class QLineEdit;
class QSortFilterProxyModel;

namespace groupscope::ui {

class PlaceholderTableView;
class TopicConsumerModel;

// The Topics tab beside the group list: every topic a listed group reads, with the groups
// that commit on it, each with its lag and time lag on that topic; a filter on topic or
// group names; Enter or a double click on a row opens its group. It follows the refreshes
// only while it is on screen (a hidden tab keeps just the latest rows), so at 10,000
// groups the group list pays nothing for it.
class TopicsView : public QWidget {
    Q_OBJECT
public:
    explicit TopicsView(QWidget* parent = nullptr);

    void applyConsumers(const QList<monitor::TopicConsumer>& rows);
    TopicConsumerModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    PlaceholderTableView* view() const { return m_view; }
    QLineEdit* filterEdit() const { return m_filterEdit; }

signals:
    void groupActivated(const QString& groupId);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void catchUp();
    void updatePlaceholder();

    TopicConsumerModel* m_model;
    QSortFilterProxyModel* m_proxy;
    PlaceholderTableView* m_view;
    QLineEdit* m_filterEdit;
    QList<monitor::TopicConsumer> m_latest;
    bool m_behind = false; // m_latest is newer than what the model shows
};

} // namespace groupscope::ui
