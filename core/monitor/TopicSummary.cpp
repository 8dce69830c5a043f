#include "monitor/TopicSummary.h"

#include "lag/DurationText.h"

#include <QHashFunctions>

#include <algorithm>

namespace groupscope::monitor {

namespace {

// The time lag that is further behind; known ones before unknown ones.
lag::TimeLag worse(const lag::TimeLag& a, const lag::TimeLag& b) {
    if (a.status == lag::TimeLag::Status::Unknown)
        return b;
    if (b.status == lag::TimeLag::Status::Unknown)
        return a;
    return b.seconds > a.seconds ? b : a;
}

} // namespace

size_t TopicConsumer::computeFingerprint() const {
    QtPrivate::QHashCombine combine;
    size_t seed = 0;
    seed = combine(seed, topic);
    seed = combine(seed, topicPartitions);
    seed = combine(seed, qlonglong(logSize));
    seed = combine(seed, groupId);
    seed = combine(seed, int(type));
    seed = combine(seed, int(state));
    seed = combine(seed, partitions);
    seed = combine(seed, lag.has_value());
    seed = combine(seed, qlonglong(lag.value_or(0)));
    seed = combine(seed, withoutCommit);
    seed = combine(seed, timeLagText);
    return seed;
}

void TopicConsumerTable::add(const GroupSnapshot& group) {
    if (!group.exists())
        return;
    const bool withTrend = group.trend->partitions.size() == group.partitions.size();
    for (qsizetype i = 0; i < group.partitions.size(); ++i) {
        const PartitionSnapshot& partition = group.partitions.at(i);
        const QString& topic = partition.topicPartition.topic;
        TopicLog& log = m_logs[topic];
        if (!log.partitions.contains(partition.topicPartition.partition)) {
            log.partitions.insert(partition.topicPartition.partition);
            if (partition.logStartOffset >= 0 && partition.logEndOffset >= 0)
                log.logSize +=
                    std::max<int64_t>(0, partition.logEndOffset - partition.logStartOffset);
        }
        TopicConsumer& row = m_byTopic[topic][group.groupId()];
        if (row.groupId.isEmpty()) {
            row.topic = topic;
            row.groupId = group.groupId();
            row.type = group.description.type;
            row.state = group.description.state;
        }
        ++row.partitions;
        if (partition.lag)
            row.lag = row.lag.value_or(0) + *partition.lag;
        else
            ++row.withoutCommit;
        if (withTrend)
            row.timeLag = worse(row.timeLag, group.trend->partitions.at(i).timeLag());
    }
}

QList<TopicConsumer> TopicConsumerTable::rows() && {
    // Room for every row at once: grown one append at a time, a list of 100,000 rows was
    // up to twice their 18 MB (heaptrack of BenchGuiTenThousandGroups).
    qsizetype count = 0;
    for (const QMap<QString, TopicConsumer>& groups : std::as_const(m_byTopic))
        count += groups.size();
    QList<TopicConsumer> rows;
    rows.reserve(count);
    for (auto topic = m_byTopic.begin(); topic != m_byTopic.end(); ++topic) {
        const TopicLog& log = m_logs.value(topic.key());
        for (TopicConsumer& row : topic.value()) {
            row.topicPartitions = int(log.partitions.size());
            row.logSize = log.logSize;
            row.timeLagText = lag::timeLagText(row.timeLag);
            row.key = row.topic + QChar(0x0001) + row.groupId;
            row.fingerprint = row.computeFingerprint();
            rows.append(std::move(row));
        }
    }
    return rows;
}

QList<TopicConsumer> topicConsumersOf(const QList<GroupSnapshot>& groups) {
    TopicConsumerTable table;
    for (const GroupSnapshot& group : groups)
        table.add(group);
    return std::move(table).rows();
}

} // namespace groupscope::monitor
