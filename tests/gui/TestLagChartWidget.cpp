// The lag chart fed with synthetic GroupMonitorSnapshots, offscreen: what each series holds,
// the rebuilt history before the first live sample, following "now" against the user's
// zoom and pan, the hover read-out's text, legend toggling, PNG export and the palette.
// With GROUPSCOPE_SCREENSHOT_DIR set, it also leaves light and dark renders of a realistic
// hour there for a person to look at.

#include "dialogs/FileChooser.h"
#include "plots/ChartText.h"
#include "plots/SeriesEnvelope.h"
#include "widgets/LagChartWidget.h"

#include <librdkafka/rdkafka.h>

#include <qcustomplot.h>

#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <cmath>

using namespace groupscope;
using monitor::GroupMonitorSnapshot;
using ui::LagChartWidget;

namespace {

const QString group = QStringLiteral("billing");
const QString orders = QStringLiteral("orders");
const QString payments = QStringLiteral("payments");
const QString refunds = QStringLiteral("refunds");
// A fixed moment, so expected times do not depend on when the test runs.
const int64_t t0 = QDateTime(QDate(2026, 3, 14), QTime(14, 30)).toMSecsSinceEpoch();

// One poll: each topic's lag split over two partitions.
GroupMonitorSnapshot sample(int64_t atMs, const QMap<QString, int64_t>& lagByTopic,
                            std::optional<double> timeLagSeconds = std::nullopt) {
    GroupMonitorSnapshot snapshot;
    snapshot.group = group;
    snapshot.takenAtMs = atMs;
    snapshot.exists = true;
    for (auto it = lagByTopic.cbegin(); it != lagByTopic.cend(); ++it) {
        for (int partition = 0; partition < 2; ++partition) {
            monitor::MonitoredPartition row;
            row.topicPartition = {it.key(), partition};
            row.lag = partition == 0 ? it.value() / 2 : it.value() - it.value() / 2;
            row.committedOffset = 1000;
            row.logEndOffset = 1000 + *row.lag;
            snapshot.partitions.append(row);
        }
        snapshot.totalLag += it.value();
    }
    if (timeLagSeconds) {
        snapshot.maxTimeLag.status = lag::TimeLag::Status::Estimated;
        snapshot.maxTimeLag.seconds = *timeLagSeconds;
    }
    return snapshot;
}

// A rebuilt history: `count` points every 30 s ending at `endMs`.
lag::LagTrail trail(int64_t endMs, int count, int64_t ordersLag = 100, int64_t refundsLag = 7) {
    lag::LagTrail history;
    for (int i = count - 1; i >= 0; --i) {
        history.timesMs.append(endMs - i * 30'000);
        history.topicLag[orders].append(ordersLag + i);
        history.topicLag[refunds].append(refundsLag);
        history.totalLag.append(ordersLag + i + refundsLag);
        history.maxTimeLagSeconds.append(i == 0 ? std::nan("") : 40.0 + i);
    }
    return history;
}

QList<double> keysOf(const QCPGraph* graph) {
    QList<double> keys;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        keys.append(it->key);
    return keys;
}

QList<double> valuesOf(const QCPGraph* graph) {
    QList<double> values;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        values.append(it->value);
    return values;
}

double seconds(int64_t ms) {
    return double(ms) / 1000.0;
}

bool isStrictlyIncreasing(const QList<double>& keys) {
    return std::adjacent_find(keys.cbegin(), keys.cend(), std::greater_equal<double>()) ==
           keys.cend();
}

// The realistic hour for the screenshots: three topics, a spike in orders that drains,
// a smaller one in payments during the live part, time lag following the backlog.
void feedRealisticHour(LagChartWidget& chart) {
    const int64_t now = t0;
    const int64_t liveStart = now - 10 * 60'000;
    const auto ordersLag = [](double minutesAgo) {
        const double base =
            1800 + 400 * std::sin(minutesAgo * 1.7) + 150 * std::sin(minutesAgo * 7.3);
        // A deploy stalls the consumer 38 minutes ago; it catches up over ~12 minutes.
        if (minutesAgo < 38 && minutesAgo > 22) {
            const double since = 38 - minutesAgo;
            const double peak = since < 4 ? since / 4 : std::max(0.0, 1 - (since - 4) / 12);
            return base + 182'000 * peak;
        }
        return base;
    };
    const auto paymentsLag = [](double minutesAgo) {
        const double base = 420 + 90 * std::sin(minutesAgo * 2.9);
        if (minutesAgo < 7 && minutesAgo > 1) {
            const double since = 7 - minutesAgo;
            return base +
                   38'000 * (since < 1.5 ? since / 1.5 : std::max(0.0, 1 - (since - 1.5) / 4));
        }
        return base;
    };
    const auto refundsLag = [](double minutesAgo) { return 35 + 20 * std::sin(minutesAgo * 0.9); };
    // Seconds behind: during a stall it grows with the clock, then shrinks as the
    // consumer catches up faster than real time.
    const auto timeLag = [](double minutesAgo) {
        double seconds = 2 + 1.5 * std::sin(minutesAgo * 3.1);
        if (minutesAgo < 38 && minutesAgo > 22) {
            const double since = 38 - minutesAgo;
            seconds += since < 4 ? since * 60 : std::max(0.0, 240 * (1 - (since - 4) / 12));
        }
        if (minutesAgo < 7 && minutesAgo > 1) {
            const double since = 7 - minutesAgo;
            seconds += since < 1.5 ? since * 60 : std::max(0.0, 90 * (1 - (since - 1.5) / 4));
        }
        return seconds;
    };

    lag::LagTrail history;
    for (int64_t at = now - 60 * 60'000; at < liveStart + 60'000; at += 30'000) {
        const double ago = double(now - at) / 60'000.0;
        history.timesMs.append(at);
        history.topicLag[orders].append(int64_t(ordersLag(ago)));
        history.topicLag[payments].append(int64_t(paymentsLag(ago)));
        history.topicLag[refunds].append(int64_t(refundsLag(ago)));
        history.totalLag.append(int64_t(ordersLag(ago) + paymentsLag(ago) + refundsLag(ago)));
        history.maxTimeLagSeconds.append(timeLag(ago));
    }
    for (int64_t at = liveStart; at <= now; at += 2000) {
        const double ago = double(now - at) / 60'000.0;
        GroupMonitorSnapshot snapshot = sample(at,
                                               {{orders, int64_t(ordersLag(ago))},
                                                {payments, int64_t(paymentsLag(ago))},
                                                {refunds, int64_t(refundsLag(ago))}},
                                               timeLag(ago));
        snapshot.lagBackfill = history;
        chart.appendSnapshot(snapshot);
    }
}

QPalette darkPalette() {
    QPalette palette;
    palette.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x31));
    palette.setColor(QPalette::WindowText, QColor(0xdf, 0xe1, 0xe5));
    palette.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
    palette.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2b));
    palette.setColor(QPalette::Text, QColor(0xdf, 0xe1, 0xe5));
    palette.setColor(QPalette::Button, QColor(0x2b, 0x2d, 0x31));
    palette.setColor(QPalette::ButtonText, QColor(0xdf, 0xe1, 0xe5));
    palette.setColor(QPalette::PlaceholderText, QColor(0x8c, 0x8f, 0x94));
    palette.setColor(QPalette::ToolTipBase, QColor(0xff, 0xff, 0xdc));
    palette.setColor(QPalette::ToolTipText, QColor(0, 0, 0));
    return palette;
}

