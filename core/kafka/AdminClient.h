#pragma once

#include "kafka/ConnectionProfile.h"
#include "kafka/GroupProtocolClient.h"
#include "kafka/GroupTypes.h"
#include "kafka/RdKafkaHandles.h"
#include "kafka/Result.h"

#include <QHash>
#include <QList>
#include <QMutex>
#include <QStringList>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>

namespace groupscope::kafka {

// The part of the Kafka Admin API that Groupscope needs, reads and writes (offset
// commits, offset deletes, group deletes), as blocking calls with a deadline. Groups (listing,
// describing, committed offsets) go through Groupscope's own GroupProtocolClient, which speaks
// every group type and batches per coordinator; only when the profile needs what that client does
// not speak (GSSAPI, PKCS#12 keystores) do they go through librdkafka's admin API, and
// groupProtocolFallback() says what that costs. Each call returns within its timeout (a timeout is
// an error value naming the bootstrap servers and the last connection problem seen), so it belongs
// on a worker thread, never the GUI thread. One AdminClient is used by one thread at a time.
class AdminClient {
public:
    using Milliseconds = std::chrono::milliseconds;

    static Result<std::unique_ptr<AdminClient>> create(const ConnectionProfile& profile,
                                                       Milliseconds timeout = Milliseconds(5000));
    ~AdminClient();
    AdminClient(const AdminClient&) = delete;
    AdminClient& operator=(const AdminClient&) = delete;

    Result<QList<GroupListing>> listGroups();
    // Groups that do not exist come back in state Dead with no members, as Kafka reports them.
    Result<QList<GroupDescription>> describeGroups(const QStringList& groupIds);
    // All committed offsets of each group, keyed by group id. Requests for different groups
    // run concurrently (librdkafka 2.0 takes one group per request).
    Result<QHash<QString, QList<CommittedOffset>>>
    listCommittedOffsets(const QStringList& groupIds);
    // Log start and end offsets: one ListOffsets request per partition leader for each
    // end, never one per partition. Per-partition problems are in LogOffsets::error.
    Result<QList<LogOffsets>> logOffsets(const QList<TopicPartition>& partitions);
    // The partitions of the named topics (all topics when empty), from cluster metadata.
    // A topic that does not exist is an error naming it.
    Result<QList<TopicPartition>> topicPartitions(const QStringList& topics = {});
    Result<QList<PartitionInfo>> describePartitions(const QStringList& topics = {});
    // The cluster's id from Metadata: what tells two clusters apart when their bootstrap
    // lists look alike (the write journal records it, and undo checks it).
    Result<QString> clusterId();
    // Every topic's name by its topic id (Kafka's text form of the Uuid): the records of
    // consumer-protocol groups name topics by id only. Metadata, then one DescribeTopics.
    Result<QHash<QString, QString>> topicNamesById();
    // For each partition, the earliest offset whose record timestamp is at or after the
    // given time (ms since the epoch), or -1 when no record is that new. One ListOffsets
    // request per leader, whatever the number of partitions.
    Result<QHash<TopicPartition, int64_t>>
    offsetsForTimestamps(const QList<QPair<TopicPartition, int64_t>>& timestamps);

    // Writes committed offsets of a group (AlterConsumerGroupOffsets), with the commit
    // metadata given for a partition (an undo restores what was there). The broker refuses
    // groups with active members; each partition's outcome is reported.
    Result<QList<PartitionOutcome>>
    alterCommittedOffsets(const QString& groupId,
                          const QList<QPair<TopicPartition, int64_t>>& offsets,
                          const QHash<TopicPartition, QString>& metadata = {});
    // Deletes committed offsets of a group (DeleteConsumerGroupOffsets), per partition.
    Result<QList<PartitionOutcome>> deleteCommittedOffsets(const QString& groupId,
                                                           const QList<TopicPartition>& partitions);

    // Deletes whole groups (DeleteGroups, batched per coordinator): each group's outcome,
    // no error for a deleted one. The broker refuses a group with members (NON_EMPTY_GROUP).
    Result<QHash<QString, KafkaError>> deleteGroups(const QStringList& groupIds);

    // A flag another thread may set to abandon the call in progress: waiting calls return
    // an "interrupted" error within about 100 ms instead of running to their deadline.
    void setCancelFlag(const std::atomic<bool>* cancelled);
    const std::atomic<bool>* cancelFlag() const { return m_cancelled; }

    // True once a broker answered a group request with NOT_COORDINATOR: the group's
    // coordinator moved (a broker shut down, or leadership of the offsets topic moved back
    // to its preferred replica). librdkafka 2.0 caches the coordinator it looked up for as
    // long as the handle keeps using it, and an Admin request's NOT_COORDINATOR answer only
    // makes it look up the handle's own (private) group's coordinator, never evicts the
    // cached one (librdkafka issue 5040 shows the same OffsetFetch path in 2.4). While the
    // old coordinator still runs, every later call for that group would fail the same way.
    // Long-lived owners (pollers, monitors, task runners) call renewIfCoordinatorMoved().
    bool coordinatorMoved() const { return m_coordinatorMoved; }

