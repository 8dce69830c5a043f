#include "monitor/GroupVerdictParts.h"

#include <algorithm>

namespace groupscope::monitor {

// The reason of the worst partition explains the group's verdict.
QString worstPartitionReason(const lag::GroupHealth& health) {
    const lag::PartitionHealth* worst = nullptr;
    for (const lag::PartitionHealth& partition : health.partitions)
        if (!worst || partition.status > worst->status)
            worst = &partition;
    if (!worst || worst->status == lag::PartitionStatus::Ok)
        return {};
    // Names the partition, its verdict and where it stands, so a list's tooltip says which
    // record a stuck group is on: "orders:3 is STALL at committed offset 40: ...".
    const QString at =
        worst->end ? QStringLiteral(" at committed offset %1").arg(worst->end->offset) : QString();
    return QStringLiteral("%1 is %2%3: %4")
        .arg(worst->topicPartition.toString(), lag::partitionStatusName(worst->status), at,
             worst->reason);
}

// Burrow's verdict of the partitions alone (HealthEvaluator's rule), before rebalance health
// joins the group's.
lag::GroupStatus lagStatus(const lag::GroupHealth& health) {
    if (health.partitions.isEmpty())
        return lag::GroupStatus::NotFound;
    lag::PartitionStatus worst = lag::PartitionStatus::Ok;
    for (const lag::PartitionHealth& partition : health.partitions)
        worst = std::max(worst, partition.status);
    if (worst == lag::PartitionStatus::Ok)
        return lag::GroupStatus::Ok;
    return worst == lag::PartitionStatus::Warning ? lag::GroupStatus::Warning
                                                  : lag::GroupStatus::Error;
}

lag::PartitionStatus worstPartitionStatus(const lag::GroupHealth& health) {
    lag::PartitionStatus worst = lag::PartitionStatus::Ok;
    for (const lag::PartitionHealth& partition : health.partitions)
        worst = std::max(worst, partition.status);
    return worst;
}

// A stuck rebalance or a storm joins the verdict when it is worse than what lag says.
void joinRebalanceHealth(lag::GroupStatus& status, QString& reason,
                         const lag::RebalanceHealth& rebalance) {
    if (rebalance.status() <= status)
        return;
    status = rebalance.status();
    reason = rebalance.reason();
}

} // namespace groupscope::monitor
