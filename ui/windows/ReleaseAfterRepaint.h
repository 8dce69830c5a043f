#pragma once

#include "monitor/ClusterView.h"

#include <QObject>

#include <optional>

namespace groupscope::ui {

// Frees the views a window's refreshes replaced, on a pool thread (releaseInBackground),
// once the refresh that replaced them has been painted rather than while it is.
//
// Why later: at 100,000 groups a refresh of a list sorted by a value already re-sorts it on
// a pool thread while the GUI thread applies and paints it. Freeing the old view on a third
// busy thread, on a two-core machine, took the CPU from the GUI thread for milliseconds at a
// time: the open group's detail took 2 to 9 ms instead of 0.02 ms in a quarter of those
// refreshes (BenchGuiTenThousandGroups, timed per step).
//
// How: QWidget::update() posts the window's repaint (QEvent::UpdateRequest) at
// Qt::LowEventPriority, and posted events of one priority are delivered in the order they
// were posted; the release is posted at that priority after the refresh's updates.
class ReleaseAfterRepaint : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    // Frees `replaced` on a pool thread after the repaints already asked for; a view still
    // waiting from before goes at once.
    void release(monitor::ClusterView replaced);

protected:
    bool event(QEvent* event) override;

private:
    void releaseWaiting(); // the waiting view, if any, to a pool thread now

    std::optional<monitor::ClusterView> m_waiting; // with its release event posted
};

} // namespace groupscope::ui
