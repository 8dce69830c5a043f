#include "widgets/LagChartWidget.h"

#include "dialogs/FileChooser.h"
#include "plots/CountTicker.h"
#include "plots/DurationTicker.h"
#include "plots/SeriesEnvelope.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace groupscope::ui {

namespace {

// Room right of the newest sample while following, as a share of the span, so the newest
// point is not glued to the axis.
constexpr double followMarginShare = 0.02;
// The narrowest view while following, so the first samples do not fill the whole width.
constexpr double minimumFollowSpanSeconds = 120;
// Topics beyond this many get no legend entry: a legend of 50 entries hides the chart.
constexpr int legendTopicLimit = 16;
constexpr int legendColumns = 8;
const QString hoverLayerName = QStringLiteral("hover");

// With more samples than pixel columns in view, lines go out without antialiasing: the
// replot is then 2-3x faster (BenchGuiLagChart), and a line that zigzags within each pixel
// column shows no jagged edges anyway.
constexpr double denseSamplesPerPixel = 1.0;

// The envelope level for a number of samples per pixel column: the coarsest whose two
// points per block still give every column at least one point (SeriesEnvelope).
int envelopeLevelFor(double samplesPerPixel) {
    int level = 0;
    for (size_t i = 0; i < ui::SeriesEnvelope::blockSizes.size(); ++i)
        if (samplesPerPixel > ui::SeriesEnvelope::blockSizes[i] / 2.0)
            level = int(i) + 1;
    return level;
}
// Samples older than the retention go in batches, so the envelopes are rebuilt every ten
// minutes rather than on every poll.
constexpr double expiryBatchSeconds = 600;

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

// Lag and time lag usually rise and fall together: with the same headroom on both axes
// their peaks would be drawn on top of each other. The time lag's peak sits lower.
constexpr double lagHeadroom = 1.08;
constexpr double timeLagHeadroom = 1.35;

} // namespace

