#include "windows/ReleaseAfterRepaint.h"

#include <QCoreApplication>
#include <QEvent>

#include <utility>

namespace groupscope::ui {

namespace {

const QEvent::Type releaseEvent = QEvent::Type(QEvent::registerEventType());

} // namespace

void ReleaseAfterRepaint::release(monitor::ClusterView replaced) {
    // One view waits at most: refreshes that come faster than the event loop gets to this
    // object's low-priority event (or several applied in a row) would otherwise hold
    // hundreds of megabytes each at 100,000 groups. An older one goes at once.
    if (m_waiting)
        releaseWaiting();
    else
        QCoreApplication::postEvent(this, new QEvent(releaseEvent), Qt::LowEventPriority);
    m_waiting = std::move(replaced);
}

void ReleaseAfterRepaint::releaseWaiting() {
    if (m_waiting)
        monitor::releaseInBackground(*std::exchange(m_waiting, std::nullopt));
}

bool ReleaseAfterRepaint::event(QEvent* event) {
    if (event->type() != releaseEvent)
        return QObject::event(event);
    releaseWaiting();
    return true;
}

} // namespace groupscope::ui
