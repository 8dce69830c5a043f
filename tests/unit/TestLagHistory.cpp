#include "lag/LagHistory.h"
#include "snapshot/GroupSnapshot.h"

#include <QTest>

#include <cmath>

using namespace groupscope::lag;
using groupscope::kafka::TopicPartition;

namespace {

// A start aligned to every bucket width used below, so bucket boundaries are predictable.
constexpr int64_t alignedStart = 60'000LL * 1'000'000;

const QString group = QStringLiteral("payments");
const LagSeriesKey partitionKey =
    LagSeriesKey::forPartition(group, TopicPartition{QStringLiteral("orders"), 0});

LagHistoryOptions smallOptions() {
    LagHistoryOptions options;
    options.rawSampleCount = 5;
    options.tiers = {{10'000, 6}, {60'000, 10}};
    return options;
}

groupscope::monitor::PartitionSnapshot partition(const QString& topic, int32_t index,
                                                 std::optional<int64_t> lag) {
    groupscope::monitor::PartitionSnapshot snapshot;
    snapshot.topicPartition = {topic, index};
    if (lag) {
        snapshot.committedOffset = 100;
        snapshot.logEndOffset = 100 + *lag;
        snapshot.lag = lag;
    }
    return snapshot;
}

} // namespace

class TestLagHistory : public QObject {
    Q_OBJECT
private slots:
    // Partition series may take a leaner shape than topic and group series: they decide
    // the memory of a monitor watching thousands of partitions.
    void partitionSeriesCanHaveTheirOwnShape() {
        ManualClock clock;
        LagHistoryOptions lean;
        lean.rawSampleCount = 10;
        lean.tiers.clear();
        LagHistory history(clock, LagHistoryOptions(), lean);
        const auto partition =
            LagSeriesKey::forPartition(QStringLiteral("g"), TopicPartition{QStringLiteral("t"), 0});
        const auto group = LagSeriesKey::forGroup(QStringLiteral("g"));
        for (int i = 0; i < 100; ++i) {
            history.record(partition, i, clock.nowMs() + 2000 * i);
            history.record(group, i, clock.nowMs() + 2000 * i);
        }
        const int64_t end = clock.nowMs() + 200'000;
        QCOMPARE(history.points(partition, 0, end).size(), 10);
        QVERIFY(history.points(group, 0, end).size() > 10);
    }

