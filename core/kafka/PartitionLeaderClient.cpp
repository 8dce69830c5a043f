#include "kafka/PartitionLeaderClient.h"

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/ClusterConnections.h"
#include "kafka/protocol/MessageCodec.h"

#include <librdkafka/rdkafka.h>

#include <QMap>
#include <QSet>
#include <QThread>

#include <algorithm>

// The own protocol client's reads from partition leaders: log offsets (ListOffsets) and
// the first bytes after an offset (Fetch).

namespace groupscope::kafka {

using protocol::BrokerConnection;
using protocol::MessageCodec;
using protocol::Struct;

namespace {

constexpr int8_t readUncommitted = 0;
constexpr int8_t readCommitted = 1;
constexpr int64_t earliestTimestamp = -2;
constexpr int64_t latestTimestamp = -1;
// Partitions per request: keeps a Fetch answer (at most 8 KiB each) to a few MiB.
constexpr int partitionsPerRequest = 1000;

// Answers that mean "the leader is elsewhere now": ask the metadata again, then retry.
bool leaderMoved(int64_t code) {
    return code == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART ||
           code == RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE ||
           code == RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION ||
           code == RD_KAFKA_RESP_ERR_FENCED_LEADER_EPOCH ||
           code == RD_KAFKA_RESP_ERR_UNKNOWN_LEADER_EPOCH;
}

// Worth asking again a moment later: the leader is being elected or just moved, or its
// broker could not be reached (it may be restarting). A partition that does not exist is
// not: forEachLeader has asked the metadata again already.
bool isTransient(const KafkaError& error) {
    return (leaderMoved(error.code) && error.code != RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART) ||
           error.code == RD_KAFKA_RESP_ERR_OFFSET_NOT_AVAILABLE ||
           error.code == RD_KAFKA_RESP_ERR_REPLICA_NOT_AVAILABLE || error.isConnectionFailure();
}

// The partitions grouped by topic, in the shape of a request's Topics array.
QMap<QString, QList<int32_t>> byTopic(const QList<TopicPartition>& partitions) {
    QMap<QString, QList<int32_t>> topics;
    for (const TopicPartition& tp : partitions)
        topics[tp.topic].append(tp.partition);
    return topics;
}

int remainingMs(std::chrono::steady_clock::time_point until) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        until - std::chrono::steady_clock::now());
    return int(std::max<int64_t>(1, left.count()));
}

} // namespace

Result<QHash<TopicPartition, int32_t>>
PartitionLeaderClient::leadersOf(const QList<TopicPartition>& partitions, Deadline until,
                                 bool refresh) {
    QSet<QString> missing;
    for (const TopicPartition& tp : partitions)
        if (refresh || !m_leaders.contains(tp))
            missing.insert(tp.topic);
    if (!missing.isEmpty()) {
        Result<BrokerConnection*> connection = m_cluster.anyConnection(until);
        if (!connection)
            return connection.error();
        const protocol::ApiSpec& api = protocol::metadataApi();
        Struct request = MessageCodec::make(api.request);
        for (const QString& topic : std::as_const(missing))
            request.add("Topics").set("Name", topic);
        request.setBool("AllowAutoTopicCreation", false);
        Result<Struct> answer = connection.value()->call(api, request, until);
        if (!answer)
            return answer.error();
        // The partitions the metadata lists per topic it answered for without an error, and
        // the topics it says do not exist.
        QHash<QString, QSet<int32_t>> listed;
        QSet<QString> unknownTopics;
        for (const Struct& topic : answer.value().structs("Topics")) {
            const QString name = topic.string("Name");
            const int64_t topicError = topic.integer("ErrorCode");
            if (topicError == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART)
                unknownTopics.insert(name);
            else if (topicError == 0)
                listed.insert(name, {});
            for (const Struct& partition : topic.structs("Partitions")) {
                const TopicPartition tp{name, int32_t(partition.integer("PartitionIndex"))};
                if (topicError == 0)
                    listed[name].insert(tp.partition);
                const auto leader = int32_t(partition.integer("LeaderId"));
                if (partition.integer("ErrorCode") == 0 && leader >= 0)
                    m_leaders.insert(tp, leader);
                else
                    m_leaders.remove(tp);
            }
        }
        // A topic the metadata does not know, or a partition beyond its count, does not
        // exist (deleted, never created): not a leader to wait for.
        for (const TopicPartition& tp : partitions) {
            if (!missing.contains(tp.topic))
                continue;
            const auto topic = listed.constFind(tp.topic);
            if (unknownTopics.contains(tp.topic) ||
                (topic != listed.cend() && !topic->contains(tp.partition))) {
                m_unknown.insert(tp);
                m_leaders.remove(tp);
            } else {
                m_unknown.remove(tp);
            }
        }
    }
    QHash<TopicPartition, int32_t> leaders;
    for (const TopicPartition& tp : partitions)
        if (const auto found = m_leaders.constFind(tp); found != m_leaders.cend())
            leaders.insert(tp, *found);
    return leaders;
}

