#include "lag/TimeLagEstimator.h"

#include <QTest>

#include <cmath>

using namespace groupscope::lag;
using groupscope::kafka::TopicPartition;

namespace {

constexpr int64_t start = 1'700'000'000'000;
const TopicPartition orders0{QStringLiteral("orders"), 0};
const TopicPartition orders1{QStringLiteral("orders"), 1};
const QString group = QStringLiteral("payments");

bool near(double actual, double expected) {
    return std::abs(actual - expected) < 1e-6;
}

OffsetTimeTable steadyTable() {
    OffsetTimeTable table;
    table.addPoint(100, 1000);
    table.addPoint(200, 2000);
    table.addPoint(300, 3000);
    return table;
}

} // namespace

Q_DECLARE_METATYPE(OffsetTimeTable::Lookup::Kind)
Q_DECLARE_METATYPE(DrainEstimate::Status)

class TestTimeLagEstimator : public QObject {
    Q_OBJECT
private slots:
    // The log end at a past moment, for measuring a commit's lag when it was made.
    void logEndAtAMomentIsInterpolated() {
        OffsetTimeTable table;
        QVERIFY(!table.offsetAt(1000));
        table.addPoint(100, 10'000);
        table.addPoint(160, 12'000);
        table.addPoint(160, 14'000);
        table.addPoint(220, 16'000);
        QCOMPARE(table.offsetAt(9'000), std::optional<int64_t>(100)); // before: the oldest
        QCOMPARE(table.offsetAt(11'000), std::optional<int64_t>(130));
        QCOMPARE(table.offsetAt(13'000), std::optional<int64_t>(160)); // flat run
        QCOMPARE(table.offsetAt(15'500), std::optional<int64_t>(205));
        QCOMPARE(table.offsetAt(16'000), std::optional<int64_t>(220));
        QVERIFY(!table.offsetAt(16'001)); // newer than every sample: not known yet

        ManualClock clock;
        TimeLagEstimator estimator(clock);
        const TopicPartition partition{QStringLiteral("orders"), 0};
        QVERIFY(!estimator.logEndOffsetAt(partition, 0));
        estimator.recordLogEndOffset(partition, 0, 1000);
        estimator.recordLogEndOffset(partition, 30, 2000);
        QCOMPARE(estimator.logEndOffsetAt(partition, 1500), std::optional<int64_t>(15));
    }

    void tableLookup_data() {
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<OffsetTimeTable::Lookup::Kind>("kind");
        QTest::addColumn<double>("timeMs");
        QTest::addColumn<bool>("extrapolated");
        using Kind = OffsetTimeTable::Lookup::Kind;
        QTest::newRow("between the first two") << qint64(150) << Kind::Predicted << 1500.0 << false;
        QTest::newRow("between the last two") << qint64(275) << Kind::Predicted << 2750.0 << false;
        QTest::newRow("on a sample") << qint64(200) << Kind::Predicted << 2000.0 << false;
        QTest::newRow("older than the table") << qint64(50) << Kind::Predicted << 500.0 << true;
        QTest::newRow("at the newest log end") << qint64(300) << Kind::AtLogEnd << 0.0 << false;
        QTest::newRow("past the newest log end") << qint64(320) << Kind::AtLogEnd << 0.0 << false;
    }
    void tableLookup() {
        QFETCH(qint64, offset);
        QFETCH(OffsetTimeTable::Lookup::Kind, kind);
        QFETCH(double, timeMs);
        QFETCH(bool, extrapolated);
        const auto lookup = steadyTable().lookup(offset);
        QCOMPARE(lookup.kind, kind);
        QVERIFY2(near(lookup.timeMs, timeMs), qPrintable(QString::number(lookup.timeMs)));
        QCOMPARE(lookup.extrapolated, extrapolated);
    }

    void tooFewPointsToInterpolate() {
        OffsetTimeTable table;
        QCOMPARE(table.lookup(5).kind, OffsetTimeTable::Lookup::Kind::TooFewPoints);
        table.addPoint(100, 1000);
        QCOMPARE(table.lookup(50).kind, OffsetTimeTable::Lookup::Kind::TooFewPoints);
        QCOMPARE(table.lookup(100).kind, OffsetTimeTable::Lookup::Kind::AtLogEnd);
    }

    void flatTableMeansNoProductionSeen() {
        OffsetTimeTable table;
        table.addPoint(100, 1000);
        table.addPoint(100, 2000);
        table.addPoint(100, 3000);
        QCOMPARE(table.points().size(), size_t(2)); // the flat run is stretched, not grown
        const auto lookup = table.lookup(40);
        QCOMPARE(lookup.kind, OffsetTimeTable::Lookup::Kind::NoProduction);
        QCOMPARE(lookup.timeMs, 1000.0); // produced before the table began
    }

    void flatRunsAreCompressedAndTheNewestCrossingWins() {
        OffsetTimeTable table;
        table.addPoint(100, 1000);
        table.addPoint(200, 2000);
        table.addPoint(200, 3000);
        table.addPoint(200, 5000);
        table.addPoint(300, 6000);
        QCOMPARE(table.points().size(), size_t(4));
        QCOMPARE(table.points()[2].timeMs, int64_t(5000));
        // The log end sat at 200 until 5000: a commit at 200 is that old, not 2000.
        QVERIFY(near(table.lookup(200).timeMs, 5000.0));
        QVERIFY(near(table.lookup(250).timeMs, 5500.0));
        QVERIFY(near(table.lookup(150).timeMs, 1500.0));
    }

    void samplesOutOfOrderOrGoingBackAreIgnored() {
        OffsetTimeTable table = steadyTable();
        QVERIFY(!table.addPoint(400, 2500)); // older time
        QVERIFY(!table.addPoint(400, 3000)); // same time
        QVERIFY(!table.addPoint(250, 4000)); // lower log end
        QCOMPARE(table.points().size(), size_t(3));
        QVERIFY(table.addPoint(400, 4000));
    }

    void tableIsBounded() {
        OffsetTimeTable table(3);
        for (int i = 1; i <= 6; ++i)
            table.addPoint(100 * i, 1000 * i);
        QCOMPARE(table.points().size(), size_t(3));
        QCOMPARE(table.points().front().offset, int64_t(400));
    }

    void timeLagIsNowMinusInterpolatedTime() {
        ManualClock clock(start);
        TimeLagEstimator estimator(clock);
        estimator.recordLogEndOffset(orders0, 1000, start);
        estimator.recordLogEndOffset(orders0, 2000, start + 10'000);
        estimator.recordLogEndOffset(orders0, 3000, start + 20'000);
        clock.setNowMs(start + 20'000);

        TimeLag lag = estimator.timeLag(orders0, 1500);
        QCOMPARE(lag.status, TimeLag::Status::Estimated);
        QVERIFY(near(lag.seconds, 15.0));
        QVERIFY(!lag.extrapolated);

        clock.advance(std::chrono::seconds(4)); // time lag grows with the clock
        QVERIFY(near(estimator.timeLag(orders0, 1500).seconds, 19.0));

        lag = estimator.timeLag(orders0, 500); // before the table: follow the trend
        QCOMPARE(lag.status, TimeLag::Status::Estimated);
        QVERIFY(lag.extrapolated);
        QVERIFY(near(lag.seconds, 29.0));

        lag = estimator.timeLag(orders0, 3000);
        QCOMPARE(lag.status, TimeLag::Status::CaughtUp);
        QCOMPARE(lag.seconds, 0.0);
        QVERIFY(lag.isKnown());
    }

    void timeLagUnknownOrLowerBound() {
        ManualClock clock(start);
        TimeLagEstimator estimator(clock);
        QCOMPARE(estimator.timeLag(orders0, 10).status, TimeLag::Status::Unknown);
        estimator.recordLogEndOffset(orders0, 500, start);
        QCOMPARE(estimator.timeLag(orders0, 10).status, TimeLag::Status::Unknown);
        QVERIFY(!estimator.timeLag(orders0, 10).isKnown());
        // A quiet topic: the log end does not move, yet the consumer is behind.
        estimator.recordLogEndOffset(orders0, 500, start + 30'000);
        clock.setNowMs(start + 50'000);
        const TimeLag lag = estimator.timeLag(orders0, 10);
        QCOMPARE(lag.status, TimeLag::Status::AtLeast);
        QVERIFY(near(lag.seconds, 50.0));
        QVERIFY(!lag.isKnown());
    }

    void maxTimeLagSkipsUnknownPartitions() {
        ManualClock clock(start + 10'000);
        TimeLagEstimator estimator(clock);
        estimator.recordLogEndOffset(orders0, 0, start);
        estimator.recordLogEndOffset(orders0, 1000, start + 10'000);
        estimator.recordLogEndOffset(orders1, 0, start);
        estimator.recordLogEndOffset(orders1, 100, start + 10'000);
        const TopicPartition unknown{QStringLiteral("audit"), 0};
        const TimeLag worst = estimator.maxTimeLag({{orders0, 900}, {orders1, 20}, {unknown, 5}});
        QCOMPARE(worst.status, TimeLag::Status::Estimated);
        QVERIFY(near(worst.seconds, 8.0)); // orders1 at 20 of 100: produced at start + 2 s
        QCOMPARE(estimator.maxTimeLag({{unknown, 5}}).status, TimeLag::Status::Unknown);
    }

    void ratesOverTheWindow() {
        ManualClock clock(start);
        TimeLagEstimator::Options options;
        options.rateWindow.windowMs = 20'000;
        TimeLagEstimator estimator(clock, options);
        QVERIFY(!estimator.productionRate(orders0).has_value());
        // A burst long ago, then a steady 50 messages/s.
        estimator.recordLogEndOffset(orders0, 0, start);
        estimator.recordLogEndOffset(orders0, 100'000, start + 2000);
        for (int i = 0; i <= 20; ++i) {
            estimator.recordLogEndOffset(orders0, 100'000 + 100 * i, start + 60'000 + 2000 * i);
            estimator.recordCommittedOffset(group, orders0, 90'000 + 150 * i,
                                            start + 60'000 + 2000 * i);
        }
        clock.setNowMs(start + 100'000);
        QVERIFY(near(*estimator.productionRate(orders0), 50.0));
        QVERIFY(near(*estimator.consumptionRate(group, orders0), 75.0));
        QVERIFY(!estimator.consumptionRate(QStringLiteral("other"), orders0).has_value());

        const DrainEstimate drain = estimator.timeToDrain(group, orders0, 10'000);
        QCOMPARE(drain.status, DrainEstimate::Status::Draining);
        QVERIFY(near(drain.seconds, 400.0)); // 10,000 / (75 - 50)

        clock.advance(std::chrono::minutes(5)); // nothing within the window any more
        QVERIFY(!estimator.productionRate(orders0).has_value());
        QCOMPARE(estimator.timeToDrain(group, orders0, 10'000).status,
                 DrainEstimate::Status::Unknown);
    }

    void drainEstimate_data() {
        QTest::addColumn<qint64>("lag");
        QTest::addColumn<double>("consumption"); // negative: unknown
        QTest::addColumn<double>("production");
        QTest::addColumn<DrainEstimate::Status>("status");
        QTest::addColumn<double>("seconds");
        QTest::newRow("draining") << qint64(1000) << 30.0 << 10.0 << DrainEstimate::Status::Draining
                                  << 50.0;
        QTest::newRow("nothing produced")
            << qint64(600) << 20.0 << 0.0 << DrainEstimate::Status::Draining << 30.0;
        QTest::newRow("falling behind")
            << qint64(1000) << 10.0 << 30.0 << DrainEstimate::Status::NotDraining << 0.0;
        QTest::newRow("keeping pace")
            << qint64(1000) << 10.0 << 10.0 << DrainEstimate::Status::NotDraining << 0.0;
        QTest::newRow("no lag") << qint64(0) << -1.0 << 10.0 << DrainEstimate::Status::Drained
                                << 0.0;
        QTest::newRow("no consumption rate yet")
            << qint64(5) << -1.0 << 10.0 << DrainEstimate::Status::Unknown << 0.0;
    }
    void drainEstimate() {
        QFETCH(qint64, lag);
        QFETCH(double, consumption);
        QFETCH(double, production);
        QFETCH(DrainEstimate::Status, status);
        QFETCH(double, seconds);
        const DrainEstimate estimate = TimeLagEstimator::drainEstimate(
            lag, consumption < 0 ? std::nullopt : std::optional<double>(consumption), production);
        QCOMPARE(estimate.status, status);
        QVERIFY(near(estimate.seconds, seconds));
    }

    void removingForgetsState() {
        ManualClock clock(start + 10'000);
        TimeLagEstimator estimator(clock);
        estimator.recordLogEndOffset(orders0, 0, start);
        estimator.recordLogEndOffset(orders0, 100, start + 10'000);
        estimator.recordCommittedOffset(group, orders0, 0, start);
        estimator.recordCommittedOffset(group, orders0, 50, start + 10'000);
        QVERIFY(estimator.consumptionRate(group, orders0).has_value());
        estimator.removeGroup(group);
        QVERIFY(!estimator.consumptionRate(group, orders0).has_value());
        QCOMPARE(estimator.timeLag(orders0, 50).status, TimeLag::Status::Estimated);
        estimator.removePartition(orders0);
        QCOMPARE(estimator.timeLag(orders0, 50).status, TimeLag::Status::Unknown);
    }

    // Consumption windows are kept per group, each group's by partition: every group
    // partition keeps its own rate, whatever order its commits come in, and a removal takes
    // exactly what it names.
    void consumptionRatesAreEachGroupPartitions() {
        ManualClock clock(start + 10'000);
        TimeLagEstimator estimator(clock);
        const QString other = QStringLiteral("audit");
        const TopicPartition billing0{QStringLiteral("billing"), 0};
        // Two commits each, 10 s apart: group on orders-1, billing-0, orders-0 (in that
        // order, so the windows are inserted before and after each other), other on orders-0.
        const QList<QPair<TopicPartition, int64_t>> moves{
            {orders1, 100}, {billing0, 200}, {orders0, 300}};
        for (const auto& [partition, moved] : moves) {
            estimator.recordCommittedOffset(group, partition, 0, start);
            estimator.recordCommittedOffset(group, partition, moved, start + 10'000);
        }
        estimator.recordCommittedOffset(other, orders0, 0, start);
        estimator.recordCommittedOffset(other, orders0, 50, start + 10'000);
        QCOMPARE(estimator.consumptionCount(), 4);
        for (const auto& [partition, moved] : moves)
            QCOMPARE(estimator.consumptionRate(group, partition).value_or(-1), moved / 10.0);
        QCOMPARE(estimator.consumptionRate(other, orders0).value_or(-1), 5.0);
        QVERIFY(!estimator.consumptionRate(other, orders1));

        estimator.removeGroupPartition(group, billing0);
        QVERIFY(!estimator.consumptionRate(group, billing0));
        QCOMPARE(estimator.consumptionRate(group, orders1).value_or(-1), 10.0);
        QCOMPARE(estimator.consumptionCount(), 3);

        // A partition gone from the cluster leaves no group's window of it.
        estimator.removePartition(orders0);
        QVERIFY(!estimator.consumptionRate(group, orders0));
        QVERIFY(!estimator.consumptionRate(other, orders0));
        QCOMPARE(estimator.consumptionRate(group, orders1).value_or(-1), 10.0);
        QCOMPARE(estimator.consumptionCount(), 1);

        estimator.removeGroup(group);
        QCOMPARE(estimator.consumptionCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestTimeLagEstimator)
#include "TestTimeLagEstimator.moc"
