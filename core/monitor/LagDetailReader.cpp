#include "monitor/LagDetailReader.h"

#include "lag/LagDetailEvaluator.h"

#include <librdkafka/rdkafka.h>

#include <QSet>

#include <utility>

namespace groupscope::monitor {

namespace {

// A partition whose entries after the commit only the log can explain.
bool needsLog(kafka::GroupType type, const kafka::PartitionPosition& partition) {
    // A share group's "commit" is its start offset and its lag the broker's own count.
    if (type == kafka::GroupType::Share || !partition.committedOffset || partition.logEndOffset < 0)
        return false;
    const int64_t committed = *partition.committedOffset;
    return committed < partition.logEndOffset &&
           (partition.logStartOffset < 0 || committed >= partition.logStartOffset);
}

} // namespace

void LagDetailReader::want(kafka::GroupType type, const kafka::PartitionPosition& partition) {
    if (!needsLog(type, partition))
        return;
    const ReadKey key{partition.topicPartition, *partition.committedOffset};
    // Asked once per poll, whichever slice of its groups names it first.
    if (!m_stable.contains(partition.topicPartition) &&
        !m_wanted.stableOffsetsAsked.contains(partition.topicPartition)) {
        m_wanted.stableOffsetsAsked.insert(partition.topicPartition);
        m_wanted.stableOffsets.append(partition.topicPartition);
    }
    if (m_pollReads.contains(key) || m_wanted.readsAsked.contains(key))
        return;
    m_wanted.readsAsked.insert(key);
    const auto earlier = m_reads.constFind(key);
    const int64_t lag = partition.logEndOffset - key.second;
    if (earlier != m_reads.cend() && !earlier->error &&
        (earlier->highWatermark >= partition.logEndOffset || lag > m_options.rereadLagLimit)) {
        m_pollReads.insert(key, *earlier);
        ++m_pollCost.reusedReads;
    } else {
        m_wanted.reads.append(
            {key.first, key.second,
             lag <= m_options.smallLagLimit ? m_options.smallLagBytes : m_options.largeLagBytes});
    }
}

void LagDetailReader::readWanted(kafka::AdminClient& admin) {
    const Wanted wanted = std::exchange(m_wanted, {});
    if (admin.isFallback()) {
        const QString why =
            QStringLiteral("needs Groupscope's own protocol client: %1").arg(admin.fallbackNote());
        for (const kafka::TopicPartition& tp : wanted.stableOffsets)
            m_stable.insert(
                tp,
                {tp, -1, kafka::KafkaError::fromCode(RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE, why)});
        for (const kafka::LogReadRequest& request : wanted.reads) {
            kafka::LogRead read;
            read.topicPartition = request.topicPartition;
            read.fetchOffset = request.offset;
            read.error = kafka::KafkaError::fromCode(RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE, why);
            m_pollReads.insert({request.topicPartition, request.offset}, read);
        }
    } else {
        m_pollCost.stableOffsetPartitions += int(wanted.stableOffsets.size());
        m_pollCost.readPartitions += int(wanted.reads.size());
        auto offsets = admin.lastStableOffsets(wanted.stableOffsets);
        for (const kafka::TopicPartition& tp : wanted.stableOffsets)
            if (!offsets)
                m_stable.insert(tp, {tp, -1, offsets.error()});
        if (offsets)
            for (const kafka::StableOffset& offset : offsets.value())
                m_stable.insert(offset.topicPartition, offset);
        auto reads = admin.readLogs(wanted.reads);
        for (const kafka::LogReadRequest& request : wanted.reads) {
            kafka::LogRead read;
            read.topicPartition = request.topicPartition;
            read.fetchOffset = request.offset;
            if (!reads)
                read.error = reads.error();
            m_pollReads.insert({request.topicPartition, request.offset}, read);
        }
        if (reads)
            for (const kafka::LogRead& read : reads.value())
                m_pollReads.insert({read.topicPartition, read.fetchOffset}, read);
    }
}

void LagDetailReader::fill(GroupSnapshot& group) {
    const kafka::GroupType type = group.description.type;
    if (type == kafka::GroupType::Share)
        return;
    for (PartitionSnapshot& partition : group.partitions) {
        if (!partition.committedOffset) {
            partition.lagDetail = {}; // nothing to decide; allocates nothing
            continue;
        }
        const kafka::StableOffset* offset = nullptr;
        const kafka::LogRead* read = nullptr;
        if (needsLog(type, partition)) {
            if (const auto found = m_stable.constFind(partition.topicPartition);
                found != m_stable.cend())
                offset = &*found;
            if (const auto found =
                    m_pollReads.constFind({partition.topicPartition, *partition.committedOffset});
                found != m_pollReads.cend())
                read = &*found;
        }
        const DetailKey key{partition.topicPartition, *partition.committedOffset,
                            partition.logStartOffset, partition.logEndOffset};
        auto known = m_evaluated.constFind(key);
        if (known == m_evaluated.cend())
            known =
                m_evaluated.insert(key, lag::LagDetailEvaluator::evaluate(partition, offset, read));
        partition.lagDetail = *known;
    }
}

void LagDetailReader::endFill() {
    // Reads that failed are asked again next time; the others are kept while their
    // partition and commit are in the polls.
    m_reads.clear();
    for (auto it = m_pollReads.cbegin(); it != m_pollReads.cend(); ++it)
        if (!it->error)
            m_reads.insert(it.key(), *it);
    m_cost = std::exchange(m_pollCost, {});
    m_pollReads.clear();
    m_stable.clear();
    m_evaluated.clear();
}

} // namespace groupscope::monitor
