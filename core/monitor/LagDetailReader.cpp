#include "monitor/LagDetailReader.h"

#include "lag/LagDetailEvaluator.h"

#include <librdkafka/rdkafka.h>

#include <QSet>

namespace groupscope::monitor {

namespace {

// A partition whose entries after the commit only the log can explain.
bool needsLog(const GroupSnapshot& group, const PartitionSnapshot& partition) {
    // A share group's "commit" is its start offset and its lag the broker's own count.
    if (group.description.type == kafka::GroupType::Share || !partition.committedOffset ||
        partition.logEndOffset < 0)
        return false;
    const int64_t committed = *partition.committedOffset;
    return committed < partition.logEndOffset &&
           (partition.logStartOffset < 0 || committed >= partition.logStartOffset);
}

// What decides a partition's detail in one fill: its commit and its log's range (the
// last stable offset and the records read are looked up by partition and commit).
struct DetailKey {
    kafka::TopicPartition topicPartition;
    int64_t committed;
    int64_t logStart;
    int64_t logEnd;
    friend bool operator==(const DetailKey&, const DetailKey&) = default;
};

size_t qHash(const DetailKey& key, size_t seed = 0) {
    return qHashMulti(seed, key.topicPartition, key.committed, key.logStart, key.logEnd);
}

} // namespace

void LagDetailReader::fill(kafka::AdminClient& admin, QList<GroupSnapshot>& groups) {
    m_cost = {};
    QList<kafka::TopicPartition> stableWanted;
    QHash<kafka::TopicPartition, int64_t> logEnds;
    QList<kafka::LogReadRequest> toRead;
    QHash<ReadKey, kafka::LogRead> kept;
    QSet<ReadKey> queued;
    for (const GroupSnapshot& group : std::as_const(groups))
        for (const PartitionSnapshot& partition : group.partitions) {
            if (!needsLog(group, partition))
                continue;
            const ReadKey key{partition.topicPartition, *partition.committedOffset};
            if (!logEnds.contains(partition.topicPartition)) {
                stableWanted.append(partition.topicPartition);
                logEnds.insert(partition.topicPartition, partition.logEndOffset);
            }
            if (kept.contains(key) || queued.contains(key))
                continue;
            const auto earlier = m_reads.constFind(key);
            const int64_t lag = partition.logEndOffset - key.second;
            if (earlier != m_reads.cend() && !earlier->error &&
                (earlier->highWatermark >= partition.logEndOffset ||
                 lag > m_options.rereadLagLimit)) {
                kept.insert(key, *earlier);
                ++m_cost.reusedReads;
            } else {
                toRead.append({key.first, key.second,
                               lag <= m_options.smallLagLimit ? m_options.smallLagBytes
                                                              : m_options.largeLagBytes});
                queued.insert(key);
            }
        }

    QHash<kafka::TopicPartition, kafka::StableOffset> stable;
    if (admin.isFallback()) {
        const QString why =
            QStringLiteral("needs Groupscope's own protocol client: %1").arg(admin.fallbackNote());
        for (const kafka::TopicPartition& tp : std::as_const(stableWanted))
            stable.insert(
                tp,
                {tp, -1, kafka::KafkaError::fromCode(RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE, why)});
        for (const kafka::LogReadRequest& request : std::as_const(toRead)) {
            kafka::LogRead read;
            read.topicPartition = request.topicPartition;
            read.fetchOffset = request.offset;
            read.error = kafka::KafkaError::fromCode(RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE, why);
            kept.insert({request.topicPartition, request.offset}, read);
        }
    } else {
        m_cost.stableOffsetPartitions = int(stableWanted.size());
        m_cost.readPartitions = int(toRead.size());
        auto offsets = admin.lastStableOffsets(stableWanted);
        for (const kafka::TopicPartition& tp : std::as_const(stableWanted))
            if (!offsets)
                stable.insert(tp, {tp, -1, offsets.error()});
        if (offsets)
            for (const kafka::StableOffset& offset : offsets.value())
                stable.insert(offset.topicPartition, offset);
        auto reads = admin.readLogs(toRead);
        for (const kafka::LogReadRequest& request : std::as_const(toRead)) {
            kafka::LogRead read;
            read.topicPartition = request.topicPartition;
            read.fetchOffset = request.offset;
            if (!reads)
                read.error = reads.error();
            kept.insert({request.topicPartition, request.offset}, read);
        }
        if (reads)
            for (const kafka::LogRead& read : reads.value())
                kept.insert({read.topicPartition, read.fetchOffset}, read);
    }

    // Groups at the same commit of a partition share one detail: many groups sit at the log
    // end of the same partitions, and a detail per row was the largest part of an exporter's
    // poll at 100,000 groups.
    QHash<DetailKey, lag::SharedLagDetail> evaluated;
    for (GroupSnapshot& group : groups)
        for (PartitionSnapshot& partition : group.partitions) {
            if (group.description.type == kafka::GroupType::Share)
                continue;
            if (!partition.committedOffset) {
                partition.lagDetail = {}; // nothing to decide; allocates nothing
                continue;
            }
            const kafka::StableOffset* offset = nullptr;
            const kafka::LogRead* read = nullptr;
            if (needsLog(group, partition)) {
                if (const auto found = stable.constFind(partition.topicPartition);
                    found != stable.cend())
                    offset = &*found;
                if (const auto found =
                        kept.constFind({partition.topicPartition, *partition.committedOffset});
                    found != kept.cend())
                    read = &*found;
            }
            const DetailKey key{partition.topicPartition, *partition.committedOffset,
                                partition.logStartOffset, partition.logEndOffset};
            auto known = evaluated.constFind(key);
            if (known == evaluated.cend())
                known = evaluated.insert(
                    key, lag::LagDetailEvaluator::evaluate(partition, offset, read));
            partition.lagDetail = *known;
        }
    // Reads that failed are asked again next time; the others are kept while their
    // partition and commit are in the polls.
    m_reads.clear();
    for (auto it = kept.cbegin(); it != kept.cend(); ++it)
        if (!it->error)
            m_reads.insert(it.key(), *it);
}

} // namespace groupscope::monitor