    // Replaces a client that says coordinatorMoved() with a new one of the same profile,
    // timeout and cancel flag, whose first request looks the coordinator up afresh. If no new
    // client can be created, the old one stays (its other requests still work).
    static void renewIfCoordinatorMoved(std::unique_ptr<AdminClient>& client);

    // Receives every librdkafka log line of every AdminClient: for diagnostics, and for tests
    // that count the requests sent (with debug=protocol among the profile's extra
    // properties). Called on librdkafka's threads, one line at a time. Set it before the
    // clients it should hear are created; an empty function removes it, and returns once
    // no call to the old one is running.
    using LogSink = std::function<void(int level, const QString& facility, const QString& message)>;
    static void setLogSink(LogSink sink);

    // The group protocol client, or null when the profile needs librdkafka (share and
    // streams groups, epochs and share offsets are then out of reach).
    GroupProtocolClient* groupProtocol() const { return m_groupProtocol.get(); }
    // Empty when groupProtocol() is there; otherwise why not and which features that costs.
    QString groupProtocolFallback() const;

    Milliseconds timeout() const { return m_timeout; }
    void setTimeout(Milliseconds timeout);
    const ConnectionProfile& profile() const { return m_profile; }
    rd_kafka_t* handle() const { return m_handle.get(); }

private:
    AdminClient(ConnectionProfile profile, Milliseconds timeout);

    using Clock = std::chrono::steady_clock;
    using Deadline = Clock::time_point;
    Deadline deadline() const { return std::chrono::steady_clock::now() + m_timeout; }
    // `operation` is an rd_kafka_admin_op_t.
    AdminOptionsHandle makeOptions(int operation, Deadline deadline) const;
    // Waits for the next admin result event of `type` on the private queue, or times out.
    // A call that returns without its answer (timeout, cancel, failure) abandons the queue,
    // so a late answer can never be taken for the answer of a later call.
    Result<EventHandle> waitForEvent(Deadline deadline, const QString& what,
                                     rd_kafka_event_type_t type);
    // One ListConsumerGroups round within `until`; sets `brokerStillLoading` when a broker
    // answered that it is still loading its groups.
    Result<QList<GroupListing>> listGroupsOnce(Deadline until, bool& brokerStillLoading);
    // Notes a group-level NOT_COORDINATOR answer (see coordinatorMoved()).
    void noteGroupError(const KafkaError& error);
    // Asks the brokers again for the partitions' leaders of the topics in `list`, within
    // the deadline: after a leader moved, librdkafka keeps asking the old leader until its
    // periodic metadata refresh (minutes away), and a stopped broker never answers.
    void refreshLeaders(const rd_kafka_topic_partition_list_t* list, Deadline until);
    KafkaError timeoutError(const QString& what) const;
    // Adds what was being done; connection-type failures become a timeout error that names
    // the bootstrap servers and the last connection problem librdkafka reported.
    KafkaError explain(KafkaError error, const QString& what) const;
    // deleteCommittedOffsets for a share group: whole topics only.
    Result<QList<PartitionOutcome>>
    deleteShareStartOffsets(const QString& groupId, const QList<TopicPartition>& partitions);
    // Waits for an alter or delete result of one group and turns it into outcomes.
    Result<QList<PartitionOutcome>> collectGroupWrite(const Deadline& until, const QString& what,
                                                      bool isDelete);
    // rd_kafka_offsets_for_times, asked again while leadership is moving, until the deadline.
    // Returns its last rd_kafka_resp_err_t.
    int offsetsForTimesWithRetry(rd_kafka_topic_partition_list_t* list, Deadline until);
    Result<QList<LogOffsets>> queryOffsets(rd_kafka_topic_partition_list_t* list, int64_t spec,
                                           Deadline deadline);

    static void errorCallback(rd_kafka_t* handle, int code, const char* reason, void* opaque);
    static void logCallback(const rd_kafka_t* handle, int level, const char* facility,
                            const char* message);
    void recordConnectionProblem(const QString& problem);
    void recordSetupFailure(const KafkaError& failure);
    // An authentication or TLS failure reported after `since`, if any: a call waiting for an
    // answer returns it at once instead of waiting out its deadline, since librdkafka would
    // only retry the same handshake and fail the same way.
    KafkaError setupFailureSince(Clock::time_point since) const;
    // Leaves the requests in flight to a queue nobody reads, so their late answers can never
    // be taken for the answer of a later call.
    void abandonPendingRequests();

    ConnectionProfile m_profile;
    Milliseconds m_timeout;
    std::unique_ptr<GroupProtocolClient> m_groupProtocol;
    KafkaError m_groupProtocolUnavailable;
    KafkaHandle m_handle;
    QueueHandle m_queue;
    const std::atomic<bool>* m_cancelled = nullptr;
    bool m_coordinatorMoved = false;
    mutable QMutex m_problemMutex;
    QString m_lastConnectionProblem;
    KafkaError m_setupFailure;
    Clock::time_point m_setupFailureTime;
};

} // namespace groupscope::kafka
