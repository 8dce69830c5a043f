#pragma once

#include "snapshot/GroupSnapshot.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace groupscope::monitor {

// What the group list shows of one group, reduced from its GroupSnapshot on the pipeline's
// thread (ClusterViewBuilder::view()): at 10,000 groups, building these rows and formatting
// their texts cost the GUI thread more than its whole 16 ms frame. `fingerprint` hashes
// every shown field, so a refresh finds the rows that changed with one comparison each.
struct GroupSummary {
    QString groupId;
    // Equal for two summaries that show the same (a collision only delays a repaint by
    // a refresh: the cells are compared exactly once the fingerprints differ). Beside the
    // id: a refresh's diff reads only these two of each of 100,000 rows, from one cache line.
    size_t fingerprint = 0;
    kafka::GroupState state = kafka::GroupState::Unknown;
    kafka::GroupType type = kafka::GroupType::Unknown;
    int memberCount = 0;
    QStringList topics;
    QString protocolType;
    QString assignor;
    std::optional<int64_t> totalLag; // empty when no partition has a commit
    int withoutCommit = 0;           // partitions not counted in totalLag
    lag::TimeLag timeLag;
    QString timeLagText; // formatted once: the cell and the comparison both need it
    lag::GroupStatus health = lag::GroupStatus::NotFound;
    QString healthReason;
    // In the health tooltip. Shared, and null while default (no rebalance in ten minutes,
    // default thresholds: most groups): inline it was 136 of a row's 408 bytes, 14 MB in
    // each view's list at 100,000 groups.
    kafka::SharedValue<lag::RebalanceHealth> rebalance;
    // Lag's verdict before rebalance health joins `health`, and the worst partition's
    // status behind an ERR: what the alerts compare (GroupTrend's, not shown).
    lag::GroupStatus lagHealth = lag::GroupStatus::NotFound;
    lag::PartitionStatus worstPartition = lag::PartitionStatus::Ok;
    LagSparkline lagTrend;
    QString error;

    static GroupSummary of(const GroupSnapshot& group);
    size_t computeFingerprint() const;
};

// The summaries of the groups that exist (GroupSnapshot::exists()), in the groups' order.
QList<GroupSummary> summariesOf(const QList<GroupSnapshot>& groups);

} // namespace groupscope::monitor
