#pragma once
// Small helpers the benchmarks share: resident memory and percentiles of timings.

#include <QFile>
#include <QList>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace groupscope::bench {

// Resident set size in kB of this process (or of process `pid`) from /proc, or -1 where
// that does not exist.
inline long residentKilobytes(qint64 pid = 0) {
    QFile status(pid > 0 ? QStringLiteral("/proc/%1/status").arg(pid)
                         : QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLong();
    return -1;
}

inline double megabytes(double kilobytes) {
    return kilobytes / 1024.0;
}

// The p-th percentile (0..100) by nearest rank; 0 for no values.
inline double percentile(QList<double> values, double p) {
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    const auto rank = qsizetype(std::ceil(p / 100.0 * double(values.size())));
    return values.at(std::clamp<qsizetype>(rank - 1, 0, values.size() - 1));
}

// The memory benchmarks' cluster: 10 groups x 10 topics x 100 partitions = 10,000
// partitions, sampled every 2 s, against the 200 MB budget of the monitor.
namespace memoryLayout {
constexpr int groupCount = 10;
constexpr int topicsPerGroup = 10;
constexpr int partitionsPerTopic = 100;
constexpr int64_t sampleIntervalMs = 2000;
constexpr double goalMegabytes = 200;
} // namespace memoryLayout

} // namespace groupscope::bench
