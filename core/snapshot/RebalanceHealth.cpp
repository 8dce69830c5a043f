#include "snapshot/RebalanceHealth.h"

namespace groupscope::lag {

namespace {

// Rebalances last seconds to minutes. (lag/DurationText says the same for every duration,
// but snapshot/ sits below lag/ and does not include it.)
QString durationText(double seconds) {
    if (seconds < 60)
        return QStringLiteral("%1 s").arg(seconds, 0, 'f', seconds < 10 ? 1 : 0);
    const qint64 whole = qint64(seconds);
    return QStringLiteral("%1m %2s").arg(whole / 60).arg(whole % 60, 2, 10, QLatin1Char('0'));
}

QString thresholdText(const RebalanceHealth& health) {
    const QString duration = durationText(health.stuckAfterSeconds);
    switch (health.stuckAfterSource) {
    case StuckThresholdSource::GroupTimeouts:
        return QStringLiteral("the group's %1 timeout").arg(duration);
    case StuckThresholdSource::GroupSetting:
        return QStringLiteral("%1, this group's setting").arg(duration);
    case StuckThresholdSource::Default:
        break;
    }
    return QStringLiteral("%1, the default").arg(duration);
}

QString members(const QStringList& ids) {
    return ids.size() == 1 ? QStringLiteral("member %1").arg(ids.first())
                           : QStringLiteral("members %1").arg(ids.join(QStringLiteral(", ")));
}

} // namespace

GroupStatus RebalanceHealth::status() const {
    if (stuckRebalance)
        return GroupStatus::Error;
    if (rebalanceStorm)
        return GroupStatus::Warning;
    return GroupStatus::Ok;
}

QString RebalanceHealth::cause() const {
    QStringList parts;
    if (!joinedMembers.isEmpty())
        parts.append(members(joinedMembers) + QStringLiteral(" joined"));
    if (!timedOutMembers.isEmpty())
        parts.append(members(timedOutMembers) +
                     QStringLiteral(" timed out (no rejoin within the rebalance timeout)"));
    if (!leftMembers.isEmpty())
        parts.append(members(leftMembers) + QStringLiteral(" left"));
    return parts.join(QStringLiteral("; "));
}

QString RebalanceHealth::reason() const {
    if (stuckRebalance)
        return QStringLiteral("rebalance stuck for %1 (longer than %2)")
            .arg(durationText(currentRebalanceSeconds), thresholdText(*this));
    if (rebalanceStorm)
        return QStringLiteral("rebalance storm: %1 rebalances in 10 min (threshold %2)")
            .arg(rebalancesLast10Min)
            .arg(stormThreshold);
    return {};
}

QString RebalanceHealth::summary() const {
    QStringList parts;
    if (rebalancing)
        parts.append(
            stuckRebalance
                ? reason()
                : QStringLiteral("rebalancing for %1").arg(durationText(currentRebalanceSeconds)));
    if (rebalancesLast10Min == 0)
        parts.append(QStringLiteral("no rebalance in 10 min"));
    else
        parts.append(QStringLiteral("%1 in 10 min%2, longest %3")
                         .arg(rebalancesLast10Min == 1
                                  ? QStringLiteral("1 rebalance")
                                  : QStringLiteral("%1 rebalances").arg(rebalancesLast10Min),
                              rebalanceStorm ? QStringLiteral(" (a storm)") : QString(),
                              durationText(longestRebalanceSeconds)));
    if (const QString why = cause(); !why.isEmpty())
        parts.append(QStringLiteral("cause: ") + why);
    return parts.join(QStringLiteral("; "));
}

} // namespace groupscope::lag
