#include "plots/LagChartGraphs.h"

#include "plots/SeriesEnvelope.h"

#include <qcustomplot.h>

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>

namespace groupscope::ui {

namespace {

// Topics beyond this many get no legend entry: a legend of 50 entries hides the chart.
constexpr int legendTopicLimit = 16;

// With more samples than pixel columns in view, lines go out without antialiasing: the
// replot is then 2-3x faster (BenchGuiLagChart), and a line that zigzags within each pixel
// column shows no jagged edges anyway.
constexpr double denseSamplesPerPixel = 1.0;

// Lag and time lag usually rise and fall together: with the same headroom on both axes
// their peaks would be drawn on top of each other. The time lag's peak sits lower.
constexpr double lagHeadroom = 1.08;
constexpr double timeLagHeadroom = 1.35;

// The envelope level for a number of samples per pixel column: the coarsest whose two
// points per block still give every column at least one point (SeriesEnvelope).
int envelopeLevelFor(double samplesPerPixel) {
    int level = 0;
    for (size_t i = 0; i < SeriesEnvelope::blockSizes.size(); ++i)
        if (samplesPerPixel > SeriesEnvelope::blockSizes[i] / 2.0)
            level = int(i) + 1;
    return level;
}

// The smallest and largest value of a series inside a key range (NaN: none there), in one
// pass over the visible points.
struct ValueSpan {
    double minimum = std::numeric_limits<double>::quiet_NaN();
    double maximum = std::numeric_limits<double>::quiet_NaN();
};

ValueSpan valueSpanIn(const QCPGraph* graph, const QCPRange& keys) {
    const auto data = graph->data();
    ValueSpan span;
    // One point beyond each edge: the line to it is on screen too.
    for (auto it = data->findBegin(keys.lower, true), end = data->findEnd(keys.upper, true);
         it != end; ++it) {
        if (std::isnan(it->value))
            continue;
        if (!(it->value <= span.maximum))
            span.maximum = it->value;
        if (!(it->value >= span.minimum))
            span.minimum = it->value;
    }
    return span;
}

// An upper bound for a value axis: the maximum plus headroom, never a zero-size range.
double axisTop(double maximum, double fallback, double headroom) {
    if (std::isnan(maximum) || maximum <= 0)
        return fallback;
    return maximum * headroom;
}

QVector<QCPGraphData> graphData(lag::LagChartPoints::const_iterator begin,
                                lag::LagChartPoints::const_iterator end) {
    // Filled in place, not appended: a day of 50 series is two million points.
    QVector<QCPGraphData> out(end - begin);
    QCPGraphData* target = out.data();
    for (auto it = begin; it != end; ++it, ++target) {
        target->key = it->key;
        target->value = it->value;
    }
    return out;
}

} // namespace

LagChartGraphs::LagChartGraphs(QCustomPlot* plot)
    : m_plot(plot) {
    m_total = addGraph(QCoreApplication::translate("LagChartGraphs", "Total lag"), false);
    m_timeLag = addGraph(QCoreApplication::translate("LagChartGraphs", "Time lag"), true);
}

LagChartGraphs::~LagChartGraphs() = default;

QCPGraph* LagChartGraphs::addGraph(const QString& name, bool onTimeAxis) {
    QCPGraph* graph = m_plot->addGraph(m_plot->xAxis, onTimeAxis ? m_plot->yAxis2 : m_plot->yAxis);
    graph->setName(name);
    graph->setLineStyle(QCPGraph::lsLine);
    // Adaptive sampling is on by default; it is what keeps a day of samples cheap to draw.
    graph->setAdaptiveSampling(true);
    graph->setAntialiased(!m_dense);
    auto envelope = std::make_shared<SeriesEnvelope>(graph);
    envelope->setAntialiased(!m_dense);
    envelope->show(true, m_level);
    m_envelopes.insert(graph, envelope);
    return graph;
}

QCPGraph* LagChartGraphs::topicGraphFor(const QString& topic) {
    if (QCPGraph* graph = m_topics.value(topic))
        return graph;
    // Added after the total, so drawn over it: a topic that makes up all of the lag runs
    // inside the total's wider line instead of vanishing under it.
    QCPGraph* graph = addGraph(topic, false);
    setSeriesPen(graph, topicPen(int(m_topics.size())));
    m_topics.insert(topic, graph);
    if (m_topics.size() > legendTopicLimit)
        graph->removeFromLegend();
    return graph;
}

bool LagChartGraphs::sync(const lag::LagChartSeries& series) {
    const bool rewrite = series.revision() != m_revision;
    m_revision = series.revision();
    bool changed = copyPoints(m_total, series.total(), rewrite);
    changed |= copyPoints(m_timeLag, series.timeLag(), rewrite);
    const auto& topics = series.topics();
    for (auto it = topics.cbegin(); it != topics.cend(); ++it)
        changed |= copyPoints(topicGraphFor(it.key()), it.value(), rewrite);
    if (rewrite)
        for (auto it = m_topics.cbegin(); it != m_topics.cend(); ++it)
            if (!topics.contains(it.key()))
                changed |= copyPoints(it.value(), {}, true);
    return changed;
}

bool LagChartGraphs::copyPoints(QCPGraph* graph, const lag::LagChartPoints& points, bool rewrite) {
    const auto data = graph->data();
    const auto envelope = m_envelopes.value(graph);
    if (rewrite) {
        data->set(graphData(points.cbegin(), points.cend()), true);
        envelope->rebuild();
        return true;
    }
    // Expiry takes points from the start only; the envelopes are then rebuilt.
    const bool expired =
        !data->isEmpty() && (points.empty() || points.front().key > data->constBegin()->key);
    if (expired)
        data->removeBefore(points.empty() ? std::numeric_limits<double>::infinity()
                                          : points.front().key);
    // What is newer than the graph's newest point: usually one sample, found from the end.
    const double newest =
        data->isEmpty() ? -std::numeric_limits<double>::infinity() : (data->constEnd() - 1)->key;
    auto fresh = points.cend();
    while (fresh != points.cbegin() && (fresh - 1)->key > newest)
        --fresh;
    const bool appended = fresh != points.cend();
    if (appended)
        data->add(graphData(fresh, points.cend()), true);
    if (expired)
        envelope->rebuild();
    else if (appended)
        envelope->appendNewest();
    return expired || appended;
}

void LagChartGraphs::clear() {
    for (QCPGraph* graph : std::as_const(m_topics)) {
        m_envelopes.take(graph)->removeCompanions();
        m_plot->removeGraph(graph);
    }
    m_topics.clear();
    m_hidden.clear();
    applyVisibility();
    for (const auto& envelope : std::as_const(m_envelopes)) {
        envelope->source()->data()->clear();
        envelope->rebuild();
    }
}

bool LagChartGraphs::isEmpty() const {
    return m_total->data()->isEmpty();
}

QPen LagChartGraphs::totalPen() const {
    // Wider only while few samples are in view: a wide pen's stroke is costly with a day
    // of samples (tens of milliseconds per series, against ~1 ms at 1 px).
    return QPen(m_colors.total, m_dense ? 1 : 2);
}

QPen LagChartGraphs::topicPen(int index) const {
    // Exactly 1 px: QCustomPlot then draws with a cosmetic pen, several times faster with
    // dozens of series than any other width (QCPAbstractPlottable1D::drawPolyline).
    return QPen(m_colors.seriesColor(index), 1);
}

void LagChartGraphs::setSeriesPen(QCPGraph* series, const QPen& pen) {
    series->setPen(pen);
    if (const auto envelope = m_envelopes.value(series))
        envelope->setPen(pen);
}

void LagChartGraphs::setColors(const ChartColors& colors) {
    m_colors = colors;
    setSeriesPen(m_total, totalPen());
    setSeriesPen(m_timeLag, QPen(m_colors.timeLag, 1));
    int index = 0;
    for (QCPGraph* graph : std::as_const(m_topics))
        setSeriesPen(graph, topicPen(index++));
    QCPLegend* legend = m_plot->legend;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i)))
            item->setTextColor(m_hidden.contains(item->plottable()) ? m_colors.mutedText
                                                                    : m_colors.text);
}

