#pragma once

#include "lag/LagChartSeries.h"
#include "lag/LagTrail.h"
#include "monitor/GroupMonitorSnapshot.h"
#include "plots/ChartColors.h"
#include "plots/ChartNavigation.h"
#include "plots/ChartReadout.h"

#include <QWidget>

#include <memory>

class QCPAbstractLegendItem;
class QCPGraph;
class QCPItemRect;
class QCPItemText;
class QCPLayer;
class QCPRange;
class QCustomPlot;
class QLabel;
class QToolButton;

namespace groupscope::ui {

class LagChartGraphs;

// A group's lag over time: the total and each topic's lag on the left axis, the worst
// partition's time lag on the right one. Live samples come from GroupMonitorSnapshots; the
// history window rebuilt from the offsets topic (GroupMonitorSnapshot::lagBackfill) fills
// the time before the first one, shaded, so the chart opens with the last hour. The series
// themselves live in a lag::LagChartSeries; this widget only draws them (LagChartGraphs)
// where a ChartNavigation says the view is.
//
// While following, the time axis keeps "now" at its right edge. Zooming (wheel, +/-) or
// panning (drag, arrows) stops following; Follow (F) brings it back, Reset zoom (0, double
// click) shows everything and follows. Clicking a legend entry hides or shows its series.
// Data arrives every poll, but the plot repaints at most once per event-loop pass and not
// while hidden. Wide views draw each series from its min/max envelope (SeriesEnvelope) and
// without antialiasing once there are more samples than pixel columns, which keeps a day
// of 50 series within a frame (BenchGuiLagChart); the hover read-out has its own buffered
// layer, so moving the mouse never redraws the series.
class LagChartWidget : public QWidget {
    Q_OBJECT
public:
    static constexpr double defaultSpanSeconds = ChartNavigation::defaultSpanSeconds;
    static constexpr double minimumSpanSeconds = ChartNavigation::minimumSpanSeconds;
    // How much of the past stays in memory: a day of 2 s samples is 43,200 per series.
    static constexpr double retentionSeconds = lag::LagChartSeries::retentionMs / 1000.0;

    explicit LagChartWidget(QWidget* parent = nullptr);
    ~LagChartWidget() override;

    // Adds one sample to every series (a failed poll adds none). A snapshot carrying a new
    // lag backfill also replaces the history shown before the first live sample.
    void appendSnapshot(const monitor::GroupMonitorSnapshot& snapshot);
    // The rebuilt past; points at or after the first live sample are dropped (live wins).
    void setHistory(const lag::LagTrail& trail);
    // Forgets everything, e.g. when another group is opened.
    void clear();
    // The chart as shown (without the hover read-out), at the widget's size.
    bool exportPng(const QString& path, QString* error);

    // View, as the keys and buttons drive it. Times are seconds since the epoch.
    bool isFollowing() const { return m_navigation.isFollowing(); }
    void setFollowing(bool following);
    void zoomBy(double factor); // < 1 zooms in
    void panBy(double fractionOfSpan);
    void resetZoom();
    QCPRange visibleTimeRange() const;

    // The hover read-out at a time, as moving the mouse there shows it.
    void showReadoutAt(double timeSeconds);
    void hideReadout();
    QString readoutText() const { return m_readout->text(); }

    // Series are the graphs topicGraph() and friends return; hidden ones leave the plot,
    // the read-out and the value axes' scaling.
    void setSeriesVisible(QCPGraph* graph, bool visible);
    bool isSeriesVisible(QCPGraph* graph) const;
    // The graph that draws a series now: the series itself, or its envelope when so many
    // samples are in view that the envelope looks the same and draws much faster.
    QCPGraph* drawnGraph(QCPGraph* series) const;
    QCustomPlot* plot() const { return m_plot; }
    QCPGraph* totalGraph() const;
    QCPGraph* timeLagGraph() const;
    QCPGraph* topicGraph(const QString& topic) const;
    QStringList topics() const;
    // What the chart draws.
    const lag::LagChartSeries& series() const { return m_series; }
    QToolButton* followButton() const { return m_followButton; }
    QToolButton* exportButton() const { return m_exportButton; }

signals:
    void statusMessage(const QString& text);
    void followingChanged(bool following);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildToolbar();
    void buildPlot();
    void buildLegend();
    void buildHistoryShade();
    void applyColors();
    // After the series changed: copies it into the graphs and moves a following view.
    void seriesChanged();
    void updateHistoryShade();
    // Shows the navigation's range, and tells about a change of following since
    // `wasFollowing`.
    void showNavigation(bool wasFollowing);
    // Sets the time axis without counting it as the user's zoom or pan.
    void setTimeRange(double lower, double upper);
    void onTimeRangeChanged();
    void rescaleValueAxes();
    void scheduleReplot();
    void exportWithChooser();
    void toggleFromLegend(QCPAbstractLegendItem* item);
    void onMouseMove(QMouseEvent* event);

    QCustomPlot* m_plot;
    QCPLayer* m_hoverLayer;
    std::unique_ptr<ChartReadout> m_readout;
    std::unique_ptr<LagChartGraphs> m_graphs;
    QCPItemRect* m_historyShade;
    QCPItemText* m_historyLabel;
    QToolButton* m_followButton;
    QToolButton* m_resetButton;
    QToolButton* m_exportButton;
    QLabel* m_hint;
    ChartColors m_colors;

    QString m_group;
    lag::LagChartSeries m_series;
    ChartNavigation m_navigation{retentionSeconds};
    bool m_settingRange = false;
    bool m_replotPending = false;
};

} // namespace groupscope::ui
