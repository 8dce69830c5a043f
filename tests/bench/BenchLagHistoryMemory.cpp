// How much memory LagHistory needs for a day of live monitoring: 24 hours of samples
// every 2 seconds for 10,000 partitions (10 groups x 10 topics x 100 partitions), plus
// each topic's and group's series, recorded as the monitor would record them. Prints
// figures against the goal (under 200 MB); it does not pass or fail on them.

#include "BenchFigures.h"
#include "lag/LagHistory.h"

#include <QElapsedTimer>
#include <QList>

#include <cstdio>

using namespace groupscope::lag;
using groupscope::bench::megabytes;
using groupscope::bench::residentKilobytes;
using namespace groupscope::bench::memoryLayout;

namespace {

constexpr int64_t simulatedMs = 24LL * 3600 * 1000;

} // namespace

int main() {
    ManualClock clock;
    const int64_t start = clock.nowMs();

    QList<LagSeriesKey> partitionKeys;
    QList<LagSeriesKey> topicKeys;
    QList<LagSeriesKey> groupKeys;
    for (int g = 0; g < groupCount; ++g) {
        const QString group = QStringLiteral("group-%1").arg(g);
        groupKeys.append(LagSeriesKey::forGroup(group));
        for (int t = 0; t < topicsPerGroup; ++t) {
            const QString topic = QStringLiteral("topic-%1-%2").arg(g).arg(t);
            topicKeys.append(LagSeriesKey::forTopic(group, topic));
            for (int p = 0; p < partitionsPerTopic; ++p)
                partitionKeys.append(
                    LagSeriesKey::forPartition(group, groupscope::kafka::TopicPartition{topic, p}));
        }
    }

    const long rssBefore = residentKilobytes();
    LagHistory history(clock);
    QElapsedTimer timer;
    timer.start();
    int64_t samples = 0;
    for (int64_t tick = 0; tick * sampleIntervalMs < simulatedMs; ++tick) {
        clock.setNowMs(start + tick * sampleIntervalMs);
        // Lags that wander, so buckets see real min/max/mean work.
        int64_t groupLag = 0;
        int64_t topicLag = 0;
        for (qsizetype i = 0; i < partitionKeys.size(); ++i) {
            const int64_t lag = (tick * 7 + i * 13) % 1000;
            history.record(partitionKeys[i], lag);
            topicLag += lag;
            groupLag += lag;
            if ((i + 1) % partitionsPerTopic == 0) {
                history.record(topicKeys[i / partitionsPerTopic], topicLag);
                topicLag = 0;
            }
            if ((i + 1) % (partitionsPerTopic * topicsPerGroup) == 0) {
                history.record(groupKeys[i / (partitionsPerTopic * topicsPerGroup)], groupLag);
                groupLag = 0;
            }
        }
        samples += partitionKeys.size() + topicKeys.size() + groupKeys.size();
    }
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    const long rssAfter = residentKilobytes();

    QElapsedTimer queryTimer;
    queryTimer.start();
    const auto day = history.points(partitionKeys.first(), start, clock.nowMs());
    const double queryMicroseconds = double(queryTimer.nsecsElapsed()) / 1e3;

    const qsizetype series = history.seriesCount();
    const double growthMegabytes = megabytes(double(rssAfter - rssBefore));
    std::printf("LagHistory memory: 24 h of 2 s samples, %lld partitions + %lld topic + %lld "
                "group series\n",
                static_cast<long long>(partitionKeys.size()),
                static_cast<long long>(topicKeys.size()), static_cast<long long>(groupKeys.size()));
    std::printf("  samples recorded:        %lld in %.1f s (%.1f ns per sample)\n",
                static_cast<long long>(samples), seconds, seconds * 1e9 / double(samples));
    std::printf("  VmRSS before / after:    %.1f MB / %.1f MB\n", megabytes(rssBefore),
                megabytes(rssAfter));
    std::printf("  VmRSS growth:            %.1f MB   (goal: under %.0f MB) %s\n", growthMegabytes,
                goalMegabytes, growthMegabytes < goalMegabytes ? "MEETS GOAL" : "OVER GOAL");
    std::printf("  ring buffer bytes:       %.1f MB, %.0f bytes per series\n",
                double(history.bufferBytes()) / (1024.0 * 1024.0),
                double(history.bufferBytes()) / double(series));
    std::printf("  RSS growth per series:   %.0f bytes\n",
                double(rssAfter - rssBefore) * 1024.0 / double(series));
    std::printf("  one series, whole day:   %lld points in %.0f us\n",
                static_cast<long long>(day.size()), queryMicroseconds);
    return 0;
}
