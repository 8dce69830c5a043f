// How much memory the whole monitor needs for a day of live monitoring: GroupMonitor fed
// 24 hours of polls every 2 seconds for 10,000 partitions (10 groups x 10 topics x 100
// partitions), so the lag history, TimeLagEstimator's lookup tables and rate windows,
// HealthEvaluator's commit windows, the commit history and the timeline are all counted,
// not LagHistory alone (BenchLagHistoryMemory). Polling mode: every poll moves every
// committed offset, the worst case for the commit-derived state. Prints figures against
// the goal (under 200 MB); it does not pass or fail on them.
//
// GROUPSCOPE_BENCH_TICKS shortens the run (default 43,200 ticks = 24 h).

#include "BenchFigures.h"
#include "monitor/GroupMonitor.h"

#include <QElapsedTimer>
#include <QList>

#include <cstdio>
#include <cstdlib>

using namespace groupscope;
using groupscope::bench::megabytes;
using groupscope::bench::residentKilobytes;
using namespace groupscope::bench::memoryLayout;

namespace {

constexpr int membersPerGroup = 10;
constexpr int64_t dayTicks = 24LL * 3600 * 1000 / sampleIntervalMs;

monitor::GroupSnapshot makeGroup(int g) {
    monitor::GroupSnapshot snapshot;
    snapshot.description.groupId = QStringLiteral("group-%1").arg(g);
    snapshot.description.state = kafka::GroupState::Stable;
    snapshot.description.protocolType = QStringLiteral("consumer");
    snapshot.description.partitionAssignor = QStringLiteral("range");
    for (int m = 0; m < membersPerGroup; ++m) {
        kafka::MemberDescription member;
        member.memberId = QStringLiteral("consumer-%1-%2-0123456789abcdef").arg(g).arg(m);
        member.clientId = QStringLiteral("consumer-%1-%2").arg(g).arg(m);
        member.host = QStringLiteral("/10.0.0.%1").arg(m);
        snapshot.description.members.append(member);
    }
    // One owner per member, shared by its rows, as GroupInspector makes them.
    QList<monitor::PartitionOwner> owners;
    for (const kafka::MemberDescription& member : std::as_const(snapshot.description.members))
        owners.append(monitor::PartitionOwner(member));
    for (int t = 0; t < topicsPerGroup; ++t) {
        const QString topic = QStringLiteral("topic-%1-%2").arg(g).arg(t);
        for (int p = 0; p < partitionsPerTopic; ++p) {
            monitor::PartitionSnapshot partition;
            partition.topicPartition = {topic, p};
            const int m = (t * partitionsPerTopic + p) % membersPerGroup;
            partition.owner = owners[m];
            partition.logStartOffset = 0;
            snapshot.description.members[m].assignment.append(partition.topicPartition);
            snapshot.partitions.append(partition);
        }
    }
    return snapshot;
}

} // namespace

int main() {
    int64_t ticks = dayTicks;
    if (const char* text = std::getenv("GROUPSCOPE_BENCH_TICKS"))
        ticks = std::max<int64_t>(1, std::atoll(text));

    lag::ManualClock clock;
    const int64_t start = clock.nowMs();
    QList<monitor::GroupSnapshot> groups;
    for (int g = 0; g < groupCount; ++g)
        groups.append(makeGroup(g));

    const long rssBefore = residentKilobytes();
    QElapsedTimer timer;
    timer.start();
    int64_t partitionSamples = 0;
    {
        monitor::GroupMonitor monitor(clock);
        monitor.setStreamState(monitor::GroupMonitor::StreamState::Unavailable,
                               QStringLiteral("bench: polling only"));
        long rssAtHalf = -1;
        for (int64_t tick = 0; tick < ticks; ++tick) {
            clock.setNowMs(start + tick * sampleIntervalMs);
            for (qsizetype g = 0; g < groups.size(); ++g) {
                monitor::GroupSnapshot& snapshot = groups[g];
                for (qsizetype i = 0; i < snapshot.partitions.size(); ++i) {
                    monitor::PartitionSnapshot& partition = snapshot.partitions[i];
                    // 30 msg/s produced; the consumer commits a wandering amount behind.
                    partition.logEndOffset = 60 * tick + i;
                    const int64_t behind = (tick * 7 + i * 13) % 1000;
                    partition.committedOffset =
                        std::max<int64_t>(0, partition.logEndOffset - behind);
                    partition.lag = partition.logEndOffset - *partition.committedOffset;
                }
                monitor.observePoll(snapshot, clock.nowMs());
                partitionSamples += snapshot.partitions.size();
            }
            if (tick == ticks / 2)
                rssAtHalf = residentKilobytes();
        }
        const double seconds = double(timer.nsecsElapsed()) / 1e9;
        const long rssAfter = residentKilobytes();

        QElapsedTimer snapshotTimer;
        snapshotTimer.start();
        const monitor::GroupMonitorSnapshot one = monitor.snapshot(QStringLiteral("group-0"));
        const double snapshotMs = double(snapshotTimer.nsecsElapsed()) / 1e6;

        const double growthMegabytes = megabytes(double(rssAfter - rssBefore));
        std::printf("GroupMonitor memory: %lld polls of 2 s (%.1f h) for %d partitions in %d "
                    "groups, polling mode\n",
                    static_cast<long long>(ticks), double(ticks) * sampleIntervalMs / 3.6e6,
                    groupCount * topicsPerGroup * partitionsPerTopic, groupCount);
        std::printf("  partition samples:       %lld in %.1f s (%.2f us per partition)\n",
                    static_cast<long long>(partitionSamples), seconds,
                    seconds * 1e6 / double(partitionSamples));
        std::printf("  VmRSS before / halfway / end: %.1f MB / %.1f MB / %.1f MB\n",
                    megabytes(rssBefore), megabytes(rssAtHalf), megabytes(rssAfter));
        std::printf("  VmRSS growth:            %.1f MB   (goal: under %.0f MB) %s\n",
                    growthMegabytes, goalMegabytes,
                    growthMegabytes < goalMegabytes ? "MEETS GOAL" : "OVER GOAL");
        std::printf("  of which lag history:    %.1f MB of ring buffers in %lld series\n",
                    double(monitor.lagHistory().bufferBytes()) / (1024.0 * 1024.0),
                    static_cast<long long>(monitor.lagHistory().seriesCount()));
        const monitor::GroupMonitor::Footprint footprint = monitor.footprint();
        std::printf("  held:                    %lld groups, %lld log-end tables, %lld "
                    "consumption rates, %lld lag series\n",
                    static_cast<long long>(footprint.groups),
                    static_cast<long long>(footprint.logEndTables),
                    static_cast<long long>(footprint.consumptionRates),
                    static_cast<long long>(footprint.lagSeries));
        std::printf("  one group's snapshot:    %lld partitions, %lld commits, %.1f ms\n",
                    static_cast<long long>(one.partitions.size()),
                    static_cast<long long>(one.commits.size()), snapshotMs);
    }
    std::printf("  VmRSS after destruction: %.1f MB\n", megabytes(residentKilobytes()));
    return 0;
}