// Distinct colours in an image: a blank or single-colour render has one or two.
int distinctColors(const QImage& image) {
    QSet<QRgb> colors;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colors.insert(image.pixel(x, y));
    return int(colors.size());
}

} // namespace

class TestLagChartWidget : public QObject {
    Q_OBJECT

private slots:
    void liveSamplesGoIntoEverySeries() {
        LagChartWidget chart;
        chart.appendSnapshot(sample(t0, {{orders, 100}, {refunds, 3}}, 12.5));
        chart.appendSnapshot(sample(t0 + 2000, {{orders, 250}, {refunds, 0}}));
        chart.appendSnapshot(sample(t0 + 4000, {{orders, 90}, {payments, 40}, {refunds, 1}}, 3));

        QCOMPARE(keysOf(chart.totalGraph()),
                 (QList<double>{seconds(t0), seconds(t0 + 2000), seconds(t0 + 4000)}));
        QCOMPARE(valuesOf(chart.totalGraph()), (QList<double>{103, 250, 131}));
        QCOMPARE(chart.topics(), (QStringList{orders, payments, refunds}));
        QCOMPARE(valuesOf(chart.topicGraph(orders)), (QList<double>{100, 250, 90}));
        QCOMPARE(valuesOf(chart.topicGraph(refunds)), (QList<double>{3, 0, 1}));
        // A topic that appears later starts where it appeared.
        QCOMPARE(keysOf(chart.topicGraph(payments)), QList<double>{seconds(t0 + 4000)});
        const QList<double> timeLag = valuesOf(chart.timeLagGraph());
        QCOMPARE(timeLag.size(), 3);
        QCOMPARE(timeLag[0], 12.5);
        QVERIFY(std::isnan(timeLag[1])); // unknown: a gap, not a zero
        QCOMPARE(timeLag[2], 3.0);
        QCOMPARE(chart.totalGraph()->valueAxis(), chart.plot()->yAxis);
        QCOMPARE(chart.timeLagGraph()->valueAxis(), chart.plot()->yAxis2);
    }

