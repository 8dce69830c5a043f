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
#include <memory>
#include <optional>

namespace groupscope::kafka {

// A topic to create: -1 for the broker's default partition count or replication factor.
struct NewTopic {
    QString name;
    int32_t partitions = -1;
    int16_t replicationFactor = -1;
};

// Every cluster read and admin write Groupscope makes (groups, committed offsets, log
// offsets, metadata, topics, configs, deletes), as blocking calls with a deadline, over one
// connection per broker. create() picks the implementation once, when the connection
// opens: Groupscope's own protocol client (ProtocolAdminClient), which speaks every group
// type and batches per coordinator and per leader; or, for a profile it cannot speak
// (GSSAPI, PKCS#12 keystores), librdkafka's admin API (LibrdkafkaAdminClient), and then
// fallbackNote() says what that costs. Callers never ask which one they have.
//
// Each call returns within its timeout (a timeout is an error value naming the bootstrap
// servers and the last connection problem seen), so it belongs on a worker thread, never
// the GUI thread. One AdminClient is used by one thread at a time.
class AdminClient {
public:
    using Milliseconds = std::chrono::milliseconds;

    static Result<std::unique_ptr<AdminClient>> create(const ConnectionProfile& profile,
                                                       Milliseconds timeout = Milliseconds(5000));
    virtual ~AdminClient() = default;
    AdminClient(const AdminClient&) = delete;
    AdminClient& operator=(const AdminClient&) = delete;

    virtual Result<QList<GroupListing>> listGroups() = 0;
    // Groups that do not exist come back in state Dead with no members, as Kafka reports them.
    virtual Result<QList<GroupDescription>> describeGroups(const QStringList& groupIds) = 0;
    // All committed offsets of each group, keyed by group id. A share group commits
    // nothing: its start offsets stand in for its positions.
    virtual Result<QHash<QString, QList<CommittedOffset>>>
    listCommittedOffsets(const QStringList& groupIds) = 0;
    // Log start and end offsets: one ListOffsets request per partition leader for each
    // end, never one per partition. Per-partition problems are in LogOffsets::error.
    virtual Result<QList<LogOffsets>> logOffsets(const QList<TopicPartition>& partitions) = 0;
    // The partitions of the named topics (all topics when empty), from cluster metadata.
    // A topic that does not exist is an error naming it.
    Result<QList<TopicPartition>> topicPartitions(const QStringList& topics = {});
    virtual Result<QList<PartitionInfo>> describePartitions(const QStringList& topics = {}) = 0;
    // The cluster's id from Metadata: what tells two clusters apart when their bootstrap
    // lists look alike (the write journal records it, and undo checks it).
    virtual Result<QString> clusterId() = 0;
    // Every topic's name by its topic id (Kafka's text form of the Uuid): the records of
    // consumer-protocol groups name topics by id only.
    virtual Result<QHash<QString, QString>> topicNamesById() = 0;
    // For each partition, the earliest offset whose record timestamp is at or after the
    // given time (ms since the epoch), or -1 when no record is that new. One ListOffsets
    // request per leader, whatever the number of partitions.
    virtual Result<QHash<TopicPartition, int64_t>>
    offsetsForTimestamps(const QList<QPair<TopicPartition, int64_t>>& timestamps) = 0;

    // Lag detail: the last stable offset of each partition (the end a read_committed
    // consumer reads to), and the first bytes of each log from an offset. Only the own
    // protocol client reads these; the fallback answers with an error saying so.
    virtual Result<QList<StableOffset>>
    lastStableOffsets(const QList<TopicPartition>& partitions) = 0;
    virtual Result<QList<LogRead>> readLogs(const QList<LogReadRequest>& requests) = 0;

    // Writes committed offsets of a group (for a share group, its start offsets), with the
    // commit metadata given for a partition (an undo restores what was there). The broker
    // refuses groups with active members; each partition's outcome is reported.
    virtual Result<QList<PartitionOutcome>>
    alterCommittedOffsets(const QString& groupId,
                          const QList<QPair<TopicPartition, int64_t>>& offsets,
                          const QHash<TopicPartition, QString>& metadata = {}) = 0;
    // Deletes committed offsets of a group (DeleteConsumerGroupOffsets), per partition; a
    // share group's start offsets only for whole topics.
    virtual Result<QList<PartitionOutcome>>
    deleteCommittedOffsets(const QString& groupId, const QList<TopicPartition>& partitions) = 0;
    // Deletes whole groups (DeleteGroups, batched per coordinator): each group's outcome,
    // no error for a deleted one. The broker refuses a group with members (NON_EMPTY_GROUP).
    virtual Result<QHash<QString, KafkaError>> deleteGroups(const QStringList& groupIds) = 0;

    // Creates topics, waiting until the controller has; a topic that exists already is
    // not an error.
    virtual Status createTopics(const QList<NewTopic>& topics) = 0;
    // One configuration value of a broker, or nothing when the broker does not have it.
    virtual Result<std::optional<QString>> brokerConfig(int32_t brokerId, const QString& name) = 0;

    // A flag another thread may set to abandon the call in progress: waiting calls return
    // an "interrupted" error within about 100 ms instead of running to their deadline.
    virtual void setCancelFlag(const std::atomic<bool>* cancelled) { m_cancelled = cancelled; }
    const std::atomic<bool>* cancelFlag() const { return m_cancelled; }
    virtual void setTimeout(Milliseconds timeout) { m_timeout = timeout; }
    Milliseconds timeout() const { return m_timeout; }
    const ConnectionProfile& profile() const { return m_profile; }

    // Empty for the own protocol client; for the librdkafka fallback, why it is used and
    // which features that costs, in one sentence for people.
    virtual QString fallbackNote() const = 0;
    bool isFallback() const { return !fallbackNote().isEmpty(); }
    // Whether requests for many groups are batched per coordinator, so that one connection
    // serves any number of groups; the librdkafka fallback asks per group, and spreading
    // many groups over several connections (AdminClientPool) then hides the round trips.
    virtual bool batchesGroupsPerCoordinator() const = 0;

    // True once this client can no longer reach a group whose coordinator moved
    // (librdkafka caches coordinators, see LibrdkafkaAdminClient): long-lived owners
    // (pollers, monitors, task runners) call renewIfCoordinatorMoved(). The own client
    // looks a moved coordinator up again by itself.
    virtual bool coordinatorMoved() const { return false; }
    // Replaces a client that says coordinatorMoved() with a new one of the same profile,
    // timeout and cancel flag. If no new client can be created, the old one stays (its
    // other requests still work).
    static void renewIfCoordinatorMoved(std::unique_ptr<AdminClient>& client);

protected:
    AdminClient(ConnectionProfile profile, Milliseconds timeout)
        : m_profile(std::move(profile))
        , m_timeout(timeout) {}

    using Clock = std::chrono::steady_clock;
    using Deadline = Clock::time_point;
    Deadline deadline() const { return Clock::now() + m_timeout; }
    bool cancelled() const { return m_cancelled && m_cancelled->load(); }

private:
    ConnectionProfile m_profile;
    Milliseconds m_timeout;
    const std::atomic<bool>* m_cancelled = nullptr;
};

} // namespace groupscope::kafka
