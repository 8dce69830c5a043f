#pragma once
// Value snapshots of consumer groups: what one refresh saw. Workers build them and hand
// them to the UI and the CLI by value; nothing in here refers back to a Kafka handle.

#include "kafka/GroupTypes.h"
#include "kafka/PartitionPosition.h"
#include "kafka/SharedError.h"
#include "kafka/SharedValue.h"
#include "snapshot/HealthStatus.h"
#include "snapshot/LagDetail.h"
#include "snapshot/LagSparkline.h"
#include "snapshot/RebalanceHealth.h"
#include "snapshot/TimeLag.h"

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QSharedData>
#include <QStringList>

#include <optional>

namespace groupscope::monitor {

// The member a partition is assigned to, as its rows show it. One per member, shared by
// the rows of its partitions: copied into every row, the three strings took 72 of a row's
// 232 bytes, 144 MB in the two polls the exporter holds at 100,000 groups of ten partitions.
class PartitionOwner {
public:
    PartitionOwner() = default; // no member: the partition is not assigned
    PartitionOwner(const QString& memberId, const QString& clientId, const QString& host);
    explicit PartitionOwner(const kafka::MemberDescription& member)
        : PartitionOwner(member.memberId, member.clientId, member.host) {}

    const QString& memberId() const;
    const QString& clientId() const;
    const QString& host() const;
    // The same member, whether or not the rows share one record.
    friend bool operator==(const PartitionOwner& a, const PartitionOwner& b) {
        return a.m_member == b.m_member || (a.memberId() == b.memberId() &&
                                            a.clientId() == b.clientId() && a.host() == b.host());
    }

private:
    struct Member : QSharedData {
        QString memberId;
        QString clientId;
        QString host;
    };
    QExplicitlySharedDataPointer<const Member> m_member; // null: no member
};

// One row of `kafka-consumer-groups --describe`: a partition the group has a commit for
// or has assigned to a member.
struct PartitionSnapshot : kafka::PartitionPosition {
    // What the consumer committed beside the offset; nearly always empty, so 8 bytes
    // rather than a QString's 24.
    kafka::SharedValue<QString> commitMetadata;
    PartitionOwner owner;     // the member the partition is assigned to, if any
    kafka::SharedError error; // e.g. the log offsets of this partition could not be read
    // What the entries after the commit are (effective lag, markers, oldest record), filled
    // in when the inspection reads lag detail (LagDetailReader); NotNeeded otherwise.
    lag::SharedLagDetail lagDetail;

    // What the health verdict judges: the effective lag where the records decided it,
    // else the plain lag. A group caught up on a transactional topic has plain lag 1 (the
    // marker) forever, which Burrow's rules read as a stalled consumer (Burrow#651).
    std::optional<int64_t> lagToConsume() const {
        return lagDetail->effectiveLag && lag ? lagDetail->effectiveLag : lag;
    }
    const QString& memberId() const { return owner.memberId(); }
    const QString& clientId() const { return owner.clientId(); }
    const QString& host() const { return owner.host(); }
};

// What the live pipeline knows of one partition beyond the poll's offsets: its time lag and
// Burrow's verdict. Kept packed, 16 bytes where the two as they are read take 32: a view
// holds one per partition of every group (32 MB at 100,000 groups of ten partitions).
class PartitionTrend {
public:
    PartitionTrend() = default;
    // `health`: none while the health window has no commit of the partition.
    PartitionTrend(const lag::TimeLag& timeLag, std::optional<lag::PartitionStatus> health)
        : m_seconds(timeLag.seconds)
        , m_timeLagStatus(uint8_t(timeLag.status))
        , m_extrapolated(timeLag.extrapolated)
        , m_health(health ? uint8_t(*health) : noHealth) {}

    lag::TimeLag timeLag() const {
        return {lag::TimeLag::Status(m_timeLagStatus), m_seconds, m_extrapolated};
    }
    std::optional<lag::PartitionStatus> health() const {
        if (m_health == noHealth)
            return std::nullopt;
        return lag::PartitionStatus(m_health);
    }

private:
    static constexpr uint8_t noHealth = 0xff;
    double m_seconds = 0;
    uint8_t m_timeLagStatus = uint8_t(lag::TimeLag::Status::Unknown);
    bool m_extrapolated = false;
    uint8_t m_health = noHealth;
};
static_assert(sizeof(PartitionTrend) == 16);

// What the live pipeline's monitor adds to a poll, for the group list: how far behind
// in time, Burrow's verdict and the recent total lag for the sparkline. Empty (Unknown,
// NotFound, no samples) from a bare GroupInspector call such as the CLI's describe.
struct GroupTrend {
    lag::TimeLag maxTimeLag; // the worst of partitions' time lags
    lag::GroupStatus health = lag::GroupStatus::NotFound;
    QString healthReason; // why the verdict, e.g. the worst partition's reason
    LagSparkline recentTotalLag;
    // One per GroupSnapshot::partitions entry, in the same order (the exporter's per-partition
    // time lag and verdict); empty from a bare GroupInspector call.
    QList<PartitionTrend> partitions;
    // Rebalances of the last ten minutes, the longest, a stuck one or a storm: for every
    // group (RebalanceTracker). A stuck rebalance makes `health` ERR, a storm WARN.
    lag::RebalanceHealth rebalance;
    // Burrow's verdict from lag alone, before rebalance health joins `health`, and the
    // worst partition's status behind it (STOP, STALL or REWIND behind an ERR).
    lag::GroupStatus lagHealth = lag::GroupStatus::NotFound;
    lag::PartitionStatus worstPartition = lag::PartitionStatus::Ok;
};

struct GroupSnapshot {
    kafka::GroupDescription description;
    QList<PartitionSnapshot> partitions; // sorted by topic, then partition
    kafka::SharedError error;            // the group could not be described or its offsets read
    // Filled in by the live pipeline (ClusterViewBuilder); empty, and 8 bytes, in a poll
    // (248 inline, 25 MB in the monitor's last polls at 100,000 groups).
    kafka::SharedValue<GroupTrend> trend;

    const QString& groupId() const { return description.groupId; }
    // Kafka reports an unknown group as Dead with no members; with no commits either it
    // does not exist for the user.
    bool exists() const;
    QStringList topics() const;
    // Sum of the partitions' lag; partitions without a commit add nothing: the views say
    // how many there are (partitionsWithoutCommit) instead of counting them as 0.
    int64_t totalLag() const;
    int partitionsWithoutCommit() const;
    // Sum of the effective lags; empty when a partition with a commit has none decided.
    std::optional<int64_t> totalEffectiveLag() const;
};

struct ClusterSnapshot {
    QDateTime takenAt;
    QList<GroupSnapshot> groups; // sorted by group id
    kafka::KafkaError error;     // the refresh failed as a whole (e.g. cluster unreachable)

    // The group of that id, found by binary search; null when it is not listed.
    const GroupSnapshot* group(const QString& groupId) const;
};

} // namespace groupscope::monitor

Q_DECLARE_METATYPE(groupscope::monitor::GroupSnapshot)
Q_DECLARE_METATYPE(groupscope::monitor::ClusterSnapshot)
