// The lag chart's series without a widget: live samples per series, the rebuilt history
// before the first live sample (live wins), replacing it, the day's retention in batches,
// and the revision a view uses to know when it must copy everything again.

#include "lag/LagChartSeries.h"

#include <QTest>

#include <cmath>

using namespace groupscope;
using lag::LagChartPoint;
using lag::LagChartPoints;
using lag::LagChartSample;
using lag::LagChartSeries;

namespace {

const QString orders = QStringLiteral("orders");
const QString refunds = QStringLiteral("refunds");
const int64_t t0 = 1'773'498'600'000; // 2026-03-14 14:30 UTC

LagChartSample sample(int64_t atMs, const QMap<QString, int64_t>& topicLag,
                      double timeLag = std::nan("")) {
    LagChartSample s;
    s.timeMs = atMs;
    for (const int64_t lag : topicLag)
        s.totalLag += lag;
    s.topicLag = topicLag;
    s.maxTimeLagSeconds = timeLag;
    return s;
}

// `count` points every 30 s ending at `endMs`; orders falls towards the end.
lag::LagTrail trail(int64_t endMs, int count, int64_t ordersLag = 100) {
    lag::LagTrail history;
    for (int i = count - 1; i >= 0; --i) {
        history.timesMs.append(endMs - i * 30'000);
        history.topicLag[orders].append(ordersLag + i);
        history.topicLag[refunds].append(7);
        history.totalLag.append(ordersLag + i + 7);
        history.maxTimeLagSeconds.append(40.0 + i);
    }
    return history;
}

double seconds(int64_t ms) {
    return double(ms) / 1000.0;
}

QList<double> keysOf(const LagChartPoints& points) {
    QList<double> keys;
    for (const LagChartPoint& point : points)
        keys.append(point.key);
    return keys;
}

QList<double> valuesOf(const LagChartPoints& points) {
    QList<double> values;
    for (const LagChartPoint& point : points)
        values.append(point.value);
    return values;
}

} // namespace

class TestLagChartSeries : public QObject {
    Q_OBJECT

private slots:
    void liveSamplesGoIntoEverySeries() {
        LagChartSeries series;
        QVERIFY(series.isEmpty());
        QVERIFY(std::isnan(series.newestKey()));
        QVERIFY(series.appendLive(sample(t0, {{orders, 100}, {refunds, 3}}, 12.5)));
        QVERIFY(series.appendLive(sample(t0 + 2000, {{orders, 250}})));
        QCOMPARE(keysOf(series.total()), (QList<double>{seconds(t0), seconds(t0 + 2000)}));
        QCOMPARE(valuesOf(series.total()), (QList<double>{103, 250}));
        QCOMPARE(series.topics().keys(), (QList<QString>{orders, refunds}));
        QCOMPARE(valuesOf(series.topics()[orders]), (QList<double>{100, 250}));
        // A topic missing from a poll gets no point there, not a zero.
        QCOMPARE(keysOf(series.topics()[refunds]), QList<double>{seconds(t0)});
        QCOMPARE(series.timeLag().size(), size_t(2));
        QCOMPARE(series.timeLag()[0].value, 12.5);
        QVERIFY(std::isnan(series.timeLag()[1].value)); // unknown: a gap
        QCOMPARE(series.oldestKey(), seconds(t0));
        QCOMPARE(series.newestKey(), seconds(t0 + 2000));
        QVERIFY(!series.historySpan()); // nothing rebuilt
    }

    void lateAndRepeatedSamplesAreRefused() {
        LagChartSeries series;
        QVERIFY(series.appendLive(sample(t0, {{orders, 5}})));
        const uint64_t revision = series.revision();
        QVERIFY(!series.appendLive(sample(t0, {{orders, 6}})));
        QVERIFY(!series.appendLive(sample(t0 - 2000, {{orders, 9}})));
        QCOMPARE(valuesOf(series.total()), QList<double>{5});
        QCOMPARE(series.revision(), revision); // appending is not a rewrite
    }

