#pragma once
// The parts a group's verdict is made of, shared by GroupMonitor's full snapshot of a watched
// group and its lean trend of every group, so that the list and the detail say the same.

#include "snapshot/HealthStatus.h"
#include "snapshot/RebalanceHealth.h"

#include <QString>

namespace groupscope::monitor {

// The reason of the worst partition, which explains the group's verdict ("t-0: ...").
QString worstPartitionReason(const lag::GroupHealth& health);
// Burrow's verdict of the partitions alone (HealthEvaluator's rule), before rebalance health
// joins the group's.
lag::GroupStatus lagStatus(const lag::GroupHealth& health);
lag::PartitionStatus worstPartitionStatus(const lag::GroupHealth& health);
// A stuck rebalance or a storm joins the verdict when it is worse than what lag says.
void joinRebalanceHealth(lag::GroupStatus& status, QString& reason,
                         const lag::RebalanceHealth& rebalance);

} // namespace groupscope::monitor
