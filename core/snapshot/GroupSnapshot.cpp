#include "snapshot/GroupSnapshot.h"

#include <algorithm>

namespace groupscope::monitor {

PartitionOwner::PartitionOwner(const QString& memberId, const QString& clientId,
                               const QString& host)
    : m_member(new Member{{}, memberId, clientId, host}) {}

namespace {
const QString noMember;
} // namespace

const QString& PartitionOwner::memberId() const {
    return m_member ? m_member->memberId : noMember;
}

const QString& PartitionOwner::clientId() const {
    return m_member ? m_member->clientId : noMember;
}

const QString& PartitionOwner::host() const {
    return m_member ? m_member->host : noMember;
}

bool GroupSnapshot::exists() const {
    return !(description.state == kafka::GroupState::Dead && description.members.isEmpty() &&
             partitions.isEmpty());
}

QStringList GroupSnapshot::topics() const {
    QStringList names;
    for (const PartitionSnapshot& partition : partitions)
        if (names.isEmpty() || names.last() != partition.topicPartition.topic)
            names.append(partition.topicPartition.topic);
    names.removeDuplicates();
    return names;
}

int64_t GroupSnapshot::totalLag() const {
    int64_t total = 0;
    for (const PartitionSnapshot& partition : partitions)
        total += partition.lag.value_or(0);
    return total;
}

int GroupSnapshot::partitionsWithoutCommit() const {
    int count = 0;
    for (const PartitionSnapshot& partition : partitions)
        count += partition.committedOffset ? 0 : 1;
    return count;
}

std::optional<int64_t> GroupSnapshot::totalEffectiveLag() const {
    int64_t total = 0;
    for (const PartitionSnapshot& partition : partitions) {
        if (!partition.committedOffset)
            continue;
        if (!partition.lagDetail->effectiveLag)
            return std::nullopt;
        total += *partition.lagDetail->effectiveLag;
    }
    return total;
}

const GroupSnapshot* ClusterSnapshot::group(const QString& groupId) const {
    const auto found = std::lower_bound(
        groups.cbegin(), groups.cend(), groupId,
        [](const GroupSnapshot& group, const QString& id) { return group.groupId() < id; });
    return found != groups.cend() && found->groupId() == groupId ? &*found : nullptr;
}

} // namespace groupscope::monitor
