#pragma once
// Rebalance health: how often a group rebalanced lately, how long its rebalances took, and
// whether one is stuck, as a value the group list, the detail, the CLI and the exporter
// read (GroupTrend::rebalance, GroupHealth::rebalance). RebalanceTracker computes it.

#include "snapshot/HealthStatus.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace groupscope::lag {

// When rebalancing counts as a storm or as stuck. The defaults are documented in the
// README ("Rebalance health"); the GUI lets the user change both per group.
struct RebalanceThresholds {
    static constexpr int defaultStormRebalances = 5;
    // Kafka's Java consumer's session.timeout.ms since Kafka 3.0: what a group's members
    // most likely use when the offsets topic does not say.
    static constexpr int64_t defaultStuckAfterMs = 45'000;

    // A storm: at least this many rebalances within the last ten minutes.
    int stormRebalances = defaultStormRebalances;
    // Stuck: rebalancing for longer than this. Unset: the group's own timeouts (the
    // shorter of its session and rebalance timeout, from the offsets topic's GroupMetadata),
    // else defaultStuckAfterMs.
    std::optional<int64_t> stuckAfterMs;

    friend bool operator==(const RebalanceThresholds&, const RebalanceThresholds&) = default;
};

// Where the stuck threshold came from, for the tooltip.
enum class StuckThresholdSource { Default, GroupTimeouts, GroupSetting };

struct RebalanceHealth {
    static constexpr int64_t windowMs = 600'000; // "per 10 minutes"

    // Rebalances that began (or were still going on) within the last ten minutes. Each new
    // generation (classic groups, from the offsets topic) or group epoch (consumer groups)
    // is one; a rebalance that polls saw but whose generation is not known yet counts once.
    int rebalancesLast10Min = 0;
    // The longest time spent in a rebalancing state (PreparingRebalance, CompletingRebalance,
    // Assigning, Reconciling) by a rebalance within the last ten minutes, the current one
    // included. Polls see a state up to one interval late, so it is approximate.
    double longestRebalanceSeconds = 0;
    // Rebalancing now, and for how long.
    bool rebalancing = false;
    double currentRebalanceSeconds = 0;
    // The current rebalance has lasted longer than stuckAfterSeconds.
    bool stuckRebalance = false;
    // rebalancesLast10Min reached stormThreshold.
    bool rebalanceStorm = false;
    double stuckAfterSeconds = RebalanceThresholds::defaultStuckAfterMs / 1000.0;
    StuckThresholdSource stuckAfterSource = StuckThresholdSource::Default;
    int stormThreshold = RebalanceThresholds::defaultStormRebalances;
    // The latest rebalance's cause: members that joined, left, or left because they did not
    // rejoin within their rebalance timeout. Member ids (with the client id where known).
    QStringList joinedMembers;
    QStringList leftMembers;
    QStringList timedOutMembers;
    // The cause comes from the offsets topic (exact), not from comparing polls.
    bool causeExact = false;

    friend bool operator==(const RebalanceHealth&, const RebalanceHealth&) = default;

    // ERR when stuck, WARN in a storm, OK otherwise: what joins the health verdict.
    GroupStatus status() const;
    // "member m-1 joined; member m-2 left" (empty when unknown).
    QString cause() const;
    // One line for tooltips and the CLI, e.g. "rebalancing for 12 s: stuck (longer than
    // the group's 10 s session timeout); 3 rebalances in 10 min, longest 12 s; cause:
    // member m-2 joined".
    QString summary() const;
    // Why the verdict is not OK because of rebalances; empty when it is OK.
    QString reason() const;
};

} // namespace groupscope::lag