void LagChartGraphs::setSeriesVisible(QCPGraph* graph, bool visible) {
    if (visible)
        m_hidden.remove(graph);
    else
        m_hidden.insert(graph);
    applyVisibility();
    if (QCPPlottableLegendItem* item = m_plot->legend->itemWithPlottable(graph))
        item->setTextColor(visible ? m_colors.text : m_colors.mutedText);
}

bool LagChartGraphs::isSeriesVisible(QCPGraph* graph) const {
    return !m_hidden.contains(graph);
}

void LagChartGraphs::applyVisibility() {
    for (const auto& envelope : std::as_const(m_envelopes))
        envelope->show(!m_hidden.contains(envelope->source()), m_level);
}

QCPGraph* LagChartGraphs::drawnGraph(QCPGraph* series) const {
    const auto envelope = m_envelopes.value(series);
    return envelope ? envelope->level(m_level) : series;
}

QList<ChartReadout::Series> LagChartGraphs::readoutSeries() const {
    QList<ChartReadout::Series> series;
    if (!m_hidden.contains(m_total))
        series.append({m_total, m_total->name(), ChartReadout::Unit::Count});
    for (auto it = m_topics.cbegin(); it != m_topics.cend(); ++it)
        if (!m_hidden.contains(it.value()))
            series.append({it.value(), it.key(), ChartReadout::Unit::Count});
    if (!m_hidden.contains(m_timeLag))
        series.append({m_timeLag, m_timeLag->name(), ChartReadout::Unit::Seconds});
    return series;
}

