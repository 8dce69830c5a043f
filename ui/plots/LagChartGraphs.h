#pragma once

#include "lag/LagChartSeries.h"
#include "plots/ChartColors.h"
#include "plots/ChartReadout.h"

#include <QHash>
#include <QMap>
#include <QPen>
#include <QSet>

#include <cstdint>
#include <memory>

class QCPAbstractPlottable;
class QCPGraph;
class QCPRange;
class QCustomPlot;

namespace groupscope::ui {

class SeriesEnvelope;

// The graphs that draw a lag::LagChartSeries in a QCustomPlot: the total and each topic on
// the plot's left axis, the time lag on the right one, each with its envelopes
// (SeriesEnvelope) for wide views. The graphs hold copies of the core's points, which
// QCustomPlot needs in its own containers; sync() copies only what is new.
//
// Also what depends on the graphs alone: which series the user hid, the detail level for
// the samples in view (envelope level, antialiasing, the total's width), the pens, and the
// value axes' fit to what is drawn.
class LagChartGraphs {
public:
    explicit LagChartGraphs(QCustomPlot* plot);
    ~LagChartGraphs();

    // Brings the graphs up to the series: appends new points, or copies everything after
    // the series was rewritten. True when any graph changed.
    bool sync(const lag::LagChartSeries& series);
    // Removes the topics' graphs and every point; shows every series again.
    void clear();

    QCPGraph* total() const { return m_total; }
    QCPGraph* timeLag() const { return m_timeLag; }
    QCPGraph* topic(const QString& name) const { return m_topics.value(name); }
    QStringList topics() const { return m_topics.keys(); }
    bool isEmpty() const;

    void setColors(const ChartColors& colors);
    // Hidden series leave the plot, the read-out and the value axes' fit.
    void setSeriesVisible(QCPGraph* graph, bool visible);
    bool isSeriesVisible(QCPGraph* graph) const;
    // The series itself, or its envelope when that is what is drawn now.
    QCPGraph* drawnGraph(QCPGraph* series) const;
    QList<ChartReadout::Series> readoutSeries() const;

    // Chooses how to draw for the samples in `keys` over `widthPixels` columns. True when
    // that changed (the value axes then need a new fit).
    bool applyDetailLevel(const QCPRange& keys, int widthPixels);
    // Fits the value axes to the visible series' values in `keys`, with headroom.
    void fitValueAxes(const QCPRange& keys);

private:
    QCPGraph* addGraph(const QString& name, bool onTimeAxis);
    QCPGraph* topicGraphFor(const QString& topic);
    bool copyPoints(QCPGraph* graph, const lag::LagChartPoints& points, bool rewrite);
    QPen totalPen() const;
    QPen topicPen(int index) const;
    void setSeriesPen(QCPGraph* series, const QPen& pen);
    void applyVisibility();

    QCustomPlot* m_plot;
    QCPGraph* m_total;
    QCPGraph* m_timeLag;
    QMap<QString, QCPGraph*> m_topics;
    QHash<QCPGraph*, std::shared_ptr<SeriesEnvelope>> m_envelopes; // by series
    QSet<QCPAbstractPlottable*> m_hidden;                          // by the user
    ChartColors m_colors;
    uint64_t m_revision = 0; // of the series last copied
    bool m_dense = false;    // more samples in view than pixel columns
    int m_level = 0;         // SeriesEnvelope level drawn: 0 the series, higher coarser
};

} // namespace groupscope::ui
