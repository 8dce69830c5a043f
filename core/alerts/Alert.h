#pragma once
// An alert on a watched group, as AlertDecider raises it: what changed, from what to what.

#include <QList>
#include <QMetaType>
#include <QString>

#include <cstdint>

namespace groupscope::alerts {

enum class AlertKind {
    Health,         // lag's verdict got worse: to WARN, or ERR with STOP, STALL or REWIND
    StuckRebalance, // a rebalance has lasted longer than the group's stuck threshold
    RebalanceStorm, // rebalances in the last ten minutes reached the storm threshold
    GroupEmptied,   // the last member left
    LagAbove,       // total lag rose above the group's lag threshold
    TimeLagAbove,   // time lag rose above the group's time-lag threshold
    // Not from AlertDecider: the GUI's own writes.
    WriteOverwritten, // offsets Groupscope wrote were overwritten by a consumer soon after
    WriteFinished,    // a write ended after its window was closed
};

// "health", "stuck rebalance", ...: the alert panel's "what changed".
QString alertKindName(AlertKind kind);

struct Alert {
    int64_t atMs = 0;
    QString group;
    AlertKind kind = AlertKind::Health;
    QString from;   // e.g. "OK", "3 members", "1,200"
    QString to;     // e.g. "ERR (STALL)", "empty", "25,000"
    QString detail; // why, e.g. the verdict's reason or the rebalance's cause

    // "orders-app — health: OK → ERR (STALL)", a notification's summary.
    QString title() const;
};

} // namespace groupscope::alerts

Q_DECLARE_METATYPE(groupscope::alerts::Alert)
