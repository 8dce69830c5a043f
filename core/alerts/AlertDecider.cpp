#include "alerts/AlertDecider.h"

#include <QLocale>

#include <algorithm>

namespace groupscope::alerts {

namespace {

int severity(lag::GroupStatus status) {
    switch (status) {
    case lag::GroupStatus::NotFound:
    case lag::GroupStatus::Ok:
        return 0;
    case lag::GroupStatus::Warning:
        return 1;
    case lag::GroupStatus::Error:
        return 2;
    }
    return 0;
}

QString memberCountText(int members) {
    return members == 1 ? QStringLiteral("1 member") : QStringLiteral("%1 members").arg(members);
}

// "25,000": one spelling whatever the user's locale, as in the panel and the CLI.
QString number(int64_t value) {
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(qlonglong(value));
}

QString seconds(double value) {
    return QStringLiteral("%1 s").arg(value, 0, 'f', value < 10 ? 1 : 0);
}

} // namespace

QString AlertDecider::verdictLabel(lag::GroupStatus lagHealth,
                                   lag::PartitionStatus worstPartition) {
    switch (lagHealth) {
    case lag::GroupStatus::NotFound:
        return QStringLiteral("\u2013");
    case lag::GroupStatus::Ok:
    case lag::GroupStatus::Warning:
        return lag::groupStatusName(lagHealth);
    case lag::GroupStatus::Error:
        break;
    }
    return QStringLiteral("ERR (%1)").arg(lag::partitionStatusName(worstPartition));
}

AlertDecider::Observation AlertDecider::observe(const monitor::GroupSummary& group) {
    Observation observation;
    observation.lagHealth = group.lagHealth;
    observation.worstPartition = group.worstPartition;
    observation.verdict = verdictLabel(group.lagHealth, group.worstPartition);
    observation.stuck = group.rebalance->stuckRebalance;
    observation.storm = group.rebalance->rebalanceStorm;
    observation.members = group.memberCount;
    // A list row is a group that exists (GroupSnapshot::exists()).
    observation.empty = observation.members == 0 && group.state != kafka::GroupState::Dead;
    observation.totalLag = group.totalLag;
    if (group.timeLag.isKnown())
        observation.timeLagSeconds = group.timeLag.seconds;
    return observation;
}

QList<Alert> AlertDecider::observe(const QList<monitor::GroupSummary>& groups,
                                   const QSet<QString>& watched, int64_t atMs) {
    for (auto it = m_previous.begin(); it != m_previous.end();)
        it = watched.contains(it.key()) ? std::next(it) : m_previous.erase(it);
    // The watched groups are looked up in the list's (sorted) rows, not every row in the
    // watched set: a user watches a few of what may be 100,000 groups, and this runs on the
    // GUI thread at every refresh. In order of group id, as the list shows.
    QStringList watchedInOrder(watched.cbegin(), watched.cend());
    watchedInOrder.sort();
    QList<Alert> alerts;
    for (const QString& groupId : std::as_const(watchedInOrder)) {
        const auto listed = std::lower_bound(
            groups.cbegin(), groups.cend(), groupId,
            [](const monitor::GroupSummary& row, const QString& id) { return row.groupId < id; });
        if (listed == groups.cend() || listed->groupId != groupId || !listed->error.isEmpty())
            continue;
        const monitor::GroupSummary& group = *listed;
        Observation now = observe(group);
        const auto previous = m_previous.find(groupId);
        if (previous == m_previous.end()) {
            m_previous.insert(groupId, std::move(now)); // the baseline
            continue;
        }
        compare(*previous, now, group, atMs, alerts);
        *previous = std::move(now);
    }
    return alerts;
}

void AlertDecider::compare(const Observation& before, const Observation& now,
                           const monitor::GroupSummary& summary, int64_t atMs,
                           QList<Alert>& alerts) {
    const QString& group = summary.groupId;
    const lag::RebalanceHealth& rebalance = summary.rebalance;
    const AlertThresholds thresholds = m_thresholds.value(group);
    // A verdict appearing for the first time is the baseline too.
    const bool bothJudged = before.lagHealth != lag::GroupStatus::NotFound &&
                            now.lagHealth != lag::GroupStatus::NotFound;
    const int rise = severity(now.lagHealth) - severity(before.lagHealth);
    const bool otherError = now.lagHealth == lag::GroupStatus::Error &&
                            before.lagHealth == lag::GroupStatus::Error &&
                            now.worstPartition != before.worstPartition;
    if (bothJudged && (rise > 0 || otherError))
        raise({atMs, group, AlertKind::Health, before.verdict, now.verdict, summary.healthReason},
              alerts);
    if (now.stuck && !before.stuck)
        raise({atMs, group, AlertKind::StuckRebalance, QStringLiteral("rebalancing"),
               QStringLiteral("stuck for %1").arg(seconds(rebalance.currentRebalanceSeconds)),
               rebalance.summary()},
              alerts);
    if (now.storm && !before.storm)
        raise({atMs, group, AlertKind::RebalanceStorm,
               QStringLiteral("< %1 in 10 min").arg(rebalance.stormThreshold),
               QStringLiteral("%1 in 10 min").arg(rebalance.rebalancesLast10Min),
               rebalance.summary()},
              alerts);
    if (now.empty && before.members > 0)
        raise({atMs, group, AlertKind::GroupEmptied, memberCountText(before.members),
               QStringLiteral("empty"), rebalance.cause()},
              alerts);
    if (const auto limit = thresholds.maxTotalLag; limit && before.totalLag && now.totalLag &&
                                                   *before.totalLag <= *limit &&
                                                   *now.totalLag > *limit)
        raise({atMs, group, AlertKind::LagAbove, number(*before.totalLag), number(*now.totalLag),
               QStringLiteral("threshold %1").arg(number(*limit))},
              alerts);
    if (const auto limit = thresholds.maxTimeLagSeconds;
        limit && before.timeLagSeconds && now.timeLagSeconds && *before.timeLagSeconds <= *limit &&
        *now.timeLagSeconds > *limit)
        raise({atMs, group, AlertKind::TimeLagAbove, seconds(*before.timeLagSeconds),
               seconds(*now.timeLagSeconds), QStringLiteral("threshold %1").arg(seconds(*limit))},
              alerts);
}

void AlertDecider::raise(Alert alert, QList<Alert>& alerts) {
    // A health alert is the same one only with the same new verdict; the others are one
    // condition each, whatever their figures.
    const QString key = QStringLiteral("%1\n%2\n%3")
                            .arg(alert.group)
                            .arg(int(alert.kind))
                            .arg(alert.kind == AlertKind::Health ? alert.to : QString());
    const auto last = m_lastRaised.constFind(key);
    if (last != m_lastRaised.cend() && alert.atMs - *last < m_options.repeatAfterMs)
        return;
    m_lastRaised.insert(key, alert.atMs);
    alerts.append(std::move(alert));
}

void AlertDecider::reset() {
    m_previous.clear();
    m_lastRaised.clear();
}

} // namespace groupscope::alerts
