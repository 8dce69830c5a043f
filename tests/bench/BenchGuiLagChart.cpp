// How long the lag chart takes to repaint with a day of data: 24 h of 2 s samples (43,200
// points) in each of 50 series (the total, 48 topics, the time lag), drawn at 1280 x 720.
// Figures: median and p99 of 50 full replots with the whole day in view (the worst case:
// every point is on screen) and with the default hour in view, against a peer measured in
// the same run: a QCustomPlot holding the same data with QCustomPlot's default settings.
// The difference: the chart draws wide views from min/max envelopes of the series and
// without antialiasing once samples outnumber pixel columns; the peer walks and antialiases
// every point. Also the hover read-out's repaint, which redraws its own layer only. Goal: a
// replot under 16 ms (one frame at 60 Hz). Figures only: the benchmark never fails on them.

#include "BenchFigures.h"
#include "widgets/LagChartWidget.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

using namespace groupscope;

namespace {

constexpr int64_t sampleIntervalMs = 2000;
constexpr int64_t dayMs = 24LL * 3600 * 1000;
constexpr int topicCount = 48; // + total + time lag = 50 series
constexpr int replotRuns = 50;
constexpr double goalMs = 16;
const QSize chartSize(1280, 720);

struct Figures {
    double medianMs;
    double p99Ms;
};

Figures measure(const std::function<void()>& replot) {
    replot(); // the first replot builds caches (labels, layer buffers)
    QList<double> times;
    for (int run = 0; run < replotRuns; ++run) {
        QElapsedTimer timer;
        timer.start();
        replot();
        times.append(double(timer.nsecsElapsed()) / 1e6);
    }
    return {bench::percentile(times, 50), bench::percentile(times, 99)};
}

// A day of lag that wanders, with a spike and a drain every few hours, per topic.
lag::LagTrail dayOfLag(int64_t endMs) {
    lag::LagTrail trail;
    const qsizetype count = dayMs / sampleIntervalMs;
    trail.timesMs.reserve(count);
    QList<QList<int64_t>> topics(topicCount);
    for (qsizetype i = 0; i < count; ++i) {
        const int64_t at = endMs - dayMs + i * sampleIntervalMs;
        trail.timesMs.append(at);
        int64_t total = 0;
        for (int topic = 0; topic < topicCount; ++topic) {
            const double phase = double(i) / 900.0 + topic;
            double lag = 1000 + 600 * std::sin(phase) + 200 * std::sin(phase * 13.1);
            const qsizetype sinceSpike = (i + topic * 911) % 5400; // every 3 h
            if (sinceSpike < 600)
                lag += 80'000.0 * (1 - double(sinceSpike) / 600);
            topics[topic].append(int64_t(lag));
            total += int64_t(lag);
        }
        trail.totalLag.append(total);
        trail.maxTimeLagSeconds.append(2 + double(total % 6000) / 10);
    }
    for (int topic = 0; topic < topicCount; ++topic)
        trail.topicLag.insert(QStringLiteral("topic-%1").arg(topic, 2, 10, QLatin1Char('0')),
                              topics[topic]);
    return trail;
}

// The peer: the same 50 series in a QCustomPlot as it comes, default pens and hints.
void fillPeer(QCustomPlot& plot, const lag::LagTrail& trail) {
    QVector<double> keys;
    for (const int64_t at : trail.timesMs)
        keys.append(double(at) / 1000.0);
    const auto column = [](const auto& values) {
        QVector<double> out;
        out.reserve(values.size());
        for (const auto value : values)
            out.append(double(value));
        return out;
    };
    plot.addGraph()->setData(keys, column(trail.totalLag), true);
    for (auto it = trail.topicLag.cbegin(); it != trail.topicLag.cend(); ++it)
        plot.addGraph()->setData(keys, column(it.value()), true);
    plot.addGraph(plot.xAxis, plot.yAxis2)->setData(keys, column(trail.maxTimeLagSeconds), true);
    plot.xAxis->setTicker(QSharedPointer<QCPAxisTickerDateTime>::create());
    plot.yAxis2->setVisible(true);
    plot.rescaleAxes();
}

void printRow(const char* what, const Figures& figures) {
    std::printf("  %-44s median %7.2f ms   p99 %7.2f ms\n", what, figures.medianMs, figures.p99Ms);
}

} // namespace

int main(int argc, char** argv) {
    QApplication application(argc, argv);
    const int64_t now = QDateTime::currentMSecsSinceEpoch() / sampleIntervalMs * sampleIntervalMs;
    QElapsedTimer buildTimer;
    buildTimer.start();
    const lag::LagTrail trail = dayOfLag(now);
    const double generateMs = double(buildTimer.restart());

    ui::LagChartWidget chart;
    chart.resize(chartSize.width(), chartSize.height() + 40); // + the toolbar
    chart.show();
    chart.setHistory(trail);
    const double loadMs = double(buildTimer.restart());
    QCustomPlot* plot = chart.plot();
    QApplication::processEvents();

    QCustomPlot peer;
    peer.resize(plot->size());
    peer.show();
    fillPeer(peer, trail);
    QApplication::processEvents();

    const auto replotChart = [plot] { plot->replot(QCustomPlot::rpImmediateRefresh); };
    const auto replotPeer = [&peer] { peer.replot(QCustomPlot::rpImmediateRefresh); };

    chart.resetZoom(); // the whole day
    const Figures chartDay = measure(replotChart);
    const Figures peerDay = measure(replotPeer);

    chart.zoomBy(ui::LagChartWidget::defaultSpanSeconds / chart.visibleTimeRange().size());
    const QCPRange hour = chart.visibleTimeRange();
    peer.xAxis->setRange(hour);
    const Figures chartHour = measure(replotChart);
    const Figures peerHour = measure(replotPeer);

    // Moving the mouse: the read-out repaints its own layer and composes the buffers.
    int step = 0;
    const Figures hover = measure([&] {
        chart.showReadoutAt(hour.lower + hour.size() * double(step++ % 97) / 97.0);
        plot->repaint();
    });

    std::printf("Lag chart replot: 24 h of 2 s samples x 50 series (%lld points), %d x %d, "
                "%d runs each\n",
                static_cast<long long>(trail.size()) * 50, plot->width(), plot->height(),
                replotRuns);
    std::printf("  data generated in %.0f ms, loaded into the chart in %.0f ms\n", generateMs,
                loadMs);
    std::printf(" whole day in view:\n");
    printRow("LagChartWidget", chartDay);
    printRow("peer: QCustomPlot defaults, same data", peerDay);
    std::printf("  ratio (peer / ours, median):                 %.2fx\n",
                peerDay.medianMs / chartDay.medianMs);
    std::printf(" last hour in view (the default):\n");
    printRow("LagChartWidget", chartHour);
    printRow("peer: QCustomPlot defaults, same data", peerHour);
    std::printf("  ratio (peer / ours, median):                 %.2fx\n",
                peerHour.medianMs / chartHour.medianMs);
    std::printf(" hover read-out (own layer + compose):\n");
    printRow("LagChartWidget", hover);
    std::printf("  goal: replot under %.0f ms -> whole day %s, hour %s\n", goalMs,
                chartDay.medianMs < goalMs ? "MEETS GOAL" : "OVER GOAL",
                chartHour.medianMs < goalMs ? "MEETS GOAL" : "OVER GOAL");
    return 0;
}
