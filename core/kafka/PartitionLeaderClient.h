#pragma once

#include "kafka/GroupTypes.h"
#include "kafka/LogReads.h"
#include "kafka/Result.h"

#include <QHash>
#include <QList>
#include <QSet>

#include <chrono>
#include <functional>

namespace groupscope::kafka {

namespace protocol {
class ClusterConnections;
class BrokerConnection;
} // namespace protocol

// The own protocol client's requests to partition leaders: log offsets (ListOffsets:
// earliest, latest, by timestamp, last stable) and the first bytes of logs (Fetch), each
// batched into one request per leader whatever the number of partitions. Leaders come from
// one Metadata request for the topics, are kept, and are asked again when an answer says a
// leader moved. Calls block until the deadline given to the call; one thread at a time.
class PartitionLeaderClient {
public:
    using Milliseconds = std::chrono::milliseconds;

    PartitionLeaderClient(protocol::ClusterConnections& cluster, Milliseconds timeout)
        : m_cluster(cluster)
        , m_timeout(timeout) {}

    void setTimeout(Milliseconds timeout) { m_timeout = timeout; }
    void setCancelFlag(const std::atomic<bool>* cancelled) { m_cancelled = cancelled; }

    // Log start and end offsets as Kafka's own tool reports them (read_uncommitted: the
    // end is the high watermark): one ListOffsets per leader for each end.
    Result<QList<LogOffsets>> logOffsets(const QList<TopicPartition>& partitions);
    // The earliest offset at or after each timestamp, -1 when no record is that new.
    Result<QHash<TopicPartition, int64_t>>
    offsetsForTimestamps(const QList<QPair<TopicPartition, int64_t>>& timestamps);
    // The last stable offset of each partition (ListOffsets READ_COMMITTED, latest).
    Result<QList<StableOffset>> lastStableOffsets(const QList<TopicPartition>& partitions);
    // The first bytes of each log from an offset (one read_committed Fetch per leader, not
    // waiting for data).
    Result<QList<LogRead>> readLogs(const QList<LogReadRequest>& requests);

private:
    using Deadline = std::chrono::steady_clock::time_point;
    Deadline deadline() const { return std::chrono::steady_clock::now() + m_timeout; }

    // An offset one ListOffsets answered for a partition, or why not.
    struct ListedOffset {
        int64_t offset = -1;
        KafkaError error;
    };
    // ListOffsets for each partition's timestamp (-2 earliest, -1 latest) at an isolation
    // level (0 read_uncommitted, 1 read_committed). Partitions whose leader is moving are
    // asked again until the deadline, as a leader election takes a moment.
    Result<QHash<TopicPartition, ListedOffset>>
    listOffsets(const QList<QPair<TopicPartition, int64_t>>& timestamps, int8_t isolation,
                Deadline until);
    // One round of listOffsets: into `found`, returning the partitions to ask again.
    Result<QList<TopicPartition>> listOffsetsOnce(const QHash<TopicPartition, int64_t>& asked,
                                                  const QList<TopicPartition>& partitions,
                                                  int8_t isolation, Deadline until,
                                                  QHash<TopicPartition, ListedOffset>& found);

    // The leader of each partition; partitions without one are left out.
    Result<QHash<TopicPartition, int32_t>> leadersOf(const QList<TopicPartition>& partitions,
                                                     Deadline until, bool refresh);
    // Sends `perLeader` once per leader with its partitions; partitions whose leader moved
    // (the answer said so) are sent once more after a metadata refresh. `perLeader` returns
    // the partitions that need that retry; `fail` takes the ones without a leader.
    using LeaderBatch = std::function<QList<TopicPartition>(
        protocol::BrokerConnection&, const QList<TopicPartition>& partitions)>;
    Status forEachLeader(const QList<TopicPartition>& partitions, Deadline until,
                         const LeaderBatch& perLeader,
                         const std::function<void(const TopicPartition&, const KafkaError&)>& fail);

    protocol::ClusterConnections& m_cluster;
    Milliseconds m_timeout;
    const std::atomic<bool>* m_cancelled = nullptr;
    QHash<TopicPartition, int32_t> m_leaders;
    QSet<TopicPartition> m_unknown; // partitions the last metadata said do not exist
};

} // namespace groupscope::kafka
