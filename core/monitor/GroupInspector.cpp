#include "monitor/GroupInspector.h"

#include "lag/PartitionLag.h"

#include <QMap>
#include <QSet>

#include <algorithm>
#include <optional>
#include <thread>

namespace groupscope::monitor {

using kafka::CommittedOffset;
using kafka::GroupDescription;
using kafka::LogOffsets;
using kafka::TopicPartition;

namespace {

// A committed partition's offsets as its row shows them (assembleGroupSnapshot), before the
// rows are assembled: what the lag detail reader needs to know what to read.
kafka::PartitionPosition committedPosition(const CommittedOffset& commit,
                                           const QHash<TopicPartition, LogOffsets>& logOffsets) {
    kafka::PartitionPosition position;
    position.topicPartition = commit.topicPartition;
    position.committedOffset = commit.offset;
    if (const auto found = logOffsets.constFind(commit.topicPartition); found != logOffsets.cend())
        position.setLogRange(*found);
    return position;
}

void sortByGroupId(QList<GroupSnapshot>& groups) {
    std::sort(groups.begin(), groups.end(),
              [](const auto& a, const auto& b) { return a.groupId() < b.groupId(); });
}

} // namespace

GroupSnapshot assembleGroupSnapshot(const GroupDescription& description,
                                    const QList<CommittedOffset>& committed,
                                    const QHash<TopicPartition, LogOffsets>& logOffsets) {
    GroupSnapshot snapshot;
    snapshot.description = description;
    QMap<TopicPartition, PartitionSnapshot> rows; // QMap keeps them sorted
    for (const auto& member : description.members) {
        const PartitionOwner owner(member);
        for (const TopicPartition& tp : member.assignment) {
            PartitionSnapshot& row = rows[tp];
            row.topicPartition = tp;
            row.owner = owner;
        }
    }
    QHash<TopicPartition, int64_t> shareLags;
    for (const CommittedOffset& commit : committed) {
        PartitionSnapshot& row = rows[commit.topicPartition];
        row.topicPartition = commit.topicPartition;
        row.committedOffset = commit.offset;
        row.commitMetadata = commit.metadata;
        if (commit.shareLag >= 0)
            shareLags.insert(commit.topicPartition, commit.shareLag);
    }
    // One allocation of the final size: a poll of 10,000 groups makes 10,000 of these lists,
    // and growing them one append at a time leaves a third of each unused.
    snapshot.partitions.reserve(rows.size());
    for (PartitionSnapshot& row : rows) {
        if (const auto found = logOffsets.constFind(row.topicPartition);
            found != logOffsets.cend()) {
            row.setLogRange(*found);
            row.error = found->error;
        }
        row.lag = lag::offsetLag(row.committedOffset, row.logEndOffset);
        // A share group's lag is the broker's count of unacknowledged records: its start
        // offset trails records that were already delivered and acknowledged.
        if (const auto shareLag = shareLags.constFind(row.topicPartition);
            shareLag != shareLags.cend())
            row.lag = *shareLag;
        snapshot.partitions.append(row);
    }
    return snapshot;
}

namespace {

struct ShardResult {
    kafka::Result<QList<GroupDescription>> descriptions = QList<GroupDescription>();
    kafka::Result<QHash<QString, QList<CommittedOffset>>> committed =
        QHash<QString, QList<CommittedOffset>>();
};

// One connection's share: describe, then the committed offsets of the groups described.
// A group that could not be described because no broker answered (its coordinator lookup
// timed out, no connection) is not asked about again: the next request would wait out its
// whole timeout the same way.
ShardResult describeShard(kafka::AdminClient& admin, const QStringList& groupIds) {
    ShardResult shard;
    shard.descriptions = admin.describeGroups(groupIds);
    if (!shard.descriptions)
        return shard;
    QStringList answered;
    for (const GroupDescription& description : shard.descriptions.value())
        if (!description.error->isConnectionFailure())
            answered.append(description.groupId);
    shard.committed = admin.listCommittedOffsets(answered);
    return shard;
}

} // namespace

kafka::Result<GroupInspector::DescribedGroups>
GroupInspector::describeWithOffsets(const QStringList& groupIds) {
    // The group protocol client batches per coordinator: one connection asks for every
    // group with a fixed number of requests, where librdkafka's one request per group
    // needed several connections to hide the round trips.
    const int connections = m_admin.batchesGroupsPerCoordinator() ? 1 : m_maxConnections;
    const int wanted = int(std::clamp<qsizetype>(groupIds.size() / minGroupsPerConnection, 1,
                                                 std::max(1, connections)));
    std::vector<kafka::AdminClient*> clients{&m_admin};
    if (wanted > 1)
        for (kafka::AdminClient* extra : m_pool->clientsLike(m_admin, wanted - 1))
            clients.push_back(extra);

    // Groups dealt out in turn; the primary client's share is served on this thread.
    std::vector<QStringList> shares(clients.size());
    for (qsizetype i = 0; i < groupIds.size(); ++i)
        shares[size_t(i) % shares.size()].append(groupIds[i]);
    std::vector<ShardResult> results(clients.size());
    std::vector<std::thread> threads;
    for (size_t i = 1; i < clients.size(); ++i)
        threads.emplace_back([&, i] { results[i] = describeShard(*clients[i], shares[i]); });
    results[0] = describeShard(m_admin, shares[0]);
    for (std::thread& thread : threads)
        thread.join();

    // The first connection's failure stands for all: they ask the same cluster.
    DescribedGroups described;
    for (ShardResult& result : results) {
        if (!result.descriptions)
            return result.descriptions.error();
        if (!result.committed)
            return result.committed.error();
        described.descriptions.append(std::move(result.descriptions).value());
        // The first shard's table is taken as it is: at 100,000 groups on one connection,
        // inserting it into an empty one hashed every group id again.
        if (described.committed.isEmpty())
            described.committed = std::move(result.committed).value();
        else
            described.committed.insert(std::move(result.committed).value());
    }
    return described;
}

kafka::Result<QList<GroupSnapshot>> GroupInspector::inspect(const QStringList& groupIds) {
    QList<GroupSnapshot> snapshots;
    snapshots.reserve(groupIds.size());
    const kafka::Status inspected = inspect(
        groupIds, [&snapshots](GroupSnapshot&& group) { snapshots.append(std::move(group)); });
    if (!inspected)
        return inspected.error();
    sortByGroupId(snapshots);
    return snapshots;
}

kafka::Status GroupInspector::inspect(const QStringList& groupIds, const GroupSink& sink) {
    // Each partition's log offsets are read once per poll, by the first slice that names it,
    // so every group's lag is measured against the same log end.
    QHash<TopicPartition, LogOffsets> logOffsets;
    kafka::Status inspected = kafka::Done{};
    for (qsizetype first = 0; first < groupIds.size() && inspected; first += m_groupsPerSlice)
        inspected = inspectSlice(groupIds.mid(first, m_groupsPerSlice), logOffsets, sink);
    if (m_lagDetail)
        m_lagDetail->endFill();
    return inspected;
}

kafka::Status GroupInspector::inspectSlice(const QStringList& groupIds,
                                           QHash<TopicPartition, LogOffsets>& logOffsets,
                                           const GroupSink& sink) {
    auto described = describeWithOffsets(groupIds);
    if (!described)
        return described.error();
    const QList<GroupDescription>& descriptions = described.value().descriptions;
    const QHash<QString, QList<CommittedOffset>>& committed = described.value().committed;
    // When no group could be described because no broker answered, the cluster is
    // unreachable and the inspection fails as a whole, within one timeout.
    const bool anyAnswered =
        std::any_of(descriptions.cbegin(), descriptions.cend(),
                    [](const GroupDescription& d) { return !d.error->isConnectionFailure(); });
    if (!anyAnswered && !descriptions.isEmpty())
        return descriptions.front().error.get();

    // Each partition once: many groups read the same topics (100,000 groups can name one
    // partition 100,000 times, and sorting those copies cost half a second).
    // Each group's commits are found once, by its id, for every pass.
    QSet<TopicPartition> unread;
    static const QList<CommittedOffset> noCommits;
    std::vector<const QList<CommittedOffset>*> commitsOf;
    commitsOf.reserve(size_t(descriptions.size()));
    const auto wantLogOffsets = [&](const TopicPartition& partition) {
        if (!logOffsets.contains(partition))
            unread.insert(partition);
    };
    for (const GroupDescription& description : descriptions) {
        for (const auto& member : description.members)
            for (const TopicPartition& partition : member.assignment)
                wantLogOffsets(partition);
        const auto commits = committed.constFind(description.groupId);
        commitsOf.push_back(commits == committed.cend() ? &noCommits : &*commits);
        for (const CommittedOffset& commit : *commitsOf.back())
            wantLogOffsets(commit.topicPartition);
    }
    if (!unread.isEmpty()) {
        auto read = m_admin.logOffsets(unread.values());
        if (!read)
            return read.error();
        for (const LogOffsets& offsets : read.value())
            logOffsets.insert(offsets.topicPartition, offsets);
    }

    if (m_lagDetail) {
        for (qsizetype i = 0; i < descriptions.size(); ++i)
            for (const CommittedOffset& commit : *commitsOf[size_t(i)])
                m_lagDetail->want(descriptions[i].type, committedPosition(commit, logOffsets));
        m_lagDetail->readWanted(m_admin);
    }
    for (qsizetype i = 0; i < descriptions.size(); ++i) {
        const GroupDescription& description = descriptions[i];
        GroupSnapshot snapshot =
            assembleGroupSnapshot(description, *commitsOf[size_t(i)], logOffsets);
        snapshot.error = description.error;
        if (m_lagDetail)
            m_lagDetail->fill(snapshot);
        sink(std::move(snapshot));
    }
    return kafka::Done{};
}

kafka::Result<ClusterSnapshot> GroupInspector::inspectAll() {
    ClusterSnapshot cluster;
    cluster.takenAt = QDateTime::currentDateTimeUtc();
    const kafka::Status inspected =
        inspectAll([&cluster](GroupSnapshot&& group) { cluster.groups.append(std::move(group)); });
    if (!inspected)
        return inspected.error();
    sortByGroupId(cluster.groups);
    return cluster;
}

kafka::Status GroupInspector::inspectAll(const GroupSink& sink) {
    auto listings = m_admin.listGroups();
    if (!listings)
        return listings.error();
    QStringList groupIds;
    groupIds.reserve(listings.value().size());
    for (const auto& listing : listings.value())
        groupIds.append(listing.groupId);
    return inspect(groupIds, sink);
}

} // namespace groupscope::monitor
