#pragma once

#include <QList>
#include <QMap>
#include <QString>

#include <cstdint>

namespace groupscope::lag {

// A group's lag at a run of past moments, column by column (entry i of every column belongs
// to timesMs[i]), the shape a chart draws from: the group's total, each topic's sum and the
// worst partition's time lag. Columns are implicitly shared QLists, so a snapshot carrying a
// trail copies a few pointers, not the points.
struct LagTrail {
    QList<int64_t> timesMs; // ascending
    QList<int64_t> totalLag;
    QMap<QString, QList<int64_t>> topicLag;
    QList<double> maxTimeLagSeconds; // NaN where no partition's time lag could be estimated

    bool isEmpty() const { return timesMs.isEmpty(); }
    qsizetype size() const { return timesMs.size(); }
};

} // namespace groupscope::lag
