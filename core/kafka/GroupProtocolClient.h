#pragma once

#include "kafka/ConnectionProfile.h"
#include "kafka/CoordinatorRequests.h"
#include "kafka/GroupTypes.h"
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
// FindCoordinator plus one describe per coordinator and group type (per 1,000 groups of a
// coordinator: CoordinatorRequests::maxGroupsPerBatch).
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
    // All committed offsets of each group (OffsetFetch v8+: one request per coordinator and
    // 1,000 of its groups).
    // A share group commits nothing: its start offsets stand in for its positions, so
    // that lag, plans and undo treat every group type alike.
    Result<QHash<QString, QList<CommittedOffset>>> committedOffsets(const QStringList& groupIds);

    // Share groups: the start offset of each partition the group has started on.
    Result<QHash<QString, QList<ShareStartOffset>>> shareStartOffsets(const QStringList& groupIds);
    // The type of a group as the last listing or describe saw it; a group not seen yet is
    // looked up with one listing. Unknown for a group that does not exist.
    GroupType typeOf(const QString& groupId);

    // The connections to the cluster, which the other requests of the same AdminClient
    // (ProtocolAdminClient) share: one connection per broker.
    protocol::ClusterConnections& connections() { return *m_cluster; }
    // Its batched requests to coordinators, which the group writes (GroupWriteClient) share.
    CoordinatorRequests& coordinators() { return m_coordinators; }

private:
    GroupProtocolClient(std::unique_ptr<protocol::ClusterConnections> cluster,
                        Milliseconds timeout);

    using Deadline = std::chrono::steady_clock::time_point;
    Deadline deadline() const { return std::chrono::steady_clock::now() + m_timeout; }

    // Lists the groups once when any of `groupIds` has no known type.
    void learnTypes(const QStringList& groupIds);
    QHash<QString, QList<CommittedOffset>>
    startOffsetsAsPositions(const QStringList& groupIds, QHash<QString, KafkaError>& failures);

    std::unique_ptr<protocol::ClusterConnections> m_cluster;
    CoordinatorRequests m_coordinators;
    Milliseconds m_timeout;
    QHash<QString, GroupType> m_knownTypes;
};

} // namespace groupscope::kafka
