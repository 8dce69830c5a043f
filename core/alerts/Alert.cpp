#include "alerts/Alert.h"

namespace groupscope::alerts {

QString alertKindName(AlertKind kind) {
    switch (kind) {
    case AlertKind::Health:
        return QStringLiteral("health");
    case AlertKind::StuckRebalance:
        return QStringLiteral("stuck rebalance");
    case AlertKind::RebalanceStorm:
        return QStringLiteral("rebalance storm");
    case AlertKind::GroupEmptied:
        return QStringLiteral("group emptied");
    case AlertKind::LagAbove:
        return QStringLiteral("lag above threshold");
    case AlertKind::TimeLagAbove:
        return QStringLiteral("time lag above threshold");
    case AlertKind::WriteOverwritten:
        return QStringLiteral("write overwritten");
    case AlertKind::WriteFinished:
        return QStringLiteral("write finished");
    }
    return QStringLiteral("health");
}

QString Alert::title() const {
    return QStringLiteral("%1 \u2014 %2: %3 \u2192 %4").arg(group, alertKindName(kind), from, to);
}

} // namespace groupscope::alerts