LagChartWidget::LagChartWidget(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this)) {
    m_followButton = new QToolButton(this);
    m_followButton->setText(tr("Follow"));
    m_followButton->setCheckable(true);
    m_followButton->setChecked(true);
    m_followButton->setToolTip(tr("Keep the newest samples in view (F)"));
    m_resetButton = new QToolButton(this);
    m_resetButton->setText(tr("Reset zoom"));
    m_resetButton->setToolTip(tr("Show all samples and follow (0, or double-click the chart)"));
    m_exportButton = new QToolButton(this);
    m_exportButton->setText(tr("Export PNG\u2026"));
    m_hint = new QLabel(tr("Wheel: zoom \u00b7 drag: pan \u00b7 +/\u2212/\u2190/\u2192 \u00b7 "
                           "click a legend entry to hide it"),
                        this);
    m_hint->setForegroundRole(QPalette::PlaceholderText);

    auto* toolbar = new QHBoxLayout;
    toolbar->setContentsMargins(0, 0, 0, 0);
    toolbar->addWidget(m_followButton);
    toolbar->addWidget(m_resetButton);
    toolbar->addWidget(m_exportButton);
    toolbar->addSpacing(12);
    toolbar->addWidget(m_hint, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(toolbar);
    layout->addWidget(m_plot, 1);

    buildPlot();
    applyColors();
    setFocusPolicy(Qt::StrongFocus);
    m_plot->setFocusPolicy(Qt::StrongFocus);
    setFocusProxy(m_plot);

    connect(m_followButton, &QToolButton::clicked, this, &LagChartWidget::setFollowing);
    connect(m_resetButton, &QToolButton::clicked, this, &LagChartWidget::resetZoom);
    connect(m_exportButton, &QToolButton::clicked, this, &LagChartWidget::exportWithChooser);
}

LagChartWidget::~LagChartWidget() = default;

void LagChartWidget::buildPlot() {
    // Not phFastPolylines: with antialiased 1 px lines it made the replot slower, and with
    // cosmetic pens there is nothing for it to save (measured in BenchGuiLagChart's peer).
    m_plot->setPlottingHints(QCP::phCacheLabels);
    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->setMouseTracking(true);
    m_plot->installEventFilter(this);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    QCPAxisRect* rect = m_plot->axisRect();
    rect->setRangeDrag(Qt::Horizontal);
    rect->setRangeZoom(Qt::Horizontal);
    rect->setRangeDragAxes(m_plot->xAxis, nullptr);
    rect->setRangeZoomAxes(m_plot->xAxis, nullptr);
    rect->setRangeZoomFactor(0.85);

    auto timeTicker = QSharedPointer<QCPAxisTickerDateTime>::create();
    timeTicker->setDateTimeFormat(QStringLiteral("HH:mm"));
    timeTicker->setTickCount(7);
    m_plot->xAxis->setTicker(timeTicker);
    m_plot->yAxis->setTicker(QSharedPointer<CountTicker>::create());
    m_plot->yAxis->setLabel(tr("Lag (messages)"));
    m_plot->yAxis2->setVisible(true);
    m_plot->yAxis2->setTicker(QSharedPointer<DurationTicker>::create());
    m_plot->yAxis2->setLabel(tr("Time lag"));
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis, m_plot->yAxis2}) {
        axis->grid()->setSubGridVisible(axis == m_plot->xAxis);
        axis->setTickLength(0, 4);
        axis->setSubTickLength(0, 2);
    }
    m_plot->yAxis2->grid()->setVisible(false); // one grid: the lag axis's
    m_plot->yAxis->setRange(0, 10);
    m_plot->yAxis2->setRange(0, 60);
    connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            &LagChartWidget::onTimeRangeChanged);

    // The legend as a row of entries under the chart, packed to the left: it never covers
    // a series. The empty element beside it takes the row's spare width.
    QCPLegend* legend = m_plot->legend;
    legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->take(legend);
    auto* legendRow = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(1, 0, legendRow);
    m_plot->plotLayout()->setRowStretchFactor(1, 0.001);
    m_plot->plotLayout()->setRowSpacing(2);
    legendRow->addElement(0, 0, legend);
    legendRow->addElement(0, 1, new QCPLayoutElement(m_plot));
    legendRow->setColumnStretchFactor(0, 0.001);
    legendRow->setColumnStretchFactor(1, 1);
    legendRow->setMargins(QMargins());
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(legendColumns);
    legend->setMargins(QMargins(12, 2, 12, 6));
    legend->setColumnSpacing(18);
    legend->setIconSize(18, 10);
    legend->setSelectableParts(QCPLegend::spNone);
    connect(
        m_plot, &QCustomPlot::legendClick, this,
        [this](QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*) { toggleFromLegend(item); });
    // The detail level depends on the plot's width in pixels, which is only known once the
    // plot is laid out: a chart filled while its tab was hidden had a tiny width then.
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        const int before = m_level;
        applyDetailLevel();
        if (m_level != before) {
            rescaleValueAxes();
            m_plot->replot(QCustomPlot::rpQueuedReplot);
        }
    });
    connect(m_plot, &QCustomPlot::mouseMove, this, &LagChartWidget::onMouseMove);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this] { resetZoom(); });

    m_historyShade = new QCPItemRect(m_plot);
    m_historyShade->setLayer(QStringLiteral("background"));
    m_historyShade->setSelectable(false);
    m_historyLabel = new QCPItemText(m_plot);
    m_historyLabel->setText(tr("rebuilt from the offsets topic"));
    m_historyLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_historyLabel->setPadding(QMargins(6, 4, 6, 4));
    m_historyLabel->setLayer(QStringLiteral("background"));
    m_historyLabel->setSelectable(false);
    QFont small = m_historyLabel->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    m_historyLabel->setFont(small);
    for (QCPItemPosition* position :
         {m_historyShade->topLeft, m_historyShade->bottomRight, m_historyLabel->position}) {
        position->setTypeX(QCPItemPosition::ptPlotCoords);
        position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    m_historyShade->setVisible(false);
    m_historyLabel->setVisible(false);

    m_total = addGraph(tr("Total lag"), false);
    m_timeLag = addGraph(tr("Time lag"), true);

    m_plot->addLayer(hoverLayerName, m_plot->layer(QStringLiteral("overlay")),
                     QCustomPlot::limAbove);
    m_hoverLayer = m_plot->layer(hoverLayerName);
    m_hoverLayer->setMode(QCPLayer::lmBuffered);
    m_readout = std::make_unique<ChartReadout>(m_plot, m_hoverLayer);
    setTimeRange(QDateTime::currentMSecsSinceEpoch() / 1000.0 - defaultSpanSeconds,
                 QDateTime::currentMSecsSinceEpoch() / 1000.0);
}

