#pragma once

#include "lag/LagTrail.h"

#include <QMap>
#include <QString>

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace groupscope::lag {

// One point of a chart series. Keys are seconds since the epoch, the unit of a chart's time
// axis, so views copy points without converting each one.
struct LagChartPoint {
    double key = 0;
    double value = 0;

    friend bool operator==(const LagChartPoint&, const LagChartPoint&) = default;
};
using LagChartPoints = std::vector<LagChartPoint>;

// One live poll of a group as a lag chart takes it.
struct LagChartSample {
    int64_t timeMs = 0;
    int64_t totalLag = 0;
    QMap<QString, int64_t> topicLag; // topics without any partition's lag are absent
    double maxTimeLagSeconds = std::numeric_limits<double>::quiet_NaN(); // NaN: unknown
};

// The series a group's lag chart draws: the total, each topic's sum and the worst partition's
// time lag, live samples after the history rebuilt from the offsets topic, for the last day.
//
// Rebuilt and live points never overlap: the history only fills the time before the first
// live sample ("live wins"). A view copies the points it does not have yet; revision()
// tells it when points changed anywhere but at the ends, so it must copy everything again.
class LagChartSeries {
public:
    // A day of 2 s samples is 43,200 points per series.
    static constexpr int64_t retentionMs = 24LL * 3600 * 1000;
    // Expired points go in batches, so a view rebuilds what it derived from them (the
    // chart's envelopes) every ten minutes rather than on every poll.
    static constexpr int64_t expiryBatchMs = 10LL * 60 * 1000;

    // False when the sample is not newer than the last live one (nothing added).
    bool appendLive(const LagChartSample& sample);
    // Replaces the rebuilt history; false when it is the one already applied.
    bool setHistory(const LagTrail& trail);
    void clear();

    const LagChartPoints& total() const { return m_total; }
    const LagChartPoints& timeLag() const { return m_timeLag; }
    // By topic name; a topic that appears later starts where it appeared.
    const QMap<QString, LagChartPoints>& topics() const { return m_topics; }

    bool isEmpty() const { return m_total.empty(); }
    // Keys of the oldest and newest point of the total; NaN when empty.
    double oldestKey() const;
    double newestKey() const;
    // Where the rebuilt history is drawn: from its first point to the first live sample
    // (or its own last point before any); nothing without a history.
    struct KeySpan {
        double start = 0;
        double end = 0;
    };
    std::optional<KeySpan> historySpan() const;

    // Bumped whenever points were inserted or removed other than appended at the end or
    // expired at the start (a new history, a clear).
    uint64_t revision() const { return m_revision; }

private:
    // Every series' points, the total first.
    std::vector<LagChartPoints*> allSeries();
    void removeFrom(double key);
    void dropExpired();

    LagChartPoints m_total;
    LagChartPoints m_timeLag;
    QMap<QString, LagChartPoints> m_topics;
    LagTrail m_history; // as last applied, to notice a new one
    double m_firstLiveKey = std::numeric_limits<double>::quiet_NaN();
    double m_lastLiveKey = std::numeric_limits<double>::quiet_NaN();
    uint64_t m_revision = 0;
};

} // namespace groupscope::lag
