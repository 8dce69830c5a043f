#include "widgets/LagChartWidget.h"

#include "dialogs/FileChooser.h"
#include "plots/CountTicker.h"
#include "plots/DurationTicker.h"
#include "plots/LagChartGraphs.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace groupscope::ui {

namespace {

constexpr int legendColumns = 8;
const QString hoverLayerName = QStringLiteral("hover");

double nowSeconds() {
    return double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
}

// A poll as the chart plots it, or nothing: a failed poll repeats the last good rows, and
// plotting them would draw a flat lie; a poll without any partition's lag has nothing.
std::optional<lag::LagChartSample> chartSampleOf(const monitor::GroupMonitorSnapshot& snapshot) {
    if (snapshot.error.isError() || !snapshot.exists)
        return std::nullopt;
    lag::LagChartSample sample;
    sample.timeMs = snapshot.takenAtMs;
    sample.totalLag = snapshot.totalLag;
    // Partitions come in topic order: one map lookup per topic rather than per partition
    // (a group of 10,000 partitions would otherwise spend most of this in string compares).
    const QString* topic = nullptr;
    int64_t topicSum = 0;
    const auto addTopic = [&] {
        if (topic)
            sample.topicLag[*topic] += topicSum;
    };
    for (const monitor::MonitoredPartition& partition : snapshot.partitions) {
        if (!partition.lag)
            continue;
        if (!topic || partition.topicPartition.topic != *topic) {
            addTopic();
            topic = &partition.topicPartition.topic;
            topicSum = 0;
        }
        topicSum += *partition.lag;
    }
    addTopic();
    if (sample.topicLag.isEmpty())
        return std::nullopt;
    if (snapshot.maxTimeLag.isKnown())
        sample.maxTimeLagSeconds = snapshot.maxTimeLag.seconds;
    return sample;
}

} // namespace

LagChartWidget::LagChartWidget(QWidget* parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this)) {
    buildToolbar();
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

void LagChartWidget::buildToolbar() {
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
}

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

    buildLegend();
    // The detail level depends on the plot's width in pixels, which is only known once the
    // plot is laid out: a chart filled while its tab was hidden had a tiny width then.
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        const QCPRange keys = m_plot->xAxis->range();
        if (m_graphs->applyDetailLevel(keys, m_plot->axisRect()->width())) {
            m_graphs->fitValueAxes(keys);
            m_plot->replot(QCustomPlot::rpQueuedReplot);
        }
    });
    connect(m_plot, &QCustomPlot::mouseMove, this, &LagChartWidget::onMouseMove);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this] { resetZoom(); });

    buildHistoryShade();
    m_graphs = std::make_unique<LagChartGraphs>(m_plot);

    m_plot->addLayer(hoverLayerName, m_plot->layer(QStringLiteral("overlay")),
                     QCustomPlot::limAbove);
    m_hoverLayer = m_plot->layer(hoverLayerName);
    m_hoverLayer->setMode(QCPLayer::lmBuffered);
    m_readout = std::make_unique<ChartReadout>(m_plot, m_hoverLayer);
    m_navigation.reset(nowSeconds());
    setTimeRange(m_navigation.range().lower, m_navigation.range().upper);
}

void LagChartWidget::buildLegend() {
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
}

void LagChartWidget::buildHistoryShade() {
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
    m_graphs->setColors(m_colors);

    m_historyShade->setPen(Qt::NoPen);
    m_historyShade->setBrush(m_colors.historyShade);
    m_historyLabel->setColor(m_colors.mutedText);
    m_readout->setColors(m_colors);
    scheduleReplot();
}

QCPGraph* LagChartWidget::totalGraph() const {
    return m_graphs->total();
}

QCPGraph* LagChartWidget::timeLagGraph() const {
    return m_graphs->timeLag();
}

QCPGraph* LagChartWidget::topicGraph(const QString& topic) const {
    return m_graphs->topic(topic);
}

QStringList LagChartWidget::topics() const {
    return m_graphs->topics();
}

void LagChartWidget::appendSnapshot(const monitor::GroupMonitorSnapshot& snapshot) {
    if (snapshot.group != m_group) {
        if (!m_group.isEmpty())
            clear();
        m_group = snapshot.group;
    }
    bool changed = false;
    if (const auto sample = chartSampleOf(snapshot))
        changed = m_series.appendLive(*sample);
    if (!snapshot.lagBackfill.isEmpty())
        changed = m_series.setHistory(snapshot.lagBackfill) || changed;
    if (changed)
        seriesChanged();
}

