#pragma once

#include "kafka/ConnectionProfile.h"
#include "kafka/GroupTypes.h"
#include "kafka/LogReads.h"
#include "kafka/Result.h"

#include <QHash>
#include <QList>
#include <QStringList>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>

namespace groupscope::kafka {

namespace protocol {
class ClusterConnections;
class BrokerConnection;
class Struct;
struct ApiSpec;
} // namespace protocol

// Groupscope's own client for the group coordinator's APIs, which librdkafka lacks or
// sends one group at a time: every group type (classic, consumer, share, streams) listed
// and described with its epochs, committed offsets of many groups in one OffsetFetch, and
// share groups' start offsets. Requests are batched per broker or per coordinator, never
// per group: listing costs one ListGroups per broker, describing N groups one
// FindCoordinator plus one describe per coordinator and group type.
//
// Calls block until the client's timeout and belong on a worker thread; one client is used
// by one thread at a time. A failure that concerns one group (its coordinator is down,
// the broker answered with an error for it) is in that group's result; the others are
// still answered.
class GroupProtocolClient {
public:
    using Milliseconds = std::chrono::milliseconds;

    // An error when the profile needs something this client does not speak (e.g.
    // GSSAPI): the caller then uses librdkafka's admin API (see AdminClient).
    static Result<std::unique_ptr<GroupProtocolClient>> create(const ConnectionProfile& profile,
                                                               Milliseconds timeout);
    ~GroupProtocolClient();
    GroupProtocolClient(const GroupProtocolClient&) = delete;
    GroupProtocolClient& operator=(const GroupProtocolClient&) = delete;

    void setTimeout(Milliseconds timeout) { m_timeout = timeout; }
    void setCancelFlag(const std::atomic<bool>* cancelled);

    // Every group of every type, from every broker (ListGroups v5 where the broker has it).
    Result<QList<GroupListing>> listGroups();
    // Groups that do not exist come back in state Dead with no members, as Kafka's own
    // describe reports them for classic groups.
    Result<QList<GroupDescription>> describeGroups(const QStringList& groupIds);
    // All committed offsets of each group (OffsetFetch v8+: one request per coordinator).
    // A share group commits nothing: its start offsets stand in for its positions, so
    // that lag, plans and undo treat every group type alike.
    Result<QHash<QString, QList<CommittedOffset>>> committedOffsets(const QStringList& groupIds);

    // Share groups: the start offset of each partition the group has started on.
    Result<QHash<QString, QList<ShareStartOffset>>> shareStartOffsets(const QStringList& groupIds);
    // Sets a share group's start offsets (the broker refuses while the group has members).
    Result<QList<PartitionOutcome>>
    alterShareStartOffsets(const QString& groupId,
                           const QList<QPair<TopicPartition, int64_t>>& offsets);
    // Deletes a share group's state on whole topics (DeleteShareGroupOffsets is per topic):
    // one outcome per partition the group had started on.
    Result<QList<PartitionOutcome>> deleteShareStartOffsets(const QString& groupId,
                                                            const QStringList& topics);

    // Deletes whole groups (DeleteGroups, one request per coordinator; any group type):
    // each group's outcome, no error for a deleted one. The broker refuses a group with
    // members (NON_EMPTY_GROUP) and one it does not know (GROUP_ID_NOT_FOUND).
    QHash<QString, KafkaError> deleteGroups(const QStringList& groupIds);

    // Lag detail (GroupProtocolLogReads.cpp), both batched per partition leader, leaders
    // from one Metadata request for the topics (kept, asked again when a leader moved):
    // the last stable offset of each partition (one ListOffsets READ_COMMITTED per leader),
    // and the first bytes of each log from an offset (one read_committed Fetch per leader,
    // not waiting for data). Per-partition problems are in each result's error.
    Result<QList<StableOffset>> lastStableOffsets(const QList<TopicPartition>& partitions);
    Result<QList<LogRead>> readLogs(const QList<LogReadRequest>& requests);

    // The type of a group as the last listing or describe saw it; a group not seen yet is
    // looked up with one listing. Unknown for a group that does not exist.
    GroupType typeOf(const QString& groupId);

private:
    GroupProtocolClient(std::unique_ptr<protocol::ClusterConnections> cluster,
                        Milliseconds timeout);

    using Deadline = std::chrono::steady_clock::time_point;
    Deadline deadline() const { return std::chrono::steady_clock::now() + m_timeout; }

    // Runs `perCoordinator` once per coordinator with the groups it coordinates, after one
    // batched lookup. Groups whose coordinator cannot be found, or whose coordinator says
    // it is not theirs (looked up once more), get `fail` with the reason.
    using CoordinatorBatch =
        std::function<QStringList(protocol::BrokerConnection&, const QStringList& groupIds)>;
    void forEachCoordinator(const QStringList& groupIds, Deadline until,
                            const CoordinatorBatch& perCoordinator,
                            const std::function<void(const QString&, const KafkaError&)>& fail);

    // Sends `request` to `groupId`'s coordinator (found again if it moved) and returns its
    // answer, or the answer's top-level error described as `doing` (e.g. "deleting ...").
    Result<protocol::Struct> askGroupCoordinator(const QString& groupId,
                                                 const protocol::ApiSpec& api,
                                                 const protocol::Struct& request,
                                                 const QString& doing);
    // Lists the groups once when any of `groupIds` has no known type.
    void learnTypes(const QStringList& groupIds);
    QHash<QString, QList<CommittedOffset>>
    startOffsetsAsPositions(const QStringList& groupIds, QHash<QString, KafkaError>& failures);

    // The leader of each partition of `topics`; partitions without one are left out.
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

    std::unique_ptr<protocol::ClusterConnections> m_cluster;
    QHash<TopicPartition, int32_t> m_leaders;
    Milliseconds m_timeout;
    QHash<QString, GroupType> m_knownTypes;
};

} // namespace groupscope::kafka