    void youngSeriesIsAllRawSamples() {
        ManualClock clock(alignedStart);
        LagHistory history(clock);
        for (int i = 0; i < 10; ++i)
            QVERIFY(history.record(partitionKey, 50 + i, alignedStart + 2000 * i));
        const auto points = history.points(partitionKey, alignedStart, alignedStart + 60'000);
        QCOMPARE(points.size(), 10);
        for (int i = 0; i < 10; ++i) {
            QCOMPARE(points[i].timeMs, alignedStart + 2000 * i);
            QCOMPARE(points[i].resolutionMs, int64_t(0));
            QCOMPARE(points[i].last, double(50 + i));
            QCOMPARE(points[i].min, points[i].max);
        }
    }

    void olderSampleThanTheNewestIsIgnored() {
        LagHistory history(SystemClock::instance());
        QVERIFY(history.record(partitionKey, 1, alignedStart + 10'000));
        QVERIFY(!history.record(partitionKey, 2, alignedStart + 5'000));
        QVERIFY(history.record(partitionKey, 3, alignedStart + 10'000)); // same time is fine
        const auto points = history.points(partitionKey, 0, alignedStart * 2);
        QCOMPARE(points.size(), 2);
        QCOMPARE(points[0].last, 1.0);
        QCOMPARE(points[1].last, 3.0);
    }

    void queryReturnsOnlyTheRange() {
        LagHistory history(SystemClock::instance());
        for (int i = 0; i < 20; ++i)
            history.record(partitionKey, i, alignedStart + 1000 * i);
        const auto points = history.points(partitionKey, alignedStart + 5000, alignedStart + 8000);
        QCOMPARE(points.size(), 4);
        QCOMPARE(points.first().timeMs, alignedStart + 5000);
        QCOMPARE(points.last().timeMs, alignedStart + 8000);
        QVERIFY(history.points(partitionKey, alignedStart + 9000, alignedStart + 8000).isEmpty());
        QVERIFY(history.points(LagSeriesKey::forGroup(QStringLiteral("other")), 0, alignedStart * 2)
                    .isEmpty());
    }

    // 100 samples every 2 s (lag 100, 101, ...) through 5 raw slots, 10 s buckets for a
    // minute and 60 s buckets: old data comes back aggregated, recent data raw, each time
    // range from exactly one tier.
    void olderPointsComeBackAggregatedWithoutOverlap() {
        LagHistory history(SystemClock::instance(), smallOptions());
        for (int i = 0; i < 100; ++i)
            history.record(partitionKey, 100 + i, alignedStart + 2000 * i);
        const auto points = history.points(partitionKey, 0, alignedStart * 2);
        QCOMPARE(points.size(), 3 + 1 + 5);

        for (int minute = 0; minute < 3; ++minute) {
            const LagHistoryPoint& bucket = points[minute];
            QCOMPARE(bucket.timeMs, alignedStart + 60'000 * minute);
            QCOMPARE(bucket.resolutionMs, int64_t(60'000));
            QCOMPARE(bucket.min, 100.0 + 30 * minute);
            QCOMPARE(bucket.max, 129.0 + 30 * minute);
            QCOMPARE(bucket.last, 129.0 + 30 * minute);
            QVERIFY(std::abs(bucket.mean - (114.5 + 30 * minute)) < 1e-3);
        }
        const LagHistoryPoint& tenSeconds = points[3];
        QCOMPARE(tenSeconds.timeMs, alignedStart + 180'000);
        QCOMPARE(tenSeconds.resolutionMs, int64_t(10'000));
        QCOMPARE(tenSeconds.min, 190.0);
        QCOMPARE(tenSeconds.max, 194.0);
        QVERIFY(std::abs(tenSeconds.mean - 192.0) < 1e-3);
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(points[4 + i].timeMs, alignedStart + 190'000 + 2000 * i);
            QCOMPARE(points[4 + i].resolutionMs, int64_t(0));
            QCOMPARE(points[4 + i].last, double(195 + i));
        }
        for (int i = 1; i < points.size(); ++i)
            QVERIFY2(points[i].timeMs >= points[i - 1].timeMs + points[i - 1].resolutionMs,
                     qPrintable(QStringLiteral("overlap before point %1").arg(i)));
    }

    void silenceStaysAGapNotStaleBuckets() {
        LagHistory history(SystemClock::instance(), smallOptions());
        for (int i = 0; i < 6; ++i)
            history.record(partitionKey, 7, alignedStart + 2000 * i);
        // Nothing for five minutes, then more samples.
        for (int i = 0; i < 6; ++i)
            history.record(partitionKey, 9, alignedStart + 300'000 + 2000 * i);
        const auto points = history.points(partitionKey, 0, alignedStart * 2);
        for (const LagHistoryPoint& point : points)
            QVERIFY2(point.timeMs < alignedStart + 60'000 || point.timeMs >= alignedStart + 300'000,
                     qPrintable(QString::number(point.timeMs - alignedStart)));
        QCOMPARE(points.first().last, 7.0);
        QCOMPARE(points.last().last, 9.0);
    }

    void memoryIsBoundedWhateverTheDuration() {
        LagHistory history(SystemClock::instance());
        int64_t time = alignedStart;
        for (int i = 0; i < 10'000; ++i, time += 2000)
            history.record(partitionKey, i, time);
        const size_t afterFiveHours = history.bufferBytes();
        // 300 raw samples, 360 + 336 buckets, all preallocated once used.
        QVERIFY(afterFiveHours >= (300 + 360 + 336) * 16);
        QVERIFY(afterFiveHours < 17 * 1024);
        for (int i = 0; i < 400'000; ++i, time += 2000) // about nine more days
            history.record(partitionKey, i, time);
        QCOMPARE(history.bufferBytes(), afterFiveHours);
        // After nine days the oldest points are the coarsest and no older than a week.
        const auto points = history.points(partitionKey, 0, time);
        QCOMPARE(points.first().resolutionMs, int64_t(1'800'000));
        QVERIFY(time - points.first().timeMs <= 7LL * 24 * 3600 * 1000 + 1'800'000);
        QCOMPARE(points.last().resolutionMs, int64_t(0));
    }

    void largeLagsStayCloseInAggregates() {
        LagHistory history(SystemClock::instance(), smallOptions());
        const int64_t hugeLag = int64_t(1) << 40;
        for (int i = 0; i < 50; ++i)
            history.record(partitionKey, hugeLag + i, alignedStart + 2000 * i);
        const auto points = history.points(partitionKey, 0, alignedStart * 2);
        QCOMPARE(points.first().resolutionMs, int64_t(60'000));
        QVERIFY(std::abs(points.first().max - double(hugeLag)) / double(hugeLag) < 1e-6);
        QCOMPARE(points.last().last, double(hugeLag + 49)); // raw samples are exact
    }

    void snapshotRecordsPartitionsTopicsAndGroup() {
        ManualClock clock(alignedStart);
        LagHistory history(clock);
        groupscope::monitor::GroupSnapshot snapshot;
        snapshot.description.groupId = group;
        snapshot.partitions = {partition(QStringLiteral("audit"), 0, std::nullopt),
                               partition(QStringLiteral("orders"), 0, 5),
                               partition(QStringLiteral("orders"), 1, 7)};
        history.recordSnapshot(snapshot, alignedStart);
        QCOMPARE(history.seriesCount(), qsizetype(4));
        QVERIFY(!history.contains(
            LagSeriesKey::forPartition(group, TopicPartition{QStringLiteral("audit"), 0})));
        QVERIFY(!history.contains(LagSeriesKey::forTopic(group, QStringLiteral("audit"))));
        const auto topic =
            history.recentPoints(LagSeriesKey::forTopic(group, QStringLiteral("orders")), 1000);
        QCOMPARE(topic.size(), 1);
        QCOMPARE(topic.first().last, 12.0);
        const auto total = history.recentPoints(LagSeriesKey::forGroup(group), 1000);
        QCOMPARE(total.size(), 1);
        QCOMPARE(total.first().last, 12.0);
        QCOMPARE(history.recentPoints(partitionKey, 1000).first().last, 5.0);
    }

    void recordWithoutTimeUsesTheClock() {
        ManualClock clock(alignedStart);
        LagHistory history(clock);
        history.record(partitionKey, 1);
        clock.advance(std::chrono::seconds(30));
        history.record(partitionKey, 2);
        clock.advance(std::chrono::seconds(30));
        const auto lastMinute = history.recentPoints(partitionKey, 45'000);
        QCOMPARE(lastMinute.size(), 1);
        QCOMPARE(lastMinute.first().timeMs, alignedStart + 30'000);
        QCOMPARE(history.recentPoints(partitionKey, 60'000).size(), 2);
    }

    void removeGroupDropsItsSeries() {
        LagHistory history(SystemClock::instance());
        history.record(partitionKey, 1, alignedStart);
        history.record(LagSeriesKey::forGroup(group), 1, alignedStart);
        history.record(LagSeriesKey::forGroup(QStringLiteral("other")), 1, alignedStart);
        history.removeGroup(group);
        QCOMPARE(history.seriesCount(), qsizetype(1));
        QVERIFY(history.contains(LagSeriesKey::forGroup(QStringLiteral("other"))));
    }
};

QTEST_GUILESS_MAIN(TestLagHistory)
#include "TestLagHistory.moc"
