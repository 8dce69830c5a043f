#pragma once

#include "snapshot/LagSparkline.h"

#include <QHash>
#include <QString>

#include <cstdint>

namespace groupscope::monitor {

// The group list's sparkline of every group: its total lag at its last polls, oldest first.
// Each group's is kept as the very list the views hand the list's rows, so the newest view
// shares it until the next poll. It was a time-stamped ring per group, copied into a new
// list for every view: at 100,000 groups the rings and their keys took 116 MB and each
// view's copies another 50 (heaptrack of BenchGuiTenThousandGroups).
class GroupSparklines {
public:
    explicit GroupSparklines(int samples)
        : m_samples(samples < 1 ? 1 : samples) {}

    // False when the poll is older than the group's newest one (ignored).
    bool record(const QString& group, int64_t totalLag, int64_t timeMs);
    // Empty for a group with no poll recorded.
    LagSparkline recent(const QString& group) const { return m_groups.value(group).totals; }
    void removeGroup(const QString& group) { m_groups.remove(group); }
    void clear() { m_groups.clear(); }
    qsizetype groupCount() const { return m_groups.size(); }

private:
    struct Series {
        LagSparkline totals;
        int64_t newestMs = 0;
    };
    int m_samples;
    QHash<QString, Series> m_groups;
};

} // namespace groupscope::monitor
