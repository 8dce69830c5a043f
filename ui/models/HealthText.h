#pragma once

#include "snapshot/RebalanceHealth.h"

#include <QString>

namespace groupscope::ui {

// The health verdict's tooltip, the same in the group list and the detail: why the verdict
// (its first line, e.g. "orders-0: lag did not decrease across the window"), then the
// group's rebalance health when it rebalanced within ten minutes or is rebalancing.
QString healthToolTip(lag::GroupStatus health, const QString& healthReason,
                      const lag::RebalanceHealth& rebalance);

// What the detail's header line says about rebalances: "rebalancing 12 s (stuck)",
// "3 rebalances in 10 min (storm)", or nothing when the group is quiet.
QString rebalanceHeaderText(const lag::RebalanceHealth& rebalance);

} // namespace groupscope::ui
