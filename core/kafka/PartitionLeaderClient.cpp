#include "kafka/GroupProtocolClient.h"

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/ClusterConnections.h"
#include "kafka/protocol/MessageCodec.h"

#include <librdkafka/rdkafka.h>

#include <QMap>
#include <QSet>

#include <algorithm>

// The group protocol client's reads from partition leaders for lag detail: last stable
// offsets (ListOffsets READ_COMMITTED) and the first bytes after an offset (Fetch).

namespace groupscope::kafka {

using protocol::BrokerConnection;
using protocol::MessageCodec;
using protocol::Struct;

namespace {

constexpr int8_t readCommitted = 1;
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
GroupProtocolClient::leadersOf(const QList<TopicPartition>& partitions, Deadline until,
                               bool refresh) {
    QSet<QString> missing;
    for (const TopicPartition& tp : partitions)
        if (refresh || !m_leaders.contains(tp))
            missing.insert(tp.topic);
    if (!missing.isEmpty()) {
        Result<BrokerConnection*> connection = m_cluster->anyConnection(until);
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
        for (const Struct& topic : answer.value().structs("Topics")) {
            const QString name = topic.string("Name");
            for (const Struct& partition : topic.structs("Partitions")) {
                const TopicPartition tp{name, int32_t(partition.integer("PartitionIndex"))};
                const auto leader = int32_t(partition.integer("LeaderId"));
                if (partition.integer("ErrorCode") == 0 && leader >= 0)
                    m_leaders.insert(tp, leader);
                else
                    m_leaders.remove(tp);
            }
        }
    }
    QHash<TopicPartition, int32_t> leaders;
    for (const TopicPartition& tp : partitions)
        if (const auto found = m_leaders.constFind(tp); found != m_leaders.cend())
            leaders.insert(tp, *found);
    return leaders;
}

Status GroupProtocolClient::forEachLeader(
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
            else
                fail(tp,
                     KafkaError::fromCode(RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE, tp.toString()));
        }
        QList<TopicPartition> retry;
        for (auto node = perNode.cbegin(); node != perNode.cend(); ++node) {
            Result<BrokerConnection*> connection = m_cluster->connection(node.key(), until);
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

Result<QList<StableOffset>>
GroupProtocolClient::lastStableOffsets(const QList<TopicPartition>& partitions) {
    QHash<TopicPartition, StableOffset> found;
    if (partitions.isEmpty())
        return QList<StableOffset>();
    const Deadline until = deadline();
    const protocol::ApiSpec& api = protocol::listOffsetsApi();
    auto fail = [&](const TopicPartition& tp, const KafkaError& error) {
        found.insert(tp, StableOffset{tp, -1, error});
    };
    Status status = forEachLeader(
        partitions, until,
        [&](BrokerConnection& connection, const QList<TopicPartition>& chunk) {
            QList<TopicPartition> moved;
            // ListOffsets v1 has no isolation level: such a broker cannot say.
            const std::optional<int16_t> version = connection.version(api);
            if (!version || *version < 2) {
                for (const TopicPartition& tp : chunk)
                    fail(tp, KafkaError::fromCode(RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE,
                                                  QStringLiteral("the broker has no ListOffsets "
                                                                 "with isolation READ_COMMITTED")));
                return moved;
            }
            Struct request = MessageCodec::make(api.request);
            // v10+: how long the leader may take for an offset in tiered storage.
            request.set("ReplicaId", -1)
                .set("IsolationLevel", readCommitted)
                .set("TimeoutMs", remainingMs(until));
            const auto topics = byTopic(chunk);
            for (auto topic = topics.cbegin(); topic != topics.cend(); ++topic) {
                Struct& entry = request.add("Topics").set("Name", topic.key());
                for (int32_t partition : *topic)
                    entry.add("Partitions")
                        .set("PartitionIndex", partition)
                        .set("Timestamp", latestTimestamp);
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
                    StableOffset offset{tp, partition.integer("Offset"), {}};
                    if (code != 0)
                        offset = StableOffset{
                            tp, -1,
                            KafkaError::fromCode(int(code),
                                                 QStringLiteral("ListOffsets READ_COMMITTED of %1")
                                                     .arg(tp.toString()))};
                    found.insert(tp, offset);
                }
            return moved;
        },
        fail);
    if (!status)
        return status.error();
    QList<StableOffset> offsets;
    for (const TopicPartition& tp : partitions)
        offsets.append(found.value(
            tp, StableOffset{
                    tp, -1,
                    KafkaError::fromCode(
                        RD_KAFKA_RESP_ERR__BAD_MSG,
                        QStringLiteral("ListOffsets did not answer for %1").arg(tp.toString()))}));
    return offsets;
}

Result<QList<LogRead>> GroupProtocolClient::readLogs(const QList<LogReadRequest>& requests) {
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