Status PartitionLeaderClient::forEachLeader(
    const QList<TopicPartition>& partitions, Deadline until, const LeaderBatch& perLeader,
    const std::function<void(const TopicPartition&, const KafkaError&)>& fail) {
    QList<TopicPartition> pending = partitions;
    for (int attempt = 0; attempt < 2 && !pending.isEmpty(); ++attempt) {
        Result<QHash<TopicPartition, int32_t>> leaders = leadersOf(pending, until, attempt > 0);
        if (!leaders)
            return leaders.error();
        QMap<int32_t, QList<TopicPartition>> perNode;
        for (const TopicPartition& tp : std::as_const(pending)) {
            if (const auto leader = leaders.value().constFind(tp); leader != leaders.value().cend())
                perNode[*leader].append(tp);
            else if (m_unknown.contains(tp))
                fail(tp, KafkaError{RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART,
                                    QStringLiteral("%1 does not exist").arg(tp.toString()), false,
                                    false});
            else
                fail(tp,
                     KafkaError::fromCode(RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE, tp.toString()));
        }
        QList<TopicPartition> retry;
        for (auto node = perNode.cbegin(); node != perNode.cend(); ++node) {
            Result<BrokerConnection*> connection = m_cluster.connection(node.key(), until);
            for (qsizetype start = 0; start < node->size(); start += partitionsPerRequest) {
                const QList<TopicPartition> chunk = node->mid(start, partitionsPerRequest);
                if (!connection) {
                    for (const TopicPartition& tp : chunk)
                        fail(tp, connection.error());
                    continue;
                }
                retry.append(perLeader(*connection.value(), chunk));
            }
        }
        for (const TopicPartition& tp : std::as_const(retry))
            m_leaders.remove(tp);
        pending = attempt == 0 ? retry : QList<TopicPartition>();
        if (attempt == 1)
            for (const TopicPartition& tp : std::as_const(retry))
                fail(tp, KafkaError::fromCode(RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION,
                                              tp.toString()));
    }
    return Done{};
}

Result<QList<TopicPartition>>
PartitionLeaderClient::listOffsetsOnce(const QHash<TopicPartition, int64_t>& asked,
                                       const QList<TopicPartition>& partitions, int8_t isolation,
                                       Deadline until, QHash<TopicPartition, ListedOffset>& found) {
    const protocol::ApiSpec& api = protocol::listOffsetsApi();
    QList<TopicPartition> again;
    auto fail = [&](const TopicPartition& tp, const KafkaError& error) {
        found.insert(tp, ListedOffset{-1, error});
        if (isTransient(error))
            again.append(tp);
    };
    Status status = forEachLeader(
        partitions, until,
        [&](BrokerConnection& connection, const QList<TopicPartition>& chunk) {
            QList<TopicPartition> moved;
            // ListOffsets v1 has no isolation level: it reads uncommitted only.
            const std::optional<int16_t> version = connection.version(api);
            if (!version || (isolation == readCommitted && *version < 2)) {
                for (const TopicPartition& tp : chunk)
                    fail(tp, KafkaError::fromCode(RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE,
                                                  QStringLiteral("the broker has no ListOffsets "
                                                                 "with isolation READ_COMMITTED")));
                return moved;
            }
            Struct request = MessageCodec::make(api.request);
            // v10+: how long the leader may take for an offset in tiered storage.
            request.set("ReplicaId", -1)
                .set("IsolationLevel", isolation)
                .set("TimeoutMs", remainingMs(until));
            const auto topics = byTopic(chunk);
            for (auto topic = topics.cbegin(); topic != topics.cend(); ++topic) {
                Struct& entry = request.add("Topics").set("Name", topic.key());
                for (int32_t partition : *topic)
                    entry.add("Partitions")
                        .set("PartitionIndex", partition)
                        .set("Timestamp", asked.value({topic.key(), partition}));
            }
            Result<Struct> answer = connection.call(api, *version, request, until);
            if (!answer) {
                for (const TopicPartition& tp : chunk)
                    fail(tp, answer.error());
                return moved;
            }
            for (const Struct& topic : answer.value().structs("Topics"))
                for (const Struct& partition : topic.structs("Partitions")) {
                    const TopicPartition tp{topic.string("Name"),
                                            int32_t(partition.integer("PartitionIndex"))};
                    const int64_t code = partition.integer("ErrorCode");
                    if (leaderMoved(code)) {
                        moved.append(tp);
                        continue;
                    }
                    if (code != 0)
                        fail(tp, KafkaError::fromCode(int(code), tp.toString()));
                    else
                        found.insert(tp, ListedOffset{partition.integer("Offset"), {}});
                }
            return moved;
        },
        fail);
    if (!status)
        return status.error();
    return again;
}