QCPGraph* LagChartWidget::addGraph(const QString& name, bool onTimeAxis) {
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

void LagChartWidget::applyColors() {
    m_colors = ChartColors::fromPalette(palette());
    m_plot->setBackground(m_colors.background);
    m_plot->axisRect()->setBackground(m_colors.background);
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis, m_plot->yAxis2}) {
        axis->setBasePen(QPen(m_colors.axis, 1));
        axis->setTickPen(QPen(m_colors.axis, 1));
        axis->setSubTickPen(QPen(m_colors.axis, 1));
        axis->setTickLabelColor(m_colors.text);
        axis->setLabelColor(m_colors.mutedText);
        axis->grid()->setPen(QPen(m_colors.grid, 1, Qt::SolidLine));
        axis->grid()->setSubGridPen(QPen(m_colors.subGrid, 1, Qt::SolidLine));
        axis->grid()->setZeroLinePen(Qt::NoPen);
    }
    m_plot->yAxis2->setLabelColor(m_colors.timeLag);
    QCPLegend* legend = m_plot->legend;
    legend->setBrush(Qt::NoBrush);
    legend->setBorderPen(Qt::NoPen);
    legend->setTextColor(m_colors.text);

    setSeriesPen(m_total, totalPen());
    setSeriesPen(m_timeLag, QPen(m_colors.timeLag, 1));
    int index = 0;
    for (QCPGraph* graph : std::as_const(m_topics))
        setSeriesPen(graph, topicPen(index++));
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i)))
            item->setTextColor(m_hidden.contains(item->plottable()) ? m_colors.mutedText
                                                                    : m_colors.text);

    m_historyShade->setPen(Qt::NoPen);
    m_historyShade->setBrush(m_colors.historyShade);
    m_historyLabel->setColor(m_colors.mutedText);
    m_readout->setColors(m_colors);
    scheduleReplot();
}

QPen LagChartWidget::totalPen() const {
    // Wider only while few samples are in view: a wide pen's stroke is costly with a day
    // of samples (tens of milliseconds per series, against ~1 ms at 1 px).
    return QPen(m_colors.total, m_dense ? 1 : 2);
}

QPen LagChartWidget::topicPen(int index) const {
    // Exactly 1 px: QCustomPlot then draws with a cosmetic pen, several times faster with
    // dozens of series than any other width (QCPAbstractPlottable1D::drawPolyline).
    return QPen(m_colors.seriesColor(index), 1);
}

