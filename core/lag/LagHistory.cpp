#include "lag/LagHistory.h"

#include "snapshot/GroupSnapshot.h"

#include <QMap>

namespace groupscope::lag {

LagHistory::LagHistory(const Clock& clock, LagHistoryOptions options,
                       std::optional<LagHistoryOptions> partitionOptions)
    : m_clock(clock)
    , m_options(std::move(options))
    , m_partitionOptions(std::move(partitionOptions)) {}

bool LagHistory::record(const LagSeriesKey& key, int64_t lag, int64_t timeMs) {
    auto it = m_series.find(key);
    if (it == m_series.end())
        it = m_series.insert(
            key, LagSeriesHistory(key.level == LagSeriesKey::Level::Partition && m_partitionOptions
                                      ? *m_partitionOptions
                                      : m_options));
    return it->record(timeMs, lag);
}

void LagHistory::recordSnapshot(const monitor::GroupSnapshot& snapshot, int64_t takenAtMs) {
    const QString& group = snapshot.groupId();
    QMap<QString, int64_t> lagByTopic;
    int64_t groupLag = 0;
    bool anyLag = false;
    for (const monitor::PartitionSnapshot& partition : snapshot.partitions) {
        if (!partition.lag)
            continue; // no commit yet: no lag value to plot
        record(LagSeriesKey::forPartition(group, partition.topicPartition), *partition.lag,
               takenAtMs);
        lagByTopic[partition.topicPartition.topic] += *partition.lag;
        groupLag += *partition.lag;
        anyLag = true;
    }
    for (auto it = lagByTopic.cbegin(); it != lagByTopic.cend(); ++it)
        record(LagSeriesKey::forTopic(group, it.key()), it.value(), takenAtMs);
    if (anyLag)
        record(LagSeriesKey::forGroup(group), groupLag, takenAtMs);
}

QList<LagHistoryPoint> LagHistory::points(const LagSeriesKey& key, int64_t fromMs,
                                          int64_t toMs) const {
    const auto it = m_series.constFind(key);
    return it == m_series.cend() ? QList<LagHistoryPoint>() : it->points(fromMs, toMs);
}

QList<LagHistoryPoint> LagHistory::recentPoints(const LagSeriesKey& key, int64_t durationMs) const {
    const int64_t now = m_clock.nowMs();
    return points(key, now - durationMs, now);
}

void LagHistory::removeGroup(const QString& group) {
    m_series.removeIf([&group](const auto& entry) { return entry.key().group == group; });
}

size_t LagHistory::bufferBytes() const {
    size_t bytes = 0;
    for (const LagSeriesHistory& series : m_series)
        bytes += series.memoryBytes();
    return bytes;
}

} // namespace groupscope::lag