Result<QHash<TopicPartition, PartitionLeaderClient::ListedOffset>>
PartitionLeaderClient::listOffsets(const QList<QPair<TopicPartition, int64_t>>& timestamps,
                                   int8_t isolation, Deadline until) {
    QHash<TopicPartition, int64_t> asked;
    QList<TopicPartition> pending;
    for (const auto& [tp, timestamp] : timestamps)
        if (!asked.contains(tp)) {
            asked.insert(tp, timestamp);
            pending.append(tp);
        }
    QHash<TopicPartition, ListedOffset> found;
    for (;;) {
        // One attempt may take half the call's time: a leader that was stopped may never
        // answer, and the other half is left to ask the new one.
        const Deadline attemptUntil = std::min(until, std::chrono::steady_clock::now() +
                                                          std::max(m_timeout / 2, Milliseconds(1)));
        Result<QList<TopicPartition>> again =
            listOffsetsOnce(asked, pending, isolation, attemptUntil, found);
        if (!again)
            return again.error();
        pending = again.value();
        if (pending.isEmpty() || remainingMs(until) < 200 || (m_cancelled && m_cancelled->load()))
            break;
        for (const TopicPartition& tp : std::as_const(pending))
            m_leaders.remove(tp); // ask the metadata again
        QThread::msleep(100);     // a leader election takes a moment: do not spin on it
    }
    for (auto tp = asked.cbegin(); tp != asked.cend(); ++tp)
        if (!found.contains(tp.key()))
            found.insert(tp.key(),
                         ListedOffset{-1, KafkaError::fromCode(
                                              RD_KAFKA_RESP_ERR__BAD_MSG,
                                              QStringLiteral("ListOffsets did not answer for %1")
                                                  .arg(tp.key().toString()))});
    return found;
}

Result<QList<LogOffsets>>
PartitionLeaderClient::logOffsets(const QList<TopicPartition>& partitions) {
    QList<TopicPartition> unique = partitions;
    std::sort(unique.begin(), unique.end());
    unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
    const Deadline until = deadline();
    QList<QPair<TopicPartition, int64_t>> earliest;
    QList<QPair<TopicPartition, int64_t>> latest;
    for (const TopicPartition& tp : std::as_const(unique)) {
        earliest.append({tp, earliestTimestamp});
        latest.append({tp, latestTimestamp});
    }
    auto starts = listOffsets(earliest, readUncommitted, until);
    if (!starts)
        return starts.error();
    auto ends = listOffsets(latest, readUncommitted, until);
    if (!ends)
        return ends.error();
    QList<LogOffsets> offsets;
    offsets.reserve(unique.size());
    for (const TopicPartition& tp : std::as_const(unique)) {
        const ListedOffset start = starts.value().value(tp);
        const ListedOffset end = ends.value().value(tp);
        offsets.append(
            LogOffsets{tp, start.offset, end.offset, start.error ? start.error : end.error});
    }
    return offsets;
}

Result<QHash<TopicPartition, int64_t>> PartitionLeaderClient::offsetsForTimestamps(
    const QList<QPair<TopicPartition, int64_t>>& timestamps) {
    QHash<TopicPartition, int64_t> offsets;
    auto listed = listOffsets(timestamps, readUncommitted, deadline());
    if (!listed)
        return listed.error();
    for (const auto& [tp, timestamp] : timestamps) {
        const ListedOffset found = listed.value().value(tp);
        if (found.error)
            return KafkaError::fromCode(
                found.error.code, QStringLiteral("looking up the offset by timestamp of %1: %2")
                                      .arg(tp.toString(), found.error.message));
        offsets.insert(tp, found.offset);
    }
    return offsets;
}

Result<QList<StableOffset>>
PartitionLeaderClient::lastStableOffsets(const QList<TopicPartition>& partitions) {
    QList<QPair<TopicPartition, int64_t>> latest;
    for (const TopicPartition& tp : partitions)
        latest.append({tp, latestTimestamp});
    auto listed = listOffsets(latest, readCommitted, deadline());
    if (!listed)
        return listed.error();
    QList<StableOffset> offsets;
    for (const TopicPartition& tp : partitions) {
        const ListedOffset found = listed.value().value(tp);
        KafkaError error = found.error;
        if (error)
            error.message = QStringLiteral("ListOffsets READ_COMMITTED of %1: %2")
                                .arg(tp.toString(), error.message);
        offsets.append(StableOffset{tp, found.offset, error});
    }
    return offsets;
}

