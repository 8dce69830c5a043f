#include "monitor/GroupSummary.h"

#include "lag/DurationText.h"

#include <QHashFunctions>

#include <algorithm>
#include <cmath>

namespace groupscope::monitor {

GroupSummary GroupSummary::of(const GroupSnapshot& group) {
    GroupSummary summary;
    summary.groupId = group.groupId();
    summary.state = group.description.state;
    summary.type = group.description.type;
    summary.memberCount = int(group.description.members.size());
    summary.topics = group.topics();
    summary.protocolType = group.description.protocolType;
    summary.assignor = group.description.partitionAssignor;
    const bool anyLag =
        std::any_of(group.partitions.cbegin(), group.partitions.cend(),
                    [](const auto& partition) { return partition.lag.has_value(); });
    if (anyLag)
        summary.totalLag = group.totalLag();
    summary.withoutCommit = group.partitionsWithoutCommit();
    if (group.error)
        summary.error = group.error.toString();
    summary.timeLag = group.trend->maxTimeLag;
    summary.timeLagText = lag::timeLagText(summary.timeLag);
    summary.health = group.trend->health;
    summary.healthReason = group.trend->healthReason;
    summary.rebalance = group.trend->rebalance;
    summary.lagHealth = group.trend->lagHealth;
    summary.worstPartition = group.trend->worstPartition;
    summary.lagTrend = group.trend->recentTotalLag;
    summary.fingerprint = summary.computeFingerprint();
    return summary;
}

size_t GroupSummary::computeFingerprint() const {
    // Seconds are hashed as the whole seconds the tooltip shows: a change below that is
    // no change on screen.
    const auto seconds = [](double value) { return qlonglong(std::llround(value)); };
    QtPrivate::QHashCombine combine;
    size_t seed = 0;
    seed = combine(seed, groupId);
    seed = combine(seed, int(state));
    seed = combine(seed, int(type));
    seed = combine(seed, memberCount);
    seed = combine(seed, topics.size());
    for (const QString& topic : topics)
        seed = combine(seed, topic);
    seed = combine(seed, protocolType);
    seed = combine(seed, assignor);
    seed = combine(seed, totalLag.has_value());
    seed = combine(seed, qlonglong(totalLag.value_or(0)));
    seed = combine(seed, withoutCommit);
    seed = combine(seed, timeLagText);
    seed = combine(seed, int(timeLag.status));
    seed = combine(seed, int(health));
    seed = combine(seed, healthReason);
    seed = combine(seed, rebalance->rebalancesLast10Min);
    seed = combine(seed, seconds(rebalance->longestRebalanceSeconds));
    seed = combine(seed, rebalance->rebalancing);
    seed = combine(seed, seconds(rebalance->currentRebalanceSeconds));
    seed = combine(seed, rebalance->stuckRebalance);
    seed = combine(seed, rebalance->rebalanceStorm);
    seed = combine(seed, seconds(rebalance->stuckAfterSeconds));
    seed = combine(seed, int(rebalance->stuckAfterSource));
    seed = combine(seed, rebalance->stormThreshold);
    for (const QStringList* members :
         {&rebalance->joinedMembers, &rebalance->leftMembers, &rebalance->timedOutMembers}) {
        seed = combine(seed, members->size());
        for (const QString& member : *members)
            seed = combine(seed, member);
    }
    seed = combine(seed, lagTrend.size());
    for (float sample : lagTrend)
        seed = combine(seed, sample);
    seed = combine(seed, error);
    return seed;
}

QList<GroupSummary> summariesOf(const QList<GroupSnapshot>& groups) {
    QList<GroupSummary> summaries;
    summaries.reserve(groups.size());
    for (const GroupSnapshot& group : groups)
        if (group.exists())
            summaries.append(GroupSummary::of(group));
    return summaries;
}

} // namespace groupscope::monitor
