#pragma once

#include "kafka/KafkaError.h"
#include "kafka/Result.h"
#include "kafka/protocol/ClusterConnections.h"

#include <QHash>
#include <QStringList>

#include <chrono>
#include <functional>

namespace groupscope::kafka {

// Requests to group coordinators, batched: one lookup for every group whose coordinator is
// not known, then one call per coordinator with the groups it coordinates (a call per
// maxGroupsPerBatch of them when it coordinates more); a group whose
// coordinator moved (the answer says so) is looked up and asked once more. What the own
// client's group reads (GroupProtocolClient) and writes (GroupWriteClient) share.
class CoordinatorRequests {
public:
    using Deadline = std::chrono::steady_clock::time_point;

    explicit CoordinatorRequests(protocol::ClusterConnections& cluster)
        : m_cluster(cluster) {}

    // Runs `perCoordinator` once per coordinator with the groups it coordinates, or once per
    // maxGroupsPerBatch of them, one after the other. A batch comes in two halves: it sends
    // its requests and returns the reader of their answers, which returns the groups whose
    // coordinator moved. Every coordinator is sent its first batch before any answer is
    // read, and its next one as soon as the last one's answers are read, so the brokers work
    // at the same time. Groups whose coordinator cannot be found, or that keep moving, get
    // `fail` with the reason.
    using AnswerReader = std::function<QStringList()>;
    using Batch =
        std::function<AnswerReader(protocol::BrokerConnection&, const QStringList& groupIds)>;
    void forEachCoordinator(const QStringList& groupIds, Deadline until,
                            const Batch& perCoordinator,
                            const std::function<void(const QString&, const KafkaError&)>& fail);

    // The usual batch: one request per coordinator, made of its groups by `makeRequest` and
    // sent in the newest version both sides speak; `readAnswer` gets the groups and the
    // answer (or why there is none) and returns the groups whose coordinator moved.
    using RequestMaker = std::function<protocol::Struct(const QStringList& groupIds)>;
    using AnswerHandler = std::function<QStringList(const QStringList& groupIds,
                                                    const Result<protocol::Struct>& answer)>;
    static Batch oneRequest(const protocol::ApiSpec& api, Deadline until, RequestMaker makeRequest,
                            AnswerHandler readAnswer);

    // Sends `request` to `groupId`'s coordinator (found again if it moved) and returns its
    // answer, or the answer's top-level error described as `doing` (e.g. "deleting ...").
    Result<protocol::Struct> ask(const QString& groupId, const protocol::ApiSpec& api,
                                 const protocol::Struct& request, const QString& doing,
                                 Deadline until);

    // A broker builds each answer whole in its heap before it sends it: one OffsetFetch for
    // the 100,000 groups of ten partitions that one broker coordinated after a restart of
    // the test bed's cluster threw OutOfMemoryError in that broker (512 MB heap), and every
    // group failed at every refresh. Batches of this many groups keep an answer near a
    // megabyte; a refresh of 100,000 groups sends a hundred of each request instead of three.
    static constexpr qsizetype maxGroupsPerBatch = 1'000;

private:
    using Clock = std::chrono::steady_clock;
    static constexpr std::chrono::milliseconds retryPause{200};
    // The coordinator of each group (in the order of `groupIds`), looked up again while it
    // is not available yet.
    QList<protocol::CoordinatorLookup> lookUp(const QStringList& groupIds, Deadline until);

    protocol::ClusterConnections& m_cluster;
};

} // namespace groupscope::kafka
