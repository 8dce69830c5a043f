#pragma once
// What GroupMonitor knows about one group at one moment, as a value for the CLI and the
// GUI: nothing in here refers back to the monitor or a Kafka handle.

#include "kafka/GroupTypes.h"
#include "kafka/PartitionPosition.h"
#include "lag/LagTrail.h"
#include "snapshot/HealthStatus.h"
#include "snapshot/LagDetail.h"
#include "snapshot/RebalanceHealth.h"
#include "snapshot/TimeLag.h"
#include "timeline/GroupTimeline.h"

#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace groupscope::monitor {

struct MonitoredPartition : kafka::PartitionPosition {
    lag::TimeLag timeLag;
    std::optional<double> productionRate;  // messages per second written
    std::optional<double> consumptionRate; // messages per second committed past
    lag::DrainEstimate drain;
    QString memberId;
    lag::LagDetail lagDetail; // the poll's (PartitionSnapshot::lagDetail)
};

// A commit as the offsets topic recorded it (or, polling only, as a poll first saw it).
struct CommitHistoryEntry {
    kafka::TopicPartition topicPartition;
    int64_t offset = -1; // -1 for a deletion (tombstone)
    int64_t commitTimestampMs = -1;
    QString metadata;
    bool deleted = false;
};

// Where the rebalance timeline comes from.
enum class TimelineSource {
    OffsetsTopic, // exact: generations as the coordinator stored them
    Polling,      // approximate: inferred from what polls saw
};

struct GroupMonitorSnapshot {
    QString group;
    int64_t takenAtMs = 0;
    bool exists = false; // a poll has seen the group
    kafka::GroupState state = kafka::GroupState::Unknown;
    int memberCount = 0;
    QList<kafka::MemberDescription> members; // as the last poll saw them
    QList<MonitoredPartition> partitions;    // sorted by topic, then partition
    int64_t totalLag = 0;
    lag::TimeLag maxTimeLag;
    std::optional<double> productionRate; // summed over the group's partitions
    std::optional<double> consumptionRate;
    lag::DrainEstimate drain; // of the whole group at the summed rates
    // Burrow's verdict with rebalance health joined: a stuck rebalance makes it ERR, a storm
    // WARN (the partitions' verdicts stay lag's own).
    lag::GroupHealth health;
    lag::RebalanceHealth rebalance;
    timeline::GroupTimeline timeline;
    TimelineSource timelineSource = TimelineSource::Polling;
    // Why the timeline is approximate, e.g. the offsets topic's authorisation error.
    QString timelineNote;
    QList<CommitHistoryEntry> commits; // oldest first, bounded
    // The group's lag before the monitor started, rebuilt from the offsets topic's history
    // window (GroupMonitor, LagBackfill). Empty until the replay is done and the past log
    // ends are looked up, and when the topic is not read; the same shared trail afterwards.
    lag::LagTrail lagBackfill;
    kafka::KafkaError error; // the last poll of this group failed

    bool timelineApproximate() const { return timelineSource == TimelineSource::Polling; }
};

} // namespace groupscope::monitor

Q_DECLARE_METATYPE(groupscope::monitor::GroupMonitorSnapshot)