void LagChartWidget::setHistory(const lag::LagTrail& trail) {
    if (m_series.setHistory(trail))
        seriesChanged();
}

void LagChartWidget::seriesChanged() {
    m_graphs->sync(m_series);
    const bool wasFollowing = isFollowing();
    m_navigation.setDataExtent(m_series.oldestKey(), m_series.newestKey());
    showNavigation(wasFollowing);
}

void LagChartWidget::clear() {
    m_series.clear();
    m_graphs->clear();
    m_group.clear();
    m_readout->hide();
    const bool wasFollowing = isFollowing();
    m_navigation.reset(nowSeconds());
    showNavigation(wasFollowing);
}

void LagChartWidget::updateHistoryShade() {
    const auto span = m_series.historySpan();
    m_historyShade->setVisible(span.has_value());
    m_historyLabel->setVisible(span.has_value());
    if (!span)
        return;
    m_historyShade->topLeft->setCoords(span->start, 0);
    m_historyShade->bottomRight->setCoords(span->end, 1);
    // At the left edge of the shade's visible part, so scrolling never cuts the label.
    const QCPRange view = m_plot->xAxis->range();
    m_historyLabel->position->setCoords(std::max(span->start, view.lower), 0);
    m_historyLabel->setVisible(span->end > view.lower && span->start < view.upper);
}

QCPRange LagChartWidget::visibleTimeRange() const {
    return m_plot->xAxis->range();
}

void LagChartWidget::setTimeRange(double lower, double upper) {
    m_settingRange = true;
    m_plot->xAxis->setRange(lower, upper);
    m_settingRange = false;
}

void LagChartWidget::showNavigation(bool wasFollowing) {
    setTimeRange(m_navigation.range().lower, m_navigation.range().upper);
    rescaleValueAxes();
    updateHistoryShade();
    scheduleReplot();
    m_followButton->setChecked(isFollowing());
    if (isFollowing() != wasFollowing)
        emit followingChanged(isFollowing());
}

void LagChartWidget::setFollowing(bool following) {
    const bool wasFollowing = isFollowing();
    m_navigation.setFollowing(following);
    showNavigation(wasFollowing);
}

void LagChartWidget::zoomBy(double factor) {
    const bool wasFollowing = isFollowing();
    m_navigation.zoomBy(factor);
    showNavigation(wasFollowing);
}

void LagChartWidget::panBy(double fractionOfSpan) {
    const bool wasFollowing = isFollowing();
    m_navigation.panBy(fractionOfSpan);
    showNavigation(wasFollowing);
}

void LagChartWidget::resetZoom() {
    const bool wasFollowing = isFollowing();
    m_navigation.resetZoom();
    showNavigation(wasFollowing);
}

void LagChartWidget::onTimeRangeChanged() {
    if (!m_settingRange) {
        // The user's wheel or drag: the navigation decides what stays of it.
        const bool wasFollowing = isFollowing();
        const QCPRange range = m_plot->xAxis->range();
        m_navigation.userMovedTo({range.lower, range.upper});
        setTimeRange(m_navigation.range().lower, m_navigation.range().upper);
        m_followButton->setChecked(isFollowing());
        if (isFollowing() != wasFollowing)
            emit followingChanged(isFollowing());
    }
    // Drags re-enter here on every mouse move: the rescale is linear in the visible points,
    // which adaptive sampling needs to look at for the replot anyway.
    rescaleValueAxes();
    updateHistoryShade();
    if (m_readout->isShown())
        m_readout->hide();
}

void LagChartWidget::rescaleValueAxes() {
    const QCPRange keys = m_plot->xAxis->range();
    m_graphs->applyDetailLevel(keys, m_plot->axisRect()->width());
    m_graphs->fitValueAxes(keys);
}

bool LagChartWidget::isSeriesVisible(QCPGraph* graph) const {
    return m_graphs->isSeriesVisible(graph);
}

QCPGraph* LagChartWidget::drawnGraph(QCPGraph* series) const {
    return m_graphs->drawnGraph(series);
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

void LagChartWidget::showReadoutAt(double timeSeconds) {
    if (m_graphs->isEmpty()) {
        hideReadout();
        return;
    }
    m_readout->showAt(timeSeconds, m_graphs->readoutSeries());
}

void LagChartWidget::hideReadout() {
    m_readout->hide();
}

void LagChartWidget::setSeriesVisible(QCPGraph* graph, bool visible) {
    m_graphs->setSeriesVisible(graph, visible);
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