    void failedStaleAndEmptyPollsAddNothing() {
        LagChartWidget chart;
        chart.appendSnapshot(sample(t0, {{orders, 5}}));
        GroupMonitorSnapshot failed = sample(t0 + 2000, {{orders, 5}});
        failed.error = kafka::KafkaError::fromCode(RD_KAFKA_RESP_ERR__TIMED_OUT);
        chart.appendSnapshot(failed);
        chart.appendSnapshot(sample(t0 - 2000, {{orders, 9}})); // older than the newest
        GroupMonitorSnapshot noCommits = sample(t0 + 4000, {});
        chart.appendSnapshot(noCommits);
        QCOMPARE(chart.totalGraph()->dataCount(), 1);
        QCOMPARE(chart.topicGraph(orders)->dataCount(), 1);
        QCOMPARE(chart.timeLagGraph()->dataCount(), 1);
    }

    void historyFillsTheTimeBeforeTheFirstLiveSample() {
        LagChartWidget chart;
        GroupMonitorSnapshot first = sample(t0, {{orders, 300}, {refunds, 7}}, 5);
        chart.appendSnapshot(first);
        // The rebuild arrives with a later snapshot and reaches past the first live sample.
        GroupMonitorSnapshot second = sample(t0 + 2000, {{orders, 310}, {refunds, 7}}, 5);
        second.lagBackfill = trail(t0 + 15'000, 121); // an hour up to 15 s after t0
        chart.appendSnapshot(second);

        const QList<double> keys = keysOf(chart.totalGraph());
        QVERIFY(isStrictlyIncreasing(keys));
        QCOMPARE(keys.first(), seconds(t0 + 15'000 - 120 * 30'000));
        // 120 rebuilt points are before t0; the one after it gives way to the live samples.
        QCOMPARE(keys.size(), 120 + 2);
        QCOMPARE(keys.at(119), seconds(t0 - 15'000));
        QCOMPARE(keys.at(120), seconds(t0));
        QCOMPARE(valuesOf(chart.totalGraph()).first(), double(100 + 120 + 7));
        QCOMPARE(chart.topicGraph(refunds)->dataCount(), 122);
        QCOMPARE(chart.timeLagGraph()->dataCount(), 122);
        QCOMPARE(valuesOf(chart.timeLagGraph()).first(), 40.0 + 120);

        // The same trail again changes nothing; a newer one replaces the old, no doubles.
        chart.appendSnapshot(second);
        QCOMPARE(chart.totalGraph()->dataCount(), 122);
        GroupMonitorSnapshot third = sample(t0 + 4000, {{orders, 320}, {refunds, 7}});
        third.lagBackfill = trail(t0 - 60'000, 10, 5000);
        chart.appendSnapshot(third);
        const QList<double> replaced = keysOf(chart.totalGraph());
        QVERIFY(isStrictlyIncreasing(replaced));
        QCOMPARE(replaced.size(), 10 + 3);
        QCOMPARE(valuesOf(chart.totalGraph()).first(), double(5000 + 9 + 7));
        QCOMPARE(valuesOf(chart.totalGraph()).last(), 327.0);
    }

    void historyBeforeAnyLiveSampleIsShownWhole() {
        LagChartWidget chart;
        chart.setHistory(trail(t0, 5));
        QCOMPARE(chart.totalGraph()->dataCount(), 5);
        chart.appendSnapshot(sample(t0 + 2000, {{orders, 1}}));
        QCOMPARE(chart.totalGraph()->dataCount(), 6);
    }

    void aRebuiltHistoryThenLiveSamplesAreDrawnInTheFollowedView() {
        // As the application gets them: a few live polls, then the snapshot that carries
        // the rebuilt history (ten minutes before the first poll), then more polls.
        LagChartWidget chart;
        chart.resize(1100, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        for (int i = 0; i < 3; ++i)
            chart.appendSnapshot(sample(t0 + i * 2000, {{orders, 18}}, 1.1));
        GroupMonitorSnapshot withHistory = sample(t0 + 3 * 2000, {{orders, 20}}, 1.0);
        withHistory.lagBackfill = trail(t0 + 500, 20, 15, 0);
        chart.appendSnapshot(withHistory);
        for (int i = 4; i < 30; ++i)
            chart.appendSnapshot(sample(t0 + i * 2000, {{orders, 18 + i % 3}}, 1.1));
        chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const QCPRange range = chart.visibleTimeRange();
        const QCPGraph* drawn = chart.drawnGraph(chart.totalGraph());
        int inView = 0;
        for (auto it = drawn->data()->constBegin(); it != drawn->data()->constEnd(); ++it)
            if (range.contains(it->key))
                ++inView;
        QVERIFY2(inView >= 30, qPrintable(QString::number(inView)));
        QVERIFY2(chart.plot()->yAxis->range().upper >= 20,
                 qPrintable(QString::number(chart.plot()->yAxis->range().upper)));
    }

    void aChartFilledWhileHiddenIsDrawnWhenShown() {
        // The Lag tab fills while another tab is in front: its plot had no real width then.
        QTabWidget tabs;
        tabs.resize(1100, 560);
        auto* front = new QWidget;
        auto* chart = new LagChartWidget;
        tabs.addTab(front, QStringLiteral("front"));
        tabs.addTab(chart, QStringLiteral("lag"));
        tabs.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tabs));
        GroupMonitorSnapshot withHistory = sample(t0, {{orders, 20}}, 1.0);
        withHistory.lagBackfill = trail(t0 - 500, 20, 15, 0);
        chart->appendSnapshot(withHistory);
        for (int i = 1; i < 30; ++i)
            chart->appendSnapshot(sample(t0 + i * 2000, {{orders, 18 + i % 3}}, 1.1));
        tabs.setCurrentWidget(chart);
        const auto drawnInView = [&] {
            const QCPRange range = chart->visibleTimeRange();
            const QCPGraph* drawn = chart->drawnGraph(chart->totalGraph());
            int count = 0;
            for (auto it = drawn->data()->constBegin(); it != drawn->data()->constEnd(); ++it)
                count += range.contains(it->key) ? 1 : 0;
            return count;
        };
        QTRY_VERIFY2(drawnInView() >= 40, qPrintable(QString::number(drawnInView())));
        QTRY_VERIFY(chart->plot()->yAxis->range().upper >= 20);
    }

    void followingKeepsNowInViewUntilTheUserZooms() {
        LagChartWidget chart;
        chart.resize(900, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QSignalSpy followSpy(&chart, &LagChartWidget::followingChanged);
        for (int i = 0; i < 30; ++i)
            chart.appendSnapshot(sample(t0 + i * 2000, {{orders, 10 * i}}));
        QVERIFY(chart.isFollowing());
        QCPRange range = chart.visibleTimeRange();
        const double newest = seconds(t0 + 29 * 2000);
        QVERIFY(range.upper >= newest);
        QVERIFY(range.lower < newest);
        // A minute of samples fills a two-minute view rather than a corner of an hour.
        QCOMPARE(range.size(), 120.0);

        // The wheel over the middle of the chart zooms in around the past: following ends.
        chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const QPoint middle = chart.plot()->axisRect()->rect().center();
        QWheelEvent wheel(middle, chart.plot()->mapToGlobal(middle), QPoint(), QPoint(0, 120),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(chart.plot(), &wheel);
        QVERIFY(!chart.isFollowing());
        QVERIFY(!chart.followButton()->isChecked());
        QCOMPARE(followSpy.count(), 1);
        const QCPRange zoomed = chart.visibleTimeRange();
        QVERIFY(zoomed.size() < range.size());
        QVERIFY(zoomed.upper < newest);

        // New samples do not move a view the user chose.
        chart.appendSnapshot(sample(t0 + 30 * 2000, {{orders, 300}}));
        QCOMPARE(chart.visibleTimeRange().lower, zoomed.lower);
        QCOMPARE(chart.visibleTimeRange().upper, zoomed.upper);

        // F brings "now" back, keeping the zoomed span.
        QTest::keyClick(&chart, Qt::Key_F);
        QVERIFY(chart.isFollowing());
        QVERIFY(chart.followButton()->isChecked());
        range = chart.visibleTimeRange();
        QVERIFY(range.upper >= seconds(t0 + 30 * 2000));
        QVERIFY(qFuzzyCompare(range.size(), zoomed.size()));
    }

    void keysZoomPanAndReset() {
        LagChartWidget chart;
        chart.setHistory(trail(t0 - 2000, 240)); // two hours
        chart.appendSnapshot(sample(t0, {{orders, 1}}));
        QVERIFY(chart.isFollowing());
        QCOMPARE(chart.visibleTimeRange().size(), LagChartWidget::defaultSpanSeconds);

        QTest::keyClick(&chart, Qt::Key_Plus); // zooming at "now" keeps following
        QVERIFY(chart.isFollowing());
        QCOMPARE(chart.visibleTimeRange().size(), LagChartWidget::defaultSpanSeconds / 2);
        QVERIFY(chart.visibleTimeRange().upper >= seconds(t0));

        QTest::keyClick(&chart, Qt::Key_Left); // back in time: no longer following
        QVERIFY(!chart.isFollowing());
        QVERIFY(chart.visibleTimeRange().upper < seconds(t0));
        QTest::keyClick(&chart, Qt::Key_Minus);
        QCOMPARE(chart.visibleTimeRange().size(), LagChartWidget::defaultSpanSeconds);
        QTest::keyClick(&chart, Qt::Key_Right);
        QTest::keyClick(&chart, Qt::Key_Right); // reaching "now" again follows again
        QVERIFY(chart.isFollowing());

        QTest::keyClick(&chart, Qt::Key_0); // everything, and following
        const QCPRange all = chart.visibleTimeRange();
        QVERIFY(all.lower <= seconds(t0 - 2000 - 239 * 30'000));
        QVERIFY(all.upper >= seconds(t0));
        QVERIFY(chart.isFollowing());

        for (int i = 0; i < 20; ++i) // never below the smallest span
            QTest::keyClick(&chart, Qt::Key_Plus);
        QCOMPARE(chart.visibleTimeRange().size(), LagChartWidget::minimumSpanSeconds);
    }

    void valueAxesFitTheVisibleSeries() {
        LagChartWidget chart;
        chart.appendSnapshot(sample(t0, {{orders, 2'000'000}, {refunds, 10}}, 200));
        chart.appendSnapshot(sample(t0 + 2000, {{orders, 1'000'000}, {refunds, 10}}, 100));
        QVERIFY(chart.plot()->yAxis->range().upper >= 2'000'010);
        QVERIFY(chart.plot()->yAxis->range().upper < 2'500'000);
        QCOMPARE(chart.plot()->yAxis->range().lower, 0.0);
        QVERIFY(chart.plot()->yAxis2->range().upper >= 200);
        QVERIFY(chart.plot()->yAxis2->range().upper < 300);
        // Hiding the big series rescales to what is left.
        chart.setSeriesVisible(chart.totalGraph(), false);
        chart.setSeriesVisible(chart.topicGraph(orders), false);
        QVERIFY(chart.plot()->yAxis->range().upper < 20);
    }

    void hoverReadoutNamesTimeAndEveryVisibleValue() {
        LagChartWidget chart;
        chart.resize(900, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.appendSnapshot(sample(t0, {{orders, 1'234'567}, {refunds, 950}}, 200));
        chart.appendSnapshot(sample(t0 + 2000, {{orders, 12'345}, {refunds, 0}}));
        QVERIFY(chart.readoutText().isEmpty());

        chart.showReadoutAt(seconds(t0) + 0.4); // snaps to the nearest sample
        const QString text = chart.readoutText();
        QVERIFY2(text.contains(QStringLiteral("14:30:00")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Total lag: 1.24M")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("orders: 1.23M")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("refunds: 950")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Time lag: 3m 20s")), qPrintable(text));

        chart.showReadoutAt(seconds(t0 + 2000));
        QVERIFY2(chart.readoutText().contains(QStringLiteral("Time lag: \u2013")),
                 qPrintable(chart.readoutText()));
        QVERIFY(chart.readoutText().contains(QStringLiteral("orders: 12.3k")));

        // A hidden series leaves the read-out.
        chart.setSeriesVisible(chart.topicGraph(refunds), false);
        chart.showReadoutAt(seconds(t0));
        QVERIFY(!chart.readoutText().contains(refunds));
        QVERIFY(chart.readoutText().contains(orders));

        // The mouse drives it: over the plot it shows, leaving the plot hides it. Zoomed in,
        // so the two samples are pixels apart.
        chart.zoomBy(0.01);
        chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
        chart.hideReadout();
        const int x = int(chart.plot()->xAxis->coordToPixel(seconds(t0 + 2000)));
        const QPoint inside(x, chart.plot()->axisRect()->rect().center().y());
        QMouseEvent move(QEvent::MouseMove, inside, chart.plot()->mapToGlobal(inside), Qt::NoButton,
                         Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(chart.plot(), &move);
        QVERIFY2(chart.readoutText().contains(QStringLiteral("14:30:02")),
                 qPrintable(chart.readoutText()));
        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(chart.plot(), &leave);
        QVERIFY(chart.readoutText().isEmpty());
    }

    void clickingALegendEntryTogglesItsSeries() {
        LagChartWidget chart;
        chart.resize(900, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.appendSnapshot(sample(t0, {{orders, 10}, {refunds, 3}}));
        chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
        QCPPlottableLegendItem* entry =
            chart.plot()->legend->itemWithPlottable(chart.topicGraph(orders));
        QVERIFY(entry);
        QVERIFY(chart.isSeriesVisible(chart.topicGraph(orders)));
        QTest::mouseClick(chart.plot(), Qt::LeftButton, Qt::NoModifier, entry->rect().center());
        QVERIFY(!chart.isSeriesVisible(chart.topicGraph(orders)));
        QVERIFY(!chart.topicGraph(orders)->visible());
        QVERIFY(chart.topicGraph(refunds)->visible());
        QTest::mouseClick(chart.plot(), Qt::LeftButton, Qt::NoModifier, entry->rect().center());
        QVERIFY(chart.isSeriesVisible(chart.topicGraph(orders)));
        QVERIFY(chart.topicGraph(orders)->visible());
    }

    void exportWritesThePlotAsShown() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        LagChartWidget chart;
        chart.resize(960, 540);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        feedRealisticHour(chart);
        chart.showReadoutAt(seconds(t0 - 60'000));
        const QString path = dir.filePath(QStringLiteral("chart.png"));
        QString error;
        QVERIFY2(chart.exportPng(path, &error), qPrintable(error));
        const QImage image(path);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), chart.plot()->size());
        QVERIFY(distinctColors(image) > 20);
        QVERIFY(!chart.readoutText().isEmpty()); // the read-out is back after the export

        QVERIFY(!chart.exportPng(dir.filePath(QStringLiteral("missing/chart.png")), &error));
        QVERIFY(error.contains(QStringLiteral("missing/chart.png")));
    }

    void exportButtonAsksForAFileAndReports() {
        QTemporaryDir dir;
        LagChartWidget chart;
        chart.resize(800, 400);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.appendSnapshot(sample(t0, {{orders, 10}}));
        QSignalSpy status(&chart, &LagChartWidget::statusMessage);
        const QString path = dir.filePath(QStringLiteral("from-button.png"));
        ui::FileChooser::setNextFileName(path);
        chart.exportButton()->click();
        QVERIFY(QFile::exists(path));
        QCOMPARE(status.count(), 1);
        QVERIFY(status.first().first().toString().contains(path));
        ui::FileChooser::setNextFileName(QString()); // Cancel: nothing written, no message
        chart.exportButton()->click();
        QCOMPARE(status.count(), 1);
    }

    void clearForgetsTheGroup() {
        LagChartWidget chart;
        GroupMonitorSnapshot snapshot = sample(t0, {{orders, 10}});
        snapshot.lagBackfill = trail(t0 - 30'000, 4);
        chart.appendSnapshot(snapshot);
        chart.zoomBy(0.5);
        chart.panBy(-1);
        QVERIFY(!chart.isFollowing());
        chart.clear();
        QCOMPARE(chart.totalGraph()->dataCount(), 0);
        QCOMPARE(chart.timeLagGraph()->dataCount(), 0);
        QVERIFY(chart.topics().isEmpty());
        // The total and the time lag, each with its envelopes.
        QCOMPARE(chart.plot()->graphCount(), 2 * ui::SeriesEnvelope::levelCount);
        QVERIFY(chart.isFollowing());
        // The same trail again is news after a clear.
        chart.appendSnapshot(snapshot);
        QCOMPARE(chart.totalGraph()->dataCount(), 5);
    }

    void anotherGroupStartsAFreshChart() {
        LagChartWidget chart;
        chart.appendSnapshot(sample(t0, {{orders, 10}}));
        GroupMonitorSnapshot other = sample(t0 + 2000, {{refunds, 4}});
        other.group = QStringLiteral("shipping");
        chart.appendSnapshot(other);
        QCOMPARE(chart.topics(), QStringList{refunds});
        QCOMPARE(chart.totalGraph()->dataCount(), 1);
    }

    void aDayInViewIsDrawnFromEnvelopesThatKeepTheSpikes() {
        LagChartWidget chart;
        chart.resize(1000, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        lag::LagTrail day;
        const int count = 43'200;
        for (int i = 0; i < count; ++i) {
            day.timesMs.append(t0 - int64_t(count - i) * 2000);
            const int64_t lag = i == 20'011 ? 987'654 : 100 + i % 7; // one sample spikes
            day.topicLag[orders].append(lag);
            day.totalLag.append(lag);
            day.maxTimeLagSeconds.append(i == 30'000 ? 4321.0 : 5.0);
        }
        chart.setHistory(day);
        chart.appendSnapshot(sample(t0, {{orders, 100}}, 5));
        // The default hour: the series themselves.
        QCOMPARE(chart.drawnGraph(chart.totalGraph()), chart.totalGraph());
        QVERIFY(chart.totalGraph()->visible());

        QTest::keyClick(&chart, Qt::Key_0); // the whole day
        QCPGraph* envelope = chart.drawnGraph(chart.totalGraph());
        QVERIFY(envelope != chart.totalGraph());
        QVERIFY(envelope->visible());
        QVERIFY(!chart.totalGraph()->visible());
        QVERIFY(envelope->dataCount() <= 2 * (count / 64) + 2);
        QVERIFY(envelope->dataCount() >= count / 64);
        bool found = false;
        QCOMPARE(envelope->getValueRange(found).upper, 987'654.0);
        QCOMPARE(chart.drawnGraph(chart.timeLagGraph())->getValueRange(found).upper, 4321.0);
        // The axis still fits the spike; a hidden series hides its envelope too.
        QVERIFY(chart.plot()->yAxis->range().upper >= 987'654);
        chart.setSeriesVisible(chart.totalGraph(), false);
        QVERIFY(!envelope->visible());
        QVERIFY(chart.drawnGraph(chart.topicGraph(orders))->visible());
        // Live samples reach the envelope block by block.
        const int before = envelope->dataCount();
        for (int i = 1; i <= 64; ++i)
            chart.appendSnapshot(sample(t0 + i * 2000, {{orders, 100}}));
        QVERIFY(envelope->dataCount() > before);
    }

    void samplesOlderThanADayAreDropped() {
        LagChartWidget chart;
        chart.appendSnapshot(sample(t0, {{orders, 10}}));
        chart.appendSnapshot(sample(t0 + 2000, {{orders, 10}}));
        chart.appendSnapshot(sample(t0 + 25LL * 3600 * 1000, {{orders, 10}})); // + expiry batch
        QCOMPARE(keysOf(chart.totalGraph()), QList<double>{seconds(t0 + 25LL * 3600 * 1000)});
        QCOMPARE(chart.topicGraph(orders)->dataCount(), 1);
    }

    void coloursComeFromThePalette() {
        LagChartWidget chart;
        chart.resize(700, 400);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.appendSnapshot(sample(t0, {{orders, 10}}));
        const QColor lightBase = chart.palette().color(QPalette::Base);
        QCOMPARE(chart.plot()->axisRect()->backgroundBrush().color(), lightBase);

        const QPalette dark = darkPalette();
        chart.setPalette(dark);
        QCOMPARE(chart.plot()->axisRect()->backgroundBrush().color(), dark.color(QPalette::Base));
        QCOMPARE(chart.plot()->xAxis->tickLabelColor(), dark.color(QPalette::Text));
        QCOMPARE(chart.plot()->legend->item(0)->parentLegend()->textColor(),
                 dark.color(QPalette::Text));
        chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const QImage image = chart.plot()->toPixmap().toImage();
        // The plot's middle is the dark base, not a hard-coded white.
        const QPoint probe = chart.plot()->axisRect()->rect().topLeft() + QPoint(5, 40);
        QCOMPARE(QColor(image.pixel(probe)), dark.color(QPalette::Base));
    }

    void numbersAndDurationsReadAtAGlance() {
        using ui::ChartText::compactCount;
        using ui::ChartText::tickDuration;
        QCOMPARE(compactCount(0), QStringLiteral("0"));
        QCOMPARE(compactCount(999), QStringLiteral("999"));
        QCOMPARE(compactCount(1000), QStringLiteral("1k"));
        QCOMPARE(compactCount(1500), QStringLiteral("1.5k"));
        QCOMPARE(compactCount(12'345), QStringLiteral("12.3k"));
        QCOMPARE(compactCount(999'999), QStringLiteral("1M"));
        QCOMPARE(compactCount(1'200'000), QStringLiteral("1.2M"));
        QCOMPARE(compactCount(250'000'000), QStringLiteral("250M"));
        QCOMPARE(compactCount(4e9), QStringLiteral("4B"));
        QCOMPARE(compactCount(-2500), QStringLiteral("\u22122.5k"));
        QCOMPARE(tickDuration(0), QStringLiteral("0"));
        QCOMPARE(tickDuration(45), QStringLiteral("45s"));
        QCOMPARE(tickDuration(300), QStringLiteral("5m"));
        QCOMPARE(tickDuration(5400), QStringLiteral("1h 30m"));
        QCOMPARE(tickDuration(172800), QStringLiteral("2d"));
    }

    void screenshotsForReview() {
        const QString directory = qEnvironmentVariable("GROUPSCOPE_SCREENSHOT_DIR");
        if (directory.isEmpty())
            QSKIP("set GROUPSCOPE_SCREENSHOT_DIR to write review renders");
        for (const bool dark : {false, true}) {
            LagChartWidget chart;
            if (dark)
                chart.setPalette(darkPalette());
            chart.resize(1100, 520);
            chart.show();
            QVERIFY(QTest::qWaitForWindowExposed(&chart));
            feedRealisticHour(chart);
            chart.showReadoutAt(seconds(t0 - 31 * 60'000));
            chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
            const QString path = QDir(directory).filePath(
                dark ? QStringLiteral("lagchart-dark.png") : QStringLiteral("lagchart-light.png"));
            QVERIFY(chart.grab().save(path));
        }
        // A day of 2 s samples for six topics, all in view: drawn from the envelopes.
        LagChartWidget chart;
        chart.resize(1100, 520);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        lag::LagTrail day;
        for (int i = 0; i < 43'200; ++i) {
            day.timesMs.append(t0 - int64_t(43'200 - i) * 2000);
            int64_t total = 0;
            for (int topic = 0; topic < 6; ++topic) {
                const double phase = i / 1500.0 + topic * 1.3;
                double lag = 800 + 500 * std::sin(phase) + 150 * std::sin(phase * 17.0);
                if ((i + topic * 7001) % 14'400 < 900)
                    lag += 30'000.0 * (1 - ((i + topic * 7001) % 14'400) / 900.0);
                day.topicLag[QStringLiteral("topic-%1").arg(topic)].append(int64_t(lag));
                total += int64_t(lag);
            }
            day.totalLag.append(total);
            day.maxTimeLagSeconds.append(2 + double(total) / 900);
        }
        chart.setHistory(day);
        chart.appendSnapshot(sample(t0, {{QStringLiteral("topic-0"), 900}}, 3));
        chart.resetZoom();
        chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(chart.grab().save(QDir(directory).filePath(QStringLiteral("lagchart-day.png"))));
    }
};

QTEST_MAIN(TestLagChartWidget)
#include "TestLagChartWidget.moc"
