#include "monitor/GroupInspector.h"

#include "lag/PartitionLag.h"

#include <QMap>

#include <algorithm>
#include <optional>

namespace groupscope::monitor {

using kafka::CommittedOffset;
using kafka::GroupDescription;
using kafka::LogOffsets;
using kafka::TopicPartition;

GroupSnapshot assembleGroupSnapshot(const GroupDescription& description,
                                    const QList<CommittedOffset>& committed,
                                    const QHash<TopicPartition, LogOffsets>& logOffsets) {
    GroupSnapshot snapshot;
    snapshot.description = description;
    QMap<TopicPartition, PartitionSnapshot> rows; // QMap keeps them sorted
    for (const auto& member : description.members)
        for (const TopicPartition& tp : member.assignment) {
            PartitionSnapshot& row = rows[tp];
            row.topicPartition = tp;
            row.memberId = member.memberId;
            row.clientId = member.clientId;
            row.host = member.host;
        }
    for (const CommittedOffset& commit : committed) {
        PartitionSnapshot& row = rows[commit.topicPartition];
        row.topicPartition = commit.topicPartition;
        row.committedOffset = commit.offset;
        row.commitMetadata = commit.metadata;
    }
    for (PartitionSnapshot& row : rows) {
        if (const auto found = logOffsets.constFind(row.topicPartition);
            found != logOffsets.cend()) {
            row.logStartOffset = found->logStartOffset;
            row.logEndOffset = found->logEndOffset;
            row.error = found->error;
        }
        row.lag = lag::offsetLag(row.committedOffset, row.logEndOffset);
        snapshot.partitions.append(row);
    }
    return snapshot;
}

kafka::Result<QList<GroupSnapshot>> GroupInspector::inspect(const QStringList& groupIds) {
    auto descriptions = m_admin.describeGroups(groupIds);
    if (!descriptions)
        return descriptions.error();
    // A group that could not be described because no broker answered (its coordinator
    // lookup timed out, no connection) keeps that error in its snapshot and is not asked
    // about again: the next request would wait out its whole timeout the same way. When
    // no group could be described for that reason, the cluster is unreachable and the
    // inspection fails as a whole, within one timeout.
    QStringList answered;
    std::optional<kafka::KafkaError> connectionFailure;
    for (const GroupDescription& description : descriptions.value()) {
        if (!description.error.isConnectionFailure())
            answered.append(description.groupId);
        else if (!connectionFailure)
            connectionFailure = description.error;
    }
    if (answered.isEmpty() && connectionFailure)
        return *connectionFailure;
    auto committed = m_admin.listCommittedOffsets(answered);
    if (!committed)
        return committed.error();

    QList<TopicPartition> partitions;
    for (const GroupDescription& description : descriptions.value()) {
        for (const auto& member : description.members)
            partitions.append(member.assignment);
        for (const CommittedOffset& commit : committed.value().value(description.groupId))
            partitions.append(commit.topicPartition);
    }
    auto logOffsets = m_admin.logOffsets(partitions);
    if (!logOffsets)
        return logOffsets.error();
    QHash<TopicPartition, LogOffsets> logOffsetsByPartition;
    for (const LogOffsets& offsets : logOffsets.value())
        logOffsetsByPartition.insert(offsets.topicPartition, offsets);

    QList<GroupSnapshot> snapshots;
    for (const GroupDescription& description : descriptions.value()) {
        GroupSnapshot snapshot = assembleGroupSnapshot(
            description, committed.value().value(description.groupId), logOffsetsByPartition);
        snapshot.error = description.error;
        snapshots.append(std::move(snapshot));
    }
    std::sort(snapshots.begin(), snapshots.end(),
              [](const auto& a, const auto& b) { return a.groupId() < b.groupId(); });
    return snapshots;
}

kafka::Result<ClusterSnapshot> GroupInspector::inspectAll() {
    ClusterSnapshot cluster;
    cluster.takenAt = QDateTime::currentDateTimeUtc();
    auto listings = m_admin.listGroups();
    if (!listings)
        return listings.error();
    QStringList groupIds;
    for (const auto& listing : listings.value())
        groupIds.append(listing.groupId);
    auto groups = inspect(groupIds);
    if (!groups)
        return groups.error();
    cluster.groups = std::move(groups).value();
    return cluster;
}

} // namespace groupscope::monitor
