#include "kafka/LibrdkafkaClusterRequests.h"

#include "kafka/LibrdkafkaDetail.h"
#include "kafka/TopicPartitionList.h"

#include <librdkafka/rdkafka.h>

#include <QSet>

#include <algorithm>
#include <vector>

// The librdkafka admin requests' log offsets (start, end, by timestamp) and topic metadata.

namespace groupscope::kafka {

using detail::remainingMs;

namespace {

// Errors that mean "ask again shortly": leadership is moving or metadata is stale, as right
// after a topic is created or during a broker restart. librdkafka refreshes its metadata
// when it sees them; the caller retries until its deadline.
bool isTransientLeaderError(rd_kafka_resp_err_t code) {
    switch (code) {
    case RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION:
    case RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE:
    case RD_KAFKA_RESP_ERR_FENCED_LEADER_EPOCH:
    case RD_KAFKA_RESP_ERR_UNKNOWN_LEADER_EPOCH:
    case RD_KAFKA_RESP_ERR_REPLICA_NOT_AVAILABLE:
    case RD_KAFKA_RESP_ERR__TRANSPORT:
    case RD_KAFKA_RESP_ERR_OFFSET_NOT_AVAILABLE:
        return true;
    default:
        return false;
    }
}

} // namespace

int LibrdkafkaClusterRequests::offsetsForTimesWithRetry(rd_kafka_topic_partition_list_t* list,
                                                        Deadline until) {
    // offsets_for_times overwrites each element's offset with the answer: keep the asked
    // timestamps so a retry asks the same question.
    std::vector<int64_t> asked(size_t(list->cnt));
    for (int i = 0; i < list->cnt; ++i)
        asked[size_t(i)] = list->elems[i].offset;
    for (;;) {
        for (int i = 0; i < list->cnt; ++i) {
            list->elems[i].offset = asked[size_t(i)];
            list->elems[i].err = RD_KAFKA_RESP_ERR_NO_ERROR;
        }
        // One attempt may take half the call's time: a leader that was stopped never
        // answers, and the other half is left to ask the new leader.
        const int attemptMs =
            std::max(1, std::min(remainingMs(until),
                                 int(std::max<long long>(m_connection.timeout().count() / 2, 1))));
        rd_kafka_resp_err_t code =
            rd_kafka_offsets_for_times(m_connection.handle(), list, attemptMs);
        bool transient = isTransientLeaderError(code) || code == RD_KAFKA_RESP_ERR__TIMED_OUT;
        for (int i = 0; code == RD_KAFKA_RESP_ERR_NO_ERROR && i < list->cnt; ++i)
            transient = transient || isTransientLeaderError(list->elems[i].err);
        if (!transient || remainingMs(until) < 200 || (m_connection.cancelled()))
            return code;
        refreshLeaders(list, until);
        rd_kafka_poll(m_connection.handle(), 100); // a short pause that also serves callbacks
    }
}

void LibrdkafkaClusterRequests::refreshLeaders(const rd_kafka_topic_partition_list_t* list,
                                               Deadline until) {
    QSet<QByteArray> topics;
    for (int i = 0; i < list->cnt; ++i)
        topics.insert(QByteArray(list->elems[i].topic));
    for (const QByteArray& name : std::as_const(topics)) {
        if (remainingMs(until) < 200)
            return;
        // A Metadata request for the topic (never creating it); its answer updates the
        // leaders librdkafka sends ListOffsets to.
        TopicHandle topic(rd_kafka_topic_new(m_connection.handle(), name.constData(), nullptr));
        const rd_kafka_metadata_t* raw = nullptr;
        rd_kafka_metadata(m_connection.handle(), 0, topic.get(), &raw,
                          std::min(remainingMs(until) - 100, 1000));
        MetadataHandle metadata(raw);
    }
}

Result<QList<LogOffsets>>
LibrdkafkaClusterRequests::queryOffsets(rd_kafka_topic_partition_list_t* list, int64_t spec,
                                        Deadline until) {
    for (int i = 0; i < list->cnt; ++i)
        list->elems[i].offset = spec;
    // offsets_for_times groups the partitions by leader and sends one ListOffsets request
    // per leader; the special timestamps -2 and -1 ask for the earliest and latest offsets.
    const int code = offsetsForTimesWithRetry(list, until);
    if (code != RD_KAFKA_RESP_ERR_NO_ERROR && code != RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION)
        return m_connection.explain(KafkaError::fromCode(code),
                                    QStringLiteral("querying log offsets"));
    QList<LogOffsets> offsets;
    offsets.reserve(list->cnt);
    for (int i = 0; i < list->cnt; ++i) {
        const auto& element = list->elems[i];
        LogOffsets entry;
        entry.topicPartition = {QString::fromUtf8(element.topic), element.partition};
        if (element.err)
            entry.error = KafkaError::fromCode(element.err, entry.topicPartition.toString());
        else if (spec == RD_KAFKA_OFFSET_BEGINNING)
            entry.logStartOffset = element.offset;
        else
            entry.logEndOffset = element.offset;
        offsets.append(std::move(entry));
    }
    return offsets;
}

Result<QList<LogOffsets>>
LibrdkafkaClusterRequests::logOffsets(const QList<TopicPartition>& partitions) {
    if (partitions.isEmpty())
        return QList<LogOffsets>{};
    const Deadline until = m_connection.deadline();
    QList<TopicPartition> unique = partitions;
    std::sort(unique.begin(), unique.end());
    unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
    TopicPartitionListHandle list = makeTopicPartitionList(unique);

    auto starts = queryOffsets(list.get(), RD_KAFKA_OFFSET_BEGINNING, until);
    if (!starts)
        return starts.error();
    auto ends = queryOffsets(list.get(), RD_KAFKA_OFFSET_END, until);
    if (!ends)
        return ends.error();
    QList<LogOffsets> merged = starts.value();
    for (qsizetype i = 0; i < merged.size(); ++i) {
        merged[i].logEndOffset = ends.value()[i].logEndOffset;
        if (!merged[i].error)
            merged[i].error = ends.value()[i].error;
    }
    return merged;
}

Result<QString> LibrdkafkaClusterRequests::clusterId() {
    // rd_kafka_clusterid waits for the first Metadata answer within the timeout.
    char* raw = rd_kafka_clusterid(m_connection.handle(), remainingMs(m_connection.deadline()));
    if (!raw)
        return m_connection.timeoutError(QStringLiteral("reading the cluster id"));
    const QString id = QString::fromUtf8(raw);
    rd_kafka_mem_free(m_connection.handle(), raw);
    return id;
}

Result<QList<PartitionInfo>>
LibrdkafkaClusterRequests::describePartitions(const QStringList& topics) {
    const Deadline until = m_connection.deadline();
    QList<PartitionInfo> result;
    auto collect = [&](const rd_kafka_metadata_topic_t& topic) -> KafkaError {
        const QString name = QString::fromUtf8(topic.topic);
        if (topic.err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART)
            return KafkaError{topic.err, QStringLiteral("topic '%1' does not exist").arg(name),
                              false, false};
        if (topic.err)
            return KafkaError::fromCode(topic.err, QStringLiteral("topic '%1'").arg(name));
        for (int p = 0; p < topic.partition_cnt; ++p)
            result.append({{name, topic.partitions[p].id}, topic.partitions[p].leader});
        return {};
    };
    if (topics.isEmpty()) {
        const rd_kafka_metadata_t* raw = nullptr;
        const auto code =
            rd_kafka_metadata(m_connection.handle(), 1, nullptr, &raw, remainingMs(until));
        MetadataHandle metadata(raw);
        if (code)
            return m_connection.explain(KafkaError::fromCode(code),
                                        QStringLiteral("reading cluster metadata"));
        for (int t = 0; t < metadata->topic_cnt; ++t)
            if (!metadata->topics[t].err)
                collect(metadata->topics[t]);
    } else {
        for (const QString& name : topics) {
            // A topic handle asks for this topic only; with auto-creation off on the broker
            // this never creates it.
            TopicHandle topic(
                rd_kafka_topic_new(m_connection.handle(), name.toUtf8().constData(), nullptr));
            const rd_kafka_metadata_t* raw = nullptr;
            const auto code =
                rd_kafka_metadata(m_connection.handle(), 0, topic.get(), &raw, remainingMs(until));
            MetadataHandle metadata(raw);
            if (code)
                return m_connection.explain(
                    KafkaError::fromCode(code),
                    QStringLiteral("reading metadata of topic '%1'").arg(name));
            KafkaError error =
                metadata->topic_cnt > 0
                    ? collect(metadata->topics[0])
                    : KafkaError{RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART,
                                 QStringLiteral("topic '%1' does not exist").arg(name), false,
                                 false};
            if (error)
                return error;
        }
    }
    std::sort(result.begin(), result.end(),
              [](const auto& a, const auto& b) { return a.topicPartition < b.topicPartition; });
    return result;
}

Result<QHash<TopicPartition, int64_t>> LibrdkafkaClusterRequests::offsetsForTimestamps(
    const QList<QPair<TopicPartition, int64_t>>& timestamps) {
    QHash<TopicPartition, int64_t> offsets;
    if (timestamps.isEmpty())
        return offsets;
    const Deadline until = m_connection.deadline();
    TopicPartitionListHandle list = makeTopicPartitionList(timestamps);
    const int code = offsetsForTimesWithRetry(list.get(), until);
    if (code != RD_KAFKA_RESP_ERR_NO_ERROR)
        return m_connection.explain(KafkaError::fromCode(code),
                                    QStringLiteral("looking up offsets by timestamp"));
    for (int i = 0; i < list->cnt; ++i) {
        const auto& element = list->elems[i];
        const TopicPartition tp{QString::fromUtf8(element.topic), element.partition};
        if (element.err)
            return KafkaError::fromCode(
                element.err,
                QStringLiteral("looking up the offset by timestamp of %1").arg(tp.toString()));
        offsets.insert(tp, element.offset);
    }
    return offsets;
}

} // namespace groupscope::kafka
