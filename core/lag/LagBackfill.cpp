#include "lag/LagBackfill.h"

#include "lag/OffsetTimeTable.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace groupscope::lag {

using kafka::TopicPartition;

LagBackfill::LagBackfill(int64_t stepMs, int64_t windowMs)
    : m_stepMs(std::max<int64_t>(stepMs, 1))
    , m_windowSteps(std::max<int64_t>(windowMs, 0) / m_stepMs) {}

int64_t LagBackfill::gridIndexAtOrAfter(int64_t timeMs) const {
    // Ceiling division that also holds for negative times.
    const int64_t quotient = timeMs / m_stepMs;
    return quotient * m_stepMs < timeMs ? quotient + 1 : quotient;
}

void LagBackfill::recordCommit(const TopicPartition& partition, int64_t offset, int64_t timeMs) {
    // A later commit in the same step replaces the earlier one: only the offset standing at
    // the grid moment matters.
    std::map<int64_t, int64_t>& commits = m_commits[partition];
    const int64_t index = gridIndexAtOrAfter(timeMs);
    commits[index] = offset;
    // Keep the last entry at or before the window's start: the offset standing then.
    auto keepFrom = commits.upper_bound(commits.rbegin()->first - m_windowSteps);
    if (keepFrom != commits.begin())
        --keepFrom;
    commits.erase(commits.begin(), keepFrom);
}

int64_t LagBackfill::committedAt(const std::map<int64_t, int64_t>& commits, int64_t index) const {
    auto it = commits.upper_bound(index);
    if (it == commits.begin())
        return -1;
    return std::prev(it)->second;
}

QList<int64_t> LagBackfill::sampleTimes(int64_t windowStartMs, int64_t untilMs) const {
    int64_t first = gridIndexAtOrAfter(windowStartMs);
    for (const std::map<int64_t, int64_t>& commits : m_commits)
        if (!commits.empty())
            first = std::max(first, commits.begin()->first);
    QList<int64_t> times;
    for (int64_t index = first; index * m_stepMs <= untilMs; ++index)
        times.append(index * m_stepMs);
    return times;
}

LagTrail LagBackfill::build(const QList<int64_t>& times,
                            const QHash<TopicPartition, QList<int64_t>>& logEnds,
                            const QHash<TopicPartition, int64_t>& currentCommitted) const {
    LagTrail trail;
    QList<TopicPartition> partitions = currentCommitted.keys();
    for (const TopicPartition& partition : m_commits.keys())
        if (!currentCommitted.contains(partition))
            partitions.append(partition);
    std::sort(partitions.begin(), partitions.end());
    partitions.erase(std::remove_if(partitions.begin(), partitions.end(),
                                    [&](const TopicPartition& partition) {
                                        return logEnds.value(partition).size() < times.size();
                                    }),
                     partitions.end());
    if (times.isEmpty() || partitions.isEmpty())
        return trail;

    trail.timesMs = times;
    trail.totalLag.fill(0, times.size());
    trail.maxTimeLagSeconds.fill(std::numeric_limits<double>::quiet_NaN(), times.size());
    for (const TopicPartition& partition : partitions)
        trail.topicLag[partition.topic].fill(0, times.size());

    for (const TopicPartition& partition : partitions) {
        const QList<int64_t>& ends = logEnds[partition];
        const auto replayed = m_commits.constFind(partition);
        QList<int64_t>& topicColumn = trail.topicLag[partition.topic];
        OffsetTimeTable logEndTimes(int(times.size()) + 1);
        for (qsizetype i = 0; i < times.size(); ++i) {
            const int64_t committed = replayed != m_commits.cend()
                                          ? committedAt(*replayed, times[i] / m_stepMs)
                                          : currentCommitted.value(partition, -1);
            logEndTimes.addPoint(ends[i], times[i]);
            if (committed < 0)
                continue;
            // Producer timestamps can put a few records on the wrong side of t; a lag below
            // zero would only be that estimation error.
            const int64_t lag = std::max<int64_t>(0, ends[i] - committed);
            trail.totalLag[i] += lag;
            topicColumn[i] += lag;
            const OffsetTimeTable::Lookup lookup = logEndTimes.lookup(committed);
            double seconds = std::numeric_limits<double>::quiet_NaN();
            if (lookup.kind == OffsetTimeTable::Lookup::Kind::AtLogEnd)
                seconds = 0;
            else if (lookup.kind == OffsetTimeTable::Lookup::Kind::Predicted)
                seconds = std::max(0.0, (double(times[i]) - lookup.timeMs) / 1000.0);
            double& worst = trail.maxTimeLagSeconds[i];
            if (!std::isnan(seconds) && (std::isnan(worst) || seconds > worst))
                worst = seconds;
        }
    }
    return trail;
}

} // namespace groupscope::lag