bool LagChartGraphs::applyDetailLevel(const QCPRange& keys, int widthPixels) {
    const auto data = m_total->data();
    const double samplesPerPixel =
        double(data->findEnd(keys.upper) - data->findBegin(keys.lower)) / std::max(1, widthPixels);
    const bool dense = samplesPerPixel > denseSamplesPerPixel;
    const int level = envelopeLevelFor(samplesPerPixel);
    if (dense == m_dense && level == m_level)
        return false;
    m_dense = dense;
    m_level = level;
    for (const auto& envelope : std::as_const(m_envelopes))
        envelope->setAntialiased(!dense);
    setSeriesPen(m_total, totalPen());
    applyVisibility();
    return true;
}

void LagChartGraphs::fitValueAxes(const QCPRange& keys) {
    // From what is drawn: an envelope has the same extremes as its source, in fewer points.
    const auto spanOf = [&](QCPGraph* series) {
        return valueSpanIn(m_envelopes.value(series)->level(m_level), keys);
    };
    double lagMax = qQNaN();
    double lagMin = 0; // a truncated log can make lag negative; the axis then shows it
    QList<QCPGraph*> lagSeries{m_total};
    lagSeries.append(m_topics.values());
    for (QCPGraph* series : std::as_const(lagSeries)) {
        if (m_hidden.contains(series))
            continue;
        const ValueSpan span = spanOf(series);
        if (!std::isnan(span.maximum) && !(span.maximum <= lagMax))
            lagMax = span.maximum;
        if (!std::isnan(span.minimum))
            lagMin = std::min(lagMin, span.minimum);
    }
    m_plot->yAxis->setRange(lagMin, axisTop(lagMax, 10, lagHeadroom));
    const double timeLagMax = m_hidden.contains(m_timeLag) ? qQNaN() : spanOf(m_timeLag).maximum;
    m_plot->yAxis2->setRange(0, axisTop(timeLagMax, 60, timeLagHeadroom));
}

} // namespace groupscope::ui
