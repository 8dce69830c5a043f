#pragma once
// What the user set for one watched group: the thresholds its alerts (and its rebalance
// verdict) use. Unset thresholds raise no alert of their own kind (lag, time lag) or use
// the defaults (rebalance storm and stuck time, see lag::RebalanceThresholds).

#include "snapshot/RebalanceHealth.h"

#include <cstdint>
#include <optional>

namespace groupscope::alerts {

struct AlertThresholds {
    std::optional<int64_t> maxTotalLag;      // alert once the total lag exceeds it
    std::optional<double> maxTimeLagSeconds; // alert once the time lag exceeds it
    lag::RebalanceThresholds rebalance;      // these feed the verdict itself

    bool isDefault() const { return *this == AlertThresholds(); }
    friend bool operator==(const AlertThresholds&, const AlertThresholds&) = default;
};

} // namespace groupscope::alerts
