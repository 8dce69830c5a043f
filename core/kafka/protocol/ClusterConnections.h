#pragma once

#include "kafka/KafkaError.h"
#include "kafka/Result.h"
#include "kafka/protocol/BrokerConnection.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QStringList>

#include <memory>

namespace groupscope::kafka::protocol {

// Where a group's coordinator is, or why it could not be found.
struct CoordinatorLookup {
    int32_t nodeId = -1;
    KafkaError error;
};

// The connections of one client to one cluster: the brokers from Metadata, one connection
// per broker opened when first needed and kept, and the coordinator of each group, found
// with batched FindCoordinator requests (v4+: all groups in one request) and remembered
// until a request says it moved.
class ClusterConnections {
public:
    using Deadline = BrokerConnection::Deadline;

    ClusterConnections(QList<BrokerAddress> bootstrap, ConnectionSecurity security);

    // The flag that cancels waits, for the connections opened from now on and the open ones.
    void setCancelFlag(const std::atomic<bool>* cancelled);
    bool cancelled() const { return m_cancelled && m_cancelled->load(); }

    // The cluster's brokers, from one Metadata request (asked again when `refresh`).
    Result<QList<BrokerAddress>> brokers(Deadline deadline, bool refresh = false);
    // The open connection to a broker of the cluster, opening it if needed.
    Result<BrokerConnection*> connection(int32_t nodeId, Deadline deadline);
    // The open connections to several brokers, for requests sent to each before any answer
    // is read (BrokerConnection::send). All are opened before any is returned: opening one
    // may ask another broker for the metadata, which must not have an answer pending then.
    struct OpenConnections {
        QHash<int32_t, BrokerConnection*> open;
        QHash<int32_t, KafkaError> failed; // why a broker's could not be opened
    };
    OpenConnections connections(const QList<int32_t>& nodeIds, Deadline deadline);
    // Any working connection: a broker's already open, else the first bootstrap address
    // that answers. An error names every address tried.
    Result<BrokerConnection*> anyConnection(Deadline deadline);

    // The coordinator of each group, in the order of `groupIds`; groups not yet known are
    // looked up in one batched request (one per group for a broker older than
    // FindCoordinator v4). A list, not a table by group id: at 100,000 groups, hashing
    // every id into a new table per request was a twentieth of describe's CPU (perf).
    QList<CoordinatorLookup> coordinators(const QStringList& groupIds, Deadline deadline);
    // Forgets a group's coordinator after NOT_COORDINATOR or COORDINATOR_NOT_AVAILABLE.
    void forgetCoordinator(const QString& groupId) { m_coordinators.remove(groupId); }
    // Forgets the coordinators of every group not in `groups` (they no longer exist).
    void keepCoordinatorsOf(const QSet<QString>& groups) {
        m_coordinators.removeIf([&](const auto& entry) { return !groups.contains(entry.key()); });
    }
    // Closes a broker's connection after it failed, so the next request opens a new one.
    void dropConnection(int32_t nodeId) { m_connections.remove(nodeId); }

    // The broker's answer for a group says to ask its coordinator again (it moved, or is
    // still loading the group).
    static bool isCoordinatorMoving(int64_t errorCode);

    // "host:port" of a broker, or its node id when not known.
    QString describeNode(int32_t nodeId) const;
    const ConnectionSecurity& security() const { return m_security; }

private:
    QList<CoordinatorLookup> lookUpCoordinators(const QStringList& groupIds, Deadline deadline);

    QList<BrokerAddress> m_bootstrap;
    ConnectionSecurity m_security;
    const std::atomic<bool>* m_cancelled = nullptr;
    QHash<int32_t, BrokerAddress> m_brokers;
    std::unique_ptr<BrokerConnection> m_bootstrapConnection;
    QHash<int32_t, std::shared_ptr<BrokerConnection>> m_connections;
    QHash<QString, int32_t> m_coordinators;
};

} // namespace groupscope::kafka::protocol