QCPGraph* LagChartWidget::topicGraphFor(const QString& topic) {
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

void LagChartWidget::appendSnapshot(const monitor::GroupMonitorSnapshot& snapshot) {
    if (snapshot.group != m_group) {
        if (!m_group.isEmpty())
            clear();
        m_group = snapshot.group;
    }
    const double key = double(snapshot.takenAtMs) / 1000.0;
    QMap<QString, int64_t> topicLag;
    bool anyLag = false;
    for (const monitor::MonitoredPartition& partition : snapshot.partitions) {
        if (!partition.lag)
            continue;
        topicLag[partition.topicPartition.topic] += *partition.lag;
        anyLag = true;
    }
    // A failed poll repeats the last good rows: plotting them would draw a flat lie.
    const bool usable = !snapshot.error.isError() && snapshot.exists && anyLag &&
                        (std::isnan(m_lastLiveKey) || key > m_lastLiveKey);
    if (usable)
        addLivePoint(key, snapshot.totalLag, topicLag,
                     snapshot.maxTimeLag.isKnown() ? snapshot.maxTimeLag.seconds
                                                   : std::numeric_limits<double>::quiet_NaN());
    if (!snapshot.lagBackfill.isEmpty() && snapshot.lagBackfill.timesMs != m_history.timesMs)
        setHistory(snapshot.lagBackfill);
    if (usable && m_following)
        followNow();
    updateHistoryShade();
    rescaleValueAxes();
    scheduleReplot();
}

void LagChartWidget::addLivePoint(double key, int64_t totalLag,
                                  const QMap<QString, int64_t>& topicLag, double timeLagSeconds) {
    if (std::isnan(m_firstLiveKey))
        m_firstLiveKey = key;
    m_lastLiveKey = key;
    m_total->addData(key, double(totalLag));
    m_timeLag->addData(key, timeLagSeconds);
    for (auto it = topicLag.cbegin(); it != topicLag.cend(); ++it)
        topicGraphFor(it.key())->addData(key, double(it.value()));
    for (const auto& envelope : std::as_const(m_envelopes))
        envelope->appendNewest();
    dropExpired(key);
}

void LagChartWidget::dropExpired(double newestKey) {
    const double cutoff = newestKey - retentionSeconds;
    if (m_total->data()->isEmpty() ||
        m_total->data()->constBegin()->key >= cutoff - expiryBatchSeconds)
        return;
    for (const auto& envelope : std::as_const(m_envelopes)) {
        envelope->source()->data()->removeBefore(cutoff);
        envelope->rebuild();
    }
    updateHistoryShade();
}

void LagChartWidget::setHistory(const lag::LagTrail& trail) {
    // Take out the previous history (everything before the first live sample), then put
    // the new one in: rebuilt points never overlap live ones.
    const double historyEnd =
        std::isnan(m_firstLiveKey) ? std::numeric_limits<double>::infinity() : m_firstLiveKey;
    if (!m_history.isEmpty())
        for (const auto& envelope : std::as_const(m_envelopes))
            envelope->source()->data()->removeBefore(historyEnd);
    m_history = trail;

    QVector<double> keys;
    QVector<qsizetype> indexes;
    for (qsizetype i = 0; i < trail.size(); ++i) {
        const double key = double(trail.timesMs[i]) / 1000.0;
        if (key >= historyEnd)
            break;
        keys.append(key);
        indexes.append(i);
    }
    const auto column = [&](const auto& values) {
        QVector<double> out;
        out.reserve(indexes.size());
        for (const qsizetype i : indexes)
            out.append(double(values[i]));
        return out;
    };
    if (!keys.isEmpty()) {
        m_total->addData(keys, column(trail.totalLag), true);
        m_timeLag->addData(keys, column(trail.maxTimeLagSeconds), true);
        for (auto it = trail.topicLag.cbegin(); it != trail.topicLag.cend(); ++it)
            topicGraphFor(it.key())->addData(keys, column(it.value()), true);
    }
    for (const auto& envelope : std::as_const(m_envelopes))
        envelope->rebuild();
    updateHistoryShade();
    if (m_following)
        followNow();
    rescaleValueAxes();
    scheduleReplot();
}

void LagChartWidget::updateHistoryShade() {
    const auto data = m_total->data();
    const double start = data->isEmpty() ? qQNaN() : data->constBegin()->key;
    const double end = std::isnan(m_firstLiveKey)
                           ? (data->isEmpty() ? qQNaN() : (data->constEnd() - 1)->key)
                           : m_firstLiveKey;
    const bool shown = !m_history.isEmpty() && !std::isnan(start) && start < end;
    m_historyShade->setVisible(shown);
    m_historyLabel->setVisible(shown);
    if (!shown)
        return;
    m_historyShade->topLeft->setCoords(start, 0);
    m_historyShade->bottomRight->setCoords(end, 1);
    // At the left edge of the shade's visible part, so scrolling never cuts the label.
    const QCPRange view = m_plot->xAxis->range();
    m_historyLabel->position->setCoords(std::max(start, view.lower), 0);
    m_historyLabel->setVisible(end > view.lower && start < view.upper);
}

void LagChartWidget::clear() {
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
    m_history = {};
    m_group.clear();
    m_firstLiveKey = qQNaN();
    m_lastLiveKey = qQNaN();
    m_spanSeconds = defaultSpanSeconds;
    m_readout->hide();
    updateHistoryShade();
    setFollowing(true);
    const double now = QDateTime::currentMSecsSinceEpoch() / 1000.0;
    setTimeRange(now - m_spanSeconds, now);
    rescaleValueAxes();
    scheduleReplot();
}

double LagChartWidget::newestKey() const {
    const auto data = m_total->data();
    return data->isEmpty() ? qQNaN() : (data->constEnd() - 1)->key;
}

double LagChartWidget::oldestKey() const {
    const auto data = m_total->data();
    return data->isEmpty() ? qQNaN() : data->constBegin()->key;
}

QCPRange LagChartWidget::visibleTimeRange() const {
    return m_plot->xAxis->range();
}

void LagChartWidget::setTimeRange(double lower, double upper) {
    m_settingRange = true;
    m_plot->xAxis->setRange(lower, upper);
    m_settingRange = false;
}

void LagChartWidget::followNow() {
    const double newest = newestKey();
    if (std::isnan(newest))
        return;
    // A young series fills the view instead of sitting at the right edge of an empty hour.
    const double oldest = oldestKey();
    const double dataSpan = (newest - oldest) / (1 - 2 * followMarginShare);
    const double span = std::min(m_spanSeconds, std::max(minimumFollowSpanSeconds, dataSpan));
    const double upper = newest + span * followMarginShare;
    setTimeRange(upper - span, upper);
}

void LagChartWidget::setFollowing(bool following) {
    const bool changed = following != m_following;
    m_following = following;
    m_followButton->setChecked(following);
    if (following) {
        followNow();
        rescaleValueAxes();
        scheduleReplot();
    }
    if (changed)
        emit followingChanged(following);
}

void LagChartWidget::onTimeRangeChanged() {
    const QCPRange range = m_plot->xAxis->range();
    if (!m_settingRange) {
        // The user's wheel or drag. Following means "now is in view": zooming at the right
        // edge keeps it, going back in time ends it.
        if (range.size() < minimumSpanSeconds) {
            const double center = range.center();
            setTimeRange(center - minimumSpanSeconds / 2, center + minimumSpanSeconds / 2);
        }
        m_spanSeconds = m_plot->xAxis->range().size();
        const double newest = newestKey();
        const bool nowInView = !std::isnan(newest) && m_plot->xAxis->range().upper >= newest;
        if (nowInView != m_following)
            setFollowing(nowInView);
    }
    // Drags re-enter here on every mouse move: the rescale is linear in the visible points,
    // which adaptive sampling needs to look at for the replot anyway.
    rescaleValueAxes();
    updateHistoryShade();
    if (m_readout->isShown())
        m_readout->hide();
}

void LagChartWidget::zoomBy(double factor) {
    const double span = std::clamp(m_spanSeconds * factor, minimumSpanSeconds, retentionSeconds);
    m_spanSeconds = span;
    if (m_following) {
        followNow();
    } else {
        const double center = m_plot->xAxis->range().center();
        setTimeRange(center - span / 2, center + span / 2);
    }
    rescaleValueAxes();
    scheduleReplot();
}

void LagChartWidget::panBy(double fractionOfSpan) {
    const QCPRange range = m_plot->xAxis->range();
    const double shift = range.size() * fractionOfSpan;
    const double newest = newestKey();
    if (!std::isnan(newest) && range.upper + shift >= newest) {
        setFollowing(true); // panned back to now
        return;
    }
    setTimeRange(range.lower + shift, range.upper + shift);
    setFollowing(false);
    rescaleValueAxes();
    scheduleReplot();
}

void LagChartWidget::resetZoom() {
    const double oldest = oldestKey();
    const double newest = newestKey();
    const double dataSpan = std::isnan(oldest) ? 0 : (newest - oldest) / (1 - followMarginShare);
    m_spanSeconds = std::max(defaultSpanSeconds, dataSpan);
    setFollowing(true);
    followNow();
    rescaleValueAxes();
    scheduleReplot();
}

void LagChartWidget::rescaleValueAxes() {
    const QCPRange keys = m_plot->xAxis->range();
    applyDetailLevel();
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

void LagChartWidget::applyDetailLevel() {
    const QCPRange keys = m_plot->xAxis->range();
    const auto data = m_total->data();
    const double samplesPerPixel = double(data->findEnd(keys.upper) - data->findBegin(keys.lower)) /
                                   std::max(1, m_plot->axisRect()->width());
    const bool dense = samplesPerPixel > denseSamplesPerPixel;
    const int level = envelopeLevelFor(samplesPerPixel);
    if (dense == m_dense && level == m_level)
        return;
    m_dense = dense;
    m_level = level;
    for (const auto& envelope : std::as_const(m_envelopes))
        envelope->setAntialiased(!dense);
    setSeriesPen(m_total, totalPen());
    applyVisibility();
}

void LagChartWidget::applyVisibility() {
    for (const auto& envelope : std::as_const(m_envelopes)) {
        envelope->show(!m_hidden.contains(envelope->source()), m_level);
    }
}

void LagChartWidget::setSeriesPen(QCPGraph* series, const QPen& pen) {
    series->setPen(pen);
    if (const auto envelope = m_envelopes.value(series))
        envelope->setPen(pen);
}

bool LagChartWidget::isSeriesVisible(QCPGraph* graph) const {
    return !m_hidden.contains(graph);
}

QCPGraph* LagChartWidget::drawnGraph(QCPGraph* series) const {
    const auto envelope = m_envelopes.value(series);
    return envelope ? envelope->level(m_level) : series;
}

void LagChartWidget::scheduleReplot() {
    if (!isVisible()) {
        m_replotPending = true; // repainted when shown: a hidden tab costs nothing
        return;
    }
    m_replotPending = false;
    // Queued: many samples or a backfill in one event-loop pass still cost one replot.
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void LagChartWidget::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_replotPending)
        scheduleReplot();
}

void LagChartWidget::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyColors();
}

