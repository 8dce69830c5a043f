#pragma once

#include "kafka/AdminClient.h"
#include "monitor/GroupSnapshot.h"

namespace groupscope::monitor {

// Builds GroupSnapshots from the Admin API: describe, committed offsets and log offsets,
// each batched (one describe for all groups, concurrent offset listings, one log-offsets
// request per leader for all partitions together). Blocking: run it on a worker thread.
class GroupInspector {
public:
    explicit GroupInspector(kafka::AdminClient& admin)
        : m_admin(admin) {}

    kafka::Result<QList<GroupSnapshot>> inspect(const QStringList& groupIds);
    // Lists every group, then inspects them all.
    kafka::Result<ClusterSnapshot> inspectAll();

private:
    kafka::AdminClient& m_admin;
};

// Combines what the Admin API said about one group into its snapshot rows, the way
// kafka-consumer-groups does: assigned partitions plus partitions with commits.
GroupSnapshot
assembleGroupSnapshot(const kafka::GroupDescription& description,
                      const QList<kafka::CommittedOffset>& committed,
                      const QHash<kafka::TopicPartition, kafka::LogOffsets>& logOffsets);

} // namespace groupscope::monitor
