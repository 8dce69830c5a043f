#pragma once

#include "kafka/AdminClient.h"
#include "kafka/AdminClientPool.h"
#include "monitor/LagDetailReader.h"
#include "snapshot/GroupSnapshot.h"

#include <algorithm>
#include <functional>

namespace groupscope::monitor {

// Builds GroupSnapshots from the Admin API: describe, committed offsets and log offsets,
// each batched (one describe for all groups, concurrent offset listings, one log-offsets
// request per leader for all partitions together). Many groups are spread over several
// connections (see AdminClientPool), each served by its own thread. Blocking: run it on a
// worker thread.
class GroupInspector {
public:
    // `pool` keeps the extra connections for later calls (a poller's); without one they are
    // made for each call that needs them and closed when the inspector goes.
    explicit GroupInspector(kafka::AdminClient& admin, kafka::AdminClientPool* pool = nullptr)
        : m_admin(admin)
        , m_pool(pool ? pool : &m_ownPool) {}

    // Takes each group's snapshot as soon as its rows are assembled.
    using GroupSink = std::function<void(GroupSnapshot&&)>;

    // The groups' snapshots, sorted by group id.
    kafka::Result<QList<GroupSnapshot>> inspect(const QStringList& groupIds);
    // Hands each group to `sink` as soon as its rows are assembled, in no set order. A
    // poller that replaces each group's rows as they come never holds two polls' rows: at
    // 100,000 groups of ten partitions a poll's rows are 120 MB. The groups are inspected
    // a slice at a time (groupsPerSlice), so only one slice's descriptions and commits are
    // held (at 100,000 groups all of them were 108 MB besides the rows). Within a slice
    // every request is answered before its first group is assembled; when a slice fails,
    // the sink has seen the slices before it and none after.
    kafka::Status inspect(const QStringList& groupIds, const GroupSink& sink);
    // Lists every group, then inspects them all.
    kafka::Result<ClusterSnapshot> inspectAll();
    kafka::Status inspectAll(const GroupSink& sink);

    // At most this many connections describe groups at once (the primary one included),
    // and each takes at least minGroupsPerConnection groups: below that, setting up a
    // connection costs more than it saves. Four measured best for 500 groups on a local
    // broker (BenchDescribeAllGroups); more only add threads competing for the cores.
    static constexpr int defaultMaxConnections = 4;
    static constexpr int minGroupsPerConnection = 50;
    void setMaxConnections(int connections) { m_maxConnections = connections; }
    // Groups described per slice of an inspection. Each slice costs a describe and an
    // offset fetch per coordinator, and a log offsets request per leader for the partitions
    // no slice before it named; 10,000 keeps that to a few requests per slice while a
    // slice's descriptions and commits stay near 10 MB.
    static constexpr qsizetype defaultGroupsPerSlice = 10000;
    void setGroupsPerSlice(qsizetype groups) { m_groupsPerSlice = std::max<qsizetype>(1, groups); }
    // Fills each partition's lag detail through `reader` (kept by the caller across polls:
    // its kept reads make the next poll cheap); none by default.
    void setLagDetailReader(LagDetailReader* reader) { m_lagDetail = reader; }

private:
    struct DescribedGroups {
        QList<kafka::GroupDescription> descriptions;
        QHash<QString, QList<kafka::CommittedOffset>> committed;
    };
    // Describes the groups and lists their committed offsets, spread over connections.
    kafka::Result<DescribedGroups> describeWithOffsets(const QStringList& groupIds);
    // One slice of inspect(): `logOffsets` holds what the slices before it read.
    kafka::Status inspectSlice(const QStringList& groupIds,
                               QHash<kafka::TopicPartition, kafka::LogOffsets>& logOffsets,
                               const GroupSink& sink);

    kafka::AdminClient& m_admin;
    kafka::AdminClientPool* m_pool;
    kafka::AdminClientPool m_ownPool;
    int m_maxConnections = defaultMaxConnections;
    qsizetype m_groupsPerSlice = defaultGroupsPerSlice;
    LagDetailReader* m_lagDetail = nullptr;
};

// Combines what the Admin API said about one group into its snapshot rows, the way
// kafka-consumer-groups does: assigned partitions plus partitions with commits.
GroupSnapshot
assembleGroupSnapshot(const kafka::GroupDescription& description,
                      const QList<kafka::CommittedOffset>& committed,
                      const QHash<kafka::TopicPartition, kafka::LogOffsets>& logOffsets);

} // namespace groupscope::monitor