void LagChartWidget::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(0.5);
        break;
    case Qt::Key_Minus:
        zoomBy(2);
        break;
    case Qt::Key_0:
    case Qt::Key_Home:
        resetZoom();
        break;
    case Qt::Key_F:
    case Qt::Key_End:
        setFollowing(true);
        break;
    case Qt::Key_Left:
        panBy(-0.25);
        break;
    case Qt::Key_Right:
        panBy(0.25);
        break;
    case Qt::Key_Escape:
        hideReadout();
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

bool LagChartWidget::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_plot && event->type() == QEvent::Leave)
        hideReadout();
    return QWidget::eventFilter(watched, event);
}

void LagChartWidget::onMouseMove(QMouseEvent* event) {
    const bool dragging = event->buttons() != Qt::NoButton;
    if (dragging || !m_plot->axisRect()->rect().contains(event->pos())) {
        hideReadout();
        return;
    }
    showReadoutAt(m_plot->xAxis->pixelToCoord(event->pos().x()));
}

QList<ChartReadout::Series> LagChartWidget::readoutSeries() const {
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

void LagChartWidget::showReadoutAt(double timeSeconds) {
    if (m_total->data()->isEmpty()) {
        hideReadout();
        return;
    }
    m_readout->showAt(timeSeconds, readoutSeries());
}

void LagChartWidget::hideReadout() {
    m_readout->hide();
}

void LagChartWidget::setSeriesVisible(QCPGraph* graph, bool visible) {
    if (visible)
        m_hidden.remove(graph);
    else
        m_hidden.insert(graph);
    applyVisibility();
    if (QCPPlottableLegendItem* item = m_plot->legend->itemWithPlottable(graph))
        item->setTextColor(visible ? m_colors.text : m_colors.mutedText);
    hideReadout();
    rescaleValueAxes();
    scheduleReplot();
}

void LagChartWidget::toggleFromLegend(QCPAbstractLegendItem* item) {
    if (auto* entry = qobject_cast<QCPPlottableLegendItem*>(item))
        if (auto* graph = qobject_cast<QCPGraph*>(entry->plottable()))
            setSeriesVisible(graph, !isSeriesVisible(graph));
}

bool LagChartWidget::exportPng(const QString& path, QString* error) {
    const bool readoutShown = m_readout->isShown();
    const double readoutKey = m_readout->key();
    m_readout->hide();
    // A chart that was never laid out on screen still exports at a readable size.
    const QSize size = m_plot->isVisible() ? m_plot->size() : QSize(1200, 600);
    const bool saved = m_plot->savePng(path, size.width(), size.height());
    if (readoutShown)
        showReadoutAt(readoutKey);
    if (!saved && error)
        *error = tr("Could not write the image to %1").arg(path);
    return saved;
}

void LagChartWidget::exportWithChooser() {
    const QString suggested =
        QStringLiteral("%1-lag-%2.png")
            .arg(m_group.isEmpty() ? QStringLiteral("group") : m_group,
                 QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmm")));
    const QString path =
        FileChooser::saveFile(this, tr("Export lag chart"), suggested, tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    QString error;
    if (exportPng(path, &error))
        emit statusMessage(tr("Lag chart saved to %1").arg(path));
    else
        emit statusMessage(error);
}

} // namespace groupscope::ui
