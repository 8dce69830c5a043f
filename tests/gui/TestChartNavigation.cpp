// The range maths of a live time chart without a plot: following "now", zooming, panning,
// the minimum span, resetting, and what the user's drag or wheel does to following.

#include "plots/ChartNavigation.h"

#include <QTest>

#include <cmath>

using groupscope::ui::ChartNavigation;
using Range = ChartNavigation::Range;

namespace {

const double now = 1'773'498'600; // seconds since the epoch
constexpr double maximumSpan = 24 * 3600;
constexpr double margin = ChartNavigation::followMarginShare;

// Two hours of data up to now, followed.
ChartNavigation twoHours() {
    ChartNavigation navigation(maximumSpan);
    navigation.reset(now);
    navigation.setDataExtent(now - 7200, now);
    return navigation;
}

// Within a microsecond: the ranges are sums of seconds since the epoch and spans.
bool near(const Range& actual, const Range& expected) {
    return std::abs(actual.lower - expected.lower) < 1e-6 &&
           std::abs(actual.upper - expected.upper) < 1e-6;
}

} // namespace

class TestChartNavigation : public QObject {
    Q_OBJECT

private slots:
    void startsWithTheDefaultSpanEndingNow() {
        ChartNavigation navigation(maximumSpan);
        navigation.reset(now);
        QVERIFY(navigation.isFollowing());
        QVERIFY(near(navigation.range(), {now - 3600, now}));
        // Without data, following has nothing to move to.
        navigation.setFollowing(true);
        navigation.zoomBy(0.5);
        QVERIFY(near(navigation.range(), {now - 3600, now}));
        QCOMPARE(navigation.span(), 1800.0);
    }

    void followingKeepsTheNewestSampleNearTheRightEdge() {
        ChartNavigation navigation = twoHours();
        QCOMPARE(navigation.range().size(), ChartNavigation::defaultSpanSeconds);
        QCOMPARE(navigation.range().upper, now + 3600 * margin);
        navigation.setDataExtent(now - 7200, now + 2);
        QCOMPARE(navigation.range().upper, now + 2 + 3600 * margin);
    }

    void youngDataFillsAtLeastTwoMinutes() {
        ChartNavigation navigation(maximumSpan);
        navigation.reset(now);
        navigation.setDataExtent(now - 58, now);
        QCOMPARE(navigation.range().size(), ChartNavigation::minimumFollowSpanSeconds);
        QVERIFY(navigation.range().lower < now - 58);
        // Ten minutes fill the view (with the margin each side), not a corner of the hour.
        navigation.setDataExtent(now - 600, now);
        QCOMPARE(navigation.range().size(), 600 / (1 - 2 * margin));
    }

    void zoomingAtNowKeepsFollowingWithinTheLimits() {
        ChartNavigation navigation = twoHours();
        navigation.zoomBy(0.5);
        QVERIFY(navigation.isFollowing());
        QCOMPARE(navigation.range().size(), 1800.0);
        QVERIFY(navigation.range().upper >= now);
        for (int i = 0; i < 20; ++i)
            navigation.zoomBy(0.5);
        QCOMPARE(navigation.span(), ChartNavigation::minimumSpanSeconds);
        for (int i = 0; i < 20; ++i)
            navigation.zoomBy(2);
        QCOMPARE(navigation.span(), maximumSpan);
        // Following shows no more than the data (and its margins), however wide the zoom.
        QCOMPARE(navigation.range().size(), 7200 / (1 - 2 * margin));
    }

    void panningBackStopsFollowingAndReachingNowResumesIt() {
        ChartNavigation navigation = twoHours();
        const Range followed = navigation.range();
        navigation.panBy(-0.25);
        QVERIFY(!navigation.isFollowing());
        QVERIFY(near(navigation.range(), {followed.lower - 900, followed.upper - 900}));
        // New data does not move a view the user chose.
        navigation.setDataExtent(now - 7200, now + 60);
        QVERIFY(near(navigation.range(), {followed.lower - 900, followed.upper - 900}));
        // A zoom away from now is around the view's middle.
        const double center = navigation.range().center();
        navigation.zoomBy(0.5);
        QVERIFY(near(navigation.range(), {center - 900, center + 900}));
        QVERIFY(!navigation.isFollowing());
        navigation.panBy(0.25);
        QVERIFY(!navigation.isFollowing());
        navigation.panBy(2); // past the newest sample: following again, at the zoomed span
        QVERIFY(navigation.isFollowing());
        QVERIFY(
            near(navigation.range(), {now + 60 + 1800 * margin - 1800, now + 60 + 1800 * margin}));
    }

    void theUsersDragOrWheelDecidesFollowing() {
        ChartNavigation navigation = twoHours();
        navigation.userMovedTo({now - 5000, now - 3000});
        QVERIFY(!navigation.isFollowing());
        QVERIFY(near(navigation.range(), {now - 5000, now - 3000}));
        QCOMPARE(navigation.span(), 2000.0);
        // Zoomed in too far: widened to the minimum span around the same middle.
        navigation.userMovedTo({now - 4010, now - 4000});
        QVERIFY(near(navigation.range(), {now - 4020, now - 3990}));
        QVERIFY(!navigation.isFollowing());
        // Dragged until now is in view: following again, keeping the span.
        navigation.userMovedTo({now - 1000, now + 10});
        QVERIFY(navigation.isFollowing());
        QCOMPARE(navigation.range().size(), 1010.0);
        QCOMPARE(navigation.range().upper, now + 1010 * margin);
        // A wheel at the right edge that keeps now in view keeps following, as it left it.
        navigation.userMovedTo({now - 500, now + 1});
        QVERIFY(navigation.isFollowing());
        QVERIFY(near(navigation.range(), {now - 500, now + 1}));
    }

    void resetShowsEverythingAndFollows() {
        ChartNavigation navigation = twoHours();
        navigation.userMovedTo({now - 5000, now - 4000});
        navigation.resetZoom();
        QVERIFY(navigation.isFollowing());
        QVERIFY(navigation.range().lower <= now - 7200);
        QVERIFY(navigation.range().upper >= now);
        // Less data than the default hour: the default hour.
        navigation.setDataExtent(now - 100, now);
        navigation.resetZoom();
        QCOMPARE(navigation.span(), ChartNavigation::defaultSpanSeconds);
        // A day of data is all in view, wider than the zoom limit.
        navigation.setDataExtent(now - maximumSpan, now);
        navigation.resetZoom();
        QVERIFY(navigation.range().lower <= now - maximumSpan);
        QVERIFY(navigation.range().upper >= now);
        // A reset forgets the data and the zoom.
        navigation.reset(now + 5);
        QVERIFY(near(navigation.range(), {now + 5 - 3600, now + 5}));
        QCOMPARE(navigation.span(), ChartNavigation::defaultSpanSeconds);
    }
};

QTEST_GUILESS_MAIN(TestChartNavigation)
#include "TestChartNavigation.moc"
