#include "consumer/OffsetResolver.h"

#include "kafka/TopicPartitionList.h"

#include <librdkafka/rdkafka.h>

#include <thread>

namespace groupscope::consumer {

using kafka::KafkaError;
using kafka::Result;
using kafka::TopicPartition;
using kafka::TopicPartitionListHandle;

namespace {

using ResolvedMap = std::map<TopicPartition, Result<int64_t>>;

void setResult(ResolvedMap& into, const TopicPartition& partition, Result<int64_t> result) {
    into.insert_or_assign(partition, std::move(result));
}

KafkaError callError(rd_kafka_resp_err_t code, const QString& what, const TopicPartition& tp) {
    KafkaError error =
        KafkaError::fromCode(code, QStringLiteral("%1 of %2").arg(what, tp.toString()));
    error.retriable = code == RD_KAFKA_RESP_ERR__TIMED_OUT || code == RD_KAFKA_RESP_ERR__TRANSPORT;
    return error;
}

bool isLeadershipError(int code) {
    return code == RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION ||
           code == RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE ||
           code == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART;
}

} // namespace

OffsetResolver::OffsetResolver(rd_kafka_t* consumer, std::chrono::milliseconds timeout,
                               RepositionTarget whenNoCommittedOffset)
    : m_consumer(consumer)
    , m_timeout(timeout)
    , m_whenNoCommittedOffset(whenNoCommittedOffset) {}

ResolvedMap OffsetResolver::resolve(const QMap<TopicPartition, RepositionTarget>& targets) const {
    ResolvedMap resolved;
    QMap<TopicPartition, RepositionTarget> pending = targets;
    resolveCommitted(pending, resolved);
    QMap<TopicPartition, RepositionTarget> needLookup;
    for (auto it = pending.cbegin(); it != pending.cend(); ++it) {
        if (it.value().kind() != RepositionTarget::Kind::Offset) {
            needLookup.insert(it.key(), it.value());
            continue;
        }
        if (it.value().value() < 0)
            setResult(resolved, it.key(),
                      KafkaError::invalidArgument(QStringLiteral("offset %1 for %2 is negative")
                                                      .arg(it.value().value())
                                                      .arg(it.key().toString())));
        else
            setResult(resolved, it.key(), it.value().value());
    }
    resolveByListOffsets(needLookup, resolved);
    return resolved;
}

void OffsetResolver::resolveCommitted(QMap<TopicPartition, RepositionTarget>& targets,
                                      ResolvedMap& into) const {
    QList<TopicPartition> committedTargets;
    for (auto it = targets.cbegin(); it != targets.cend(); ++it)
        if (it.value().kind() == RepositionTarget::Kind::Committed)
            committedTargets.append(it.key());
    if (committedTargets.isEmpty())
        return;
    TopicPartitionListHandle list = kafka::makeTopicPartitionList(committedTargets);
    const rd_kafka_resp_err_t code =
        rd_kafka_committed(m_consumer, list.get(), int(m_timeout.count()));
    for (int i = 0; i < list->cnt; ++i) {
        const auto& element = list->elems[i];
        const TopicPartition partition{QString::fromUtf8(element.topic), element.partition};
        targets.remove(partition);
        if (code || element.err) {
            setResult(into, partition,
                      callError(code ? code : element.err, QStringLiteral("committed offset"),
                                partition));
            continue;
        }
        // No commit yet: the session's policy for partitions without a committed offset.
        targets.insert(partition, element.offset >= 0 ? RepositionTarget::offset(element.offset)
                                                      : m_whenNoCommittedOffset);
    }
}

void OffsetResolver::resolveByListOffsets(const QMap<TopicPartition, RepositionTarget>& targets,
                                          ResolvedMap& into) const {
    // Leadership moves (and new topics) make the first answer "not leader"; librdkafka
    // refreshes its metadata meanwhile, so the same question is asked again a few times.
    QMap<TopicPartition, RepositionTarget> pending = targets;
    for (int attempt = 0; attempt < 5 && !pending.isEmpty(); ++attempt) {
        if (attempt > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(100 * attempt));
        listOffsetsOnce(pending, into);
        QMap<TopicPartition, RepositionTarget> retry;
        for (auto it = pending.cbegin(); it != pending.cend(); ++it) {
            const auto found = into.find(it.key());
            if (found != into.end() && !found->second.ok() &&
                isLeadershipError(found->second.error().code))
                retry.insert(it.key(), it.value());
        }
        pending = retry;
    }
}

void OffsetResolver::listOffsetsOnce(const QMap<TopicPartition, RepositionTarget>& targets,
                                     ResolvedMap& into) const {
    if (targets.isEmpty())
        return;
    TopicPartitionListHandle list = kafka::makeTopicPartitionList(targets.keys());
    for (int i = 0; i < list->cnt; ++i) {
        auto& element = list->elems[i];
        const RepositionTarget target =
            targets.value({QString::fromUtf8(element.topic), element.partition});
        // offsets-for-times takes the special timestamps -2 and -1 for the log start and end.
        switch (target.kind()) {
        case RepositionTarget::Kind::Earliest:
            element.offset = RD_KAFKA_OFFSET_BEGINNING;
            break;
        case RepositionTarget::Kind::Latest:
        case RepositionTarget::Kind::Committed: // a fallback that was itself "committed"
            element.offset = RD_KAFKA_OFFSET_END;
            break;
        default:
            element.offset = target.value();
        }
    }
    const rd_kafka_resp_err_t code =
        rd_kafka_offsets_for_times(m_consumer, list.get(), int(m_timeout.count()));
    QMap<TopicPartition, RepositionTarget> afterLastMessage;
    for (int i = 0; i < list->cnt; ++i) {
        const auto& element = list->elems[i];
        const TopicPartition partition{QString::fromUtf8(element.topic), element.partition};
        const rd_kafka_resp_err_t partitionCode = element.err ? element.err : code;
        const RepositionTarget target = targets.value(partition);
        if (partitionCode) {
            setResult(into, partition,
                      callError(partitionCode,
                                QStringLiteral("resolving %1").arg(target.toString()), partition));
        } else if (element.offset < 0 && target.kind() == RepositionTarget::Kind::Timestamp) {
            // No message at or after the timestamp: Kafka's tool then takes the log end.
            afterLastMessage.insert(partition, RepositionTarget::latest());
        } else if (element.offset < 0) {
            setResult(into, partition,
                      callError(RD_KAFKA_RESP_ERR__NO_OFFSET,
                                QStringLiteral("resolving %1").arg(target.toString()), partition));
        } else {
            setResult(into, partition, element.offset);
        }
    }
    if (!afterLastMessage.isEmpty())
        listOffsetsOnce(afterLastMessage, into);
}

} // namespace groupscope::consumer