Result<QList<LogRead>> PartitionLeaderClient::readLogs(const QList<LogReadRequest>& requests) {
    if (requests.isEmpty())
        return QList<LogRead>();
    QHash<TopicPartition, LogReadRequest> asked;
    QHash<TopicPartition, int64_t> offsets;
    QList<TopicPartition> partitions;
    for (const LogReadRequest& request : requests) {
        if (!asked.contains(request.topicPartition))
            partitions.append(request.topicPartition);
        asked.insert(request.topicPartition, request);
        offsets.insert(request.topicPartition, request.offset);
    }
    QHash<TopicPartition, LogRead> found;
    const Deadline until = deadline();
    const protocol::ApiSpec& api = protocol::fetchApi();
    auto fail = [&](const TopicPartition& tp, const KafkaError& error) {
        LogRead read;
        read.topicPartition = tp;
        read.fetchOffset = offsets.value(tp);
        read.error = error;
        found.insert(tp, read);
    };
    Status status = forEachLeader(
        partitions, until,
        [&](BrokerConnection& connection, const QList<TopicPartition>& chunk) {
            QList<TopicPartition> moved;
            Struct request = MessageCodec::make(api.request);
            int64_t totalBytes = 0;
            for (const TopicPartition& tp : chunk)
                totalBytes += asked.value(tp).maxBytes;
            // Answer at once with what is there: the bytes after a commit are already written.
            request.set("ReplicaId", -1)
                .set("MaxWaitMs", 0)
                .set("MinBytes", 0)
                .set("MaxBytes", std::min<int64_t>(totalBytes, INT32_MAX))
                .set("IsolationLevel", readCommitted);
            const auto topics = byTopic(chunk);
            for (auto topic = topics.cbegin(); topic != topics.cend(); ++topic) {
                Struct& entry = request.add("Topics").set("Topic", topic.key());
                for (int32_t partition : *topic)
                    entry.add("Partitions")
                        .set("Partition", partition)
                        .set("FetchOffset", offsets.value({topic.key(), partition}))
                        .set("PartitionMaxBytes", asked.value({topic.key(), partition}).maxBytes);
            }
            Result<Struct> answer = connection.call(api, request, until);
            if (!answer) {
                for (const TopicPartition& tp : chunk)
                    fail(tp, answer.error());
                return moved;
            }
            if (const int64_t code = answer.value().integer("ErrorCode"); code != 0) {
                for (const TopicPartition& tp : chunk)
                    fail(tp, KafkaError::fromCode(int(code), QStringLiteral("Fetch")));
                return moved;
            }
            for (const Struct& topic : answer.value().structs("Responses"))
                for (const Struct& partition : topic.structs("Partitions")) {
                    const TopicPartition tp{topic.string("Topic"),
                                            int32_t(partition.integer("PartitionIndex"))};
                    const int64_t code = partition.integer("ErrorCode");
                    if (leaderMoved(code)) {
                        moved.append(tp);
                        continue;
                    }
                    if (code != 0) {
                        fail(tp, KafkaError::fromCode(int(code),
                                                      QStringLiteral("reading %1 at offset %2")
                                                          .arg(tp.toString())
                                                          .arg(offsets.value(tp))));
                        continue;
                    }
                    LogRead read;
                    read.topicPartition = tp;
                    read.fetchOffset = offsets.value(tp);
                    read.highWatermark = partition.integer("HighWatermark");
                    read.lastStableOffset = partition.integer("LastStableOffset");
                    read.logStartOffset = partition.integer("LogStartOffset");
                    if (!partition.isNull("AbortedTransactions"))
                        for (const Struct& aborted : partition.structs("AbortedTransactions"))
                            read.abortedTransactions.append(
                                {aborted.integer("ProducerId"), aborted.integer("FirstOffset")});
                    if (!partition.isNull("Records"))
                        read.records = partition.bytes("Records");
                    found.insert(tp, read);
                }
            return moved;
        },
        fail);
    if (!status)
        return status.error();
    QList<LogRead> reads;
    for (const TopicPartition& tp : std::as_const(partitions)) {
        if (const auto read = found.constFind(tp); read != found.cend()) {
            reads.append(*read);
            continue;
        }
        LogRead missing;
        missing.topicPartition = tp;
        missing.fetchOffset = offsets.value(tp);
        missing.error =
            KafkaError::fromCode(RD_KAFKA_RESP_ERR__BAD_MSG,
                                 QStringLiteral("Fetch did not answer for %1").arg(tp.toString()));
        reads.append(missing);
    }
    return reads;
}

} // namespace groupscope::kafka