    void historyFillsTheTimeBeforeTheFirstLiveSample() {
        LagChartSeries series;
        series.appendLive(sample(t0, {{orders, 300}, {refunds, 7}}, 5));
        const uint64_t before = series.revision();
        // An hour up to 15 s after the first live sample: the point after it gives way.
        QVERIFY(series.setHistory(trail(t0 + 15'000, 121)));
        QVERIFY(series.revision() != before);
        const QList<double> keys = keysOf(series.total());
        QCOMPARE(keys.size(), 121);
        QCOMPARE(keys.first(), seconds(t0 + 15'000 - 120 * 30'000));
        QCOMPARE(keys.at(119), seconds(t0 - 15'000));
        QCOMPARE(keys.last(), seconds(t0));
        QCOMPARE(series.total().front().value, double(100 + 120 + 7));
        QCOMPARE(series.timeLag().front().value, 40.0 + 120);
        QCOMPARE(series.topics()[refunds].size(), size_t(121));
        const auto span = series.historySpan();
        QVERIFY(span);
        QCOMPARE(span->start, keys.first());
        QCOMPARE(span->end, seconds(t0));

        // The same trail again changes nothing; a newer one replaces the old, no doubles.
        const uint64_t applied = series.revision();
        QVERIFY(!series.setHistory(trail(t0 + 15'000, 121)));
        QCOMPARE(series.revision(), applied);
        QVERIFY(series.setHistory(trail(t0 - 60'000, 10, 5000)));
        QCOMPARE(series.total().size(), size_t(10 + 1));
        QCOMPARE(series.total().front().value, double(5000 + 9 + 7));
        QCOMPARE(series.total().back().value, 307.0);
        QCOMPARE(series.topics()[orders].size(), size_t(11));
    }

    void historyBeforeAnyLiveSampleIsKeptWholeUntilALiveSampleOverlapsIt() {
        LagChartSeries series;
        QVERIFY(series.setHistory(trail(t0, 5)));
        QCOMPARE(series.total().size(), size_t(5));
        QCOMPARE(series.historySpan()->end, seconds(t0)); // its own last point
        // A first live sample inside the history: the rebuilt points from there on go.
        const uint64_t before = series.revision();
        QVERIFY(series.appendLive(sample(t0 - 45'000, {{orders, 1}})));
        QVERIFY(series.revision() != before);
        QCOMPARE(keysOf(series.total()),
                 (QList<double>{seconds(t0 - 120'000), seconds(t0 - 90'000), seconds(t0 - 60'000),
                                seconds(t0 - 45'000)}));
        QCOMPARE(series.topics()[refunds].size(), size_t(3));
        QCOMPARE(series.historySpan()->end, seconds(t0 - 45'000));
    }

    void samplesOlderThanADayGoInBatches() {
        LagChartSeries series;
        series.appendLive(sample(t0, {{orders, 10}, {refunds, 1}}));
        series.appendLive(sample(t0 + 2000, {{orders, 10}}));
        const uint64_t revision = series.revision();
        // A day later, but within the batch: nothing goes yet.
        series.appendLive(sample(t0 + LagChartSeries::retentionMs + 4000, {{orders, 10}}));
        QCOMPARE(series.total().size(), size_t(3));
        // A day and a batch later: both old samples go, in every series.
        const int64_t late =
            t0 + LagChartSeries::retentionMs + LagChartSeries::expiryBatchMs + 2001;
        series.appendLive(sample(late, {{orders, 10}}));
        QCOMPARE(keysOf(series.total()),
                 (QList<double>{seconds(t0 + LagChartSeries::retentionMs + 4000), seconds(late)}));
        QCOMPARE(series.topics()[orders].size(), size_t(2));
        QVERIFY(series.topics()[refunds].empty());
        QCOMPARE(series.timeLag().size(), size_t(2));
        // Expiry only takes from the start: a view sees it from the first key.
        QCOMPARE(series.revision(), revision);
    }

    void clearForgetsEverything() {
        LagChartSeries series;
        series.setHistory(trail(t0 - 30'000, 4));
        series.appendLive(sample(t0, {{orders, 10}}));
        const uint64_t before = series.revision();
        series.clear();
        QVERIFY(series.revision() != before);
        QVERIFY(series.isEmpty());
        QVERIFY(series.timeLag().empty());
        QVERIFY(series.topics().isEmpty());
        QVERIFY(!series.historySpan());
        // The same trail is news after a clear, and any time is live again.
        QVERIFY(series.setHistory(trail(t0 - 30'000, 4)));
        QVERIFY(series.appendLive(sample(t0 - 45'000, {{orders, 1}})));
        QCOMPARE(series.total().size(), size_t(4));
    }
};

QTEST_GUILESS_MAIN(TestLagChartSeries)
#include "TestLagChartSeries.moc"
