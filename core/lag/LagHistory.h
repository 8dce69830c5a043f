#pragma once

#include "lag/Clock.h"
#include "lag/LagSeriesHistory.h"
#include "lag/LagSeriesKey.h"

#include <QHash>
#include <QList>

#include <optional>

namespace groupscope::monitor {
struct GroupSnapshot;
}

namespace groupscope::lag {

// Lag history of many series (per partition, topic and group), each bounded by
// LagHistoryOptions, so memory stays fixed however long a window stays open. Not thread
// safe: it belongs to the thread that records into it.
class LagHistory {
public:
    // `partitionOptions`, when given, shape the partition series instead of `options`: they
    // outnumber the topic and group series a hundred to one, so they decide the memory.
    explicit LagHistory(const Clock& clock = SystemClock::instance(),
                        LagHistoryOptions options = {},
                        std::optional<LagHistoryOptions> partitionOptions = std::nullopt);

    // False when the sample is older than the series' newest one (ignored).
    bool record(const LagSeriesKey& key, int64_t lag, int64_t timeMs);
    bool record(const LagSeriesKey& key, int64_t lag) { return record(key, lag, m_clock.nowMs()); }
    // Records every partition with a lag value, each topic's sum and the group's sum.
    void recordSnapshot(const monitor::GroupSnapshot& snapshot, int64_t takenAtMs);

    // Sorted by time; empty for an unknown series.
    QList<LagHistoryPoint> points(const LagSeriesKey& key, int64_t fromMs, int64_t toMs) const;
    // The last `duration` up to the clock's now.
    QList<LagHistoryPoint> recentPoints(const LagSeriesKey& key, int64_t durationMs) const;

    bool contains(const LagSeriesKey& key) const { return m_series.contains(key); }
    qsizetype seriesCount() const { return m_series.size(); }
    void remove(const LagSeriesKey& key) { m_series.remove(key); }
    // Drops every series of a group, e.g. once it was deleted.
    void removeGroup(const QString& group);
    void clear() { m_series.clear(); }
    // Heap bytes held by the series' buffers (not counting the hash table itself).
    size_t bufferBytes() const;

private:
    const Clock& m_clock;
    LagHistoryOptions m_options;
    std::optional<LagHistoryOptions> m_partitionOptions;
    QHash<LagSeriesKey, LagSeriesHistory> m_series;
};

} // namespace groupscope::lag
