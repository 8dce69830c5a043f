#pragma once

#include "plots/ChartColors.h"

#include <QList>
#include <QString>

class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QCPItemTracer;
class QCPLayer;
class QCustomPlot;

namespace groupscope::ui {

// The hover read-out of a time chart: a vertical cursor, a dot on each series and a box
// with the time and every series' value there. It lives on its own buffered layer, so
// following the mouse repaints only that layer, never the (possibly huge) series below.
class ChartReadout {
public:
    enum class Unit { Count, Seconds };
    struct Series {
        QCPGraph* graph = nullptr;
        QString label;
        Unit unit = Unit::Count;
    };

    ChartReadout(QCustomPlot* plot, QCPLayer* layer);

    void setColors(const ChartColors& colors);
    // Snaps to the nearest sample of the first series, so the box shows real samples.
    void showAt(double key, const QList<Series>& series);
    void hide();
    bool isShown() const { return m_shown; }
    double key() const { return m_key; }
    // What the box shows; empty while hidden.
    const QString& text() const { return m_text; }

    // The box's text for `key`: the time, then each series' latest value at or before it.
    static QString describe(double key, const QList<Series>& series);
    static double nearestKey(const QCPGraph* graph, double key);

private:
    void placeBox(double key);
    void repaint();

    QCustomPlot* m_plot;
    QCPLayer* m_layer;
    QCPItemStraightLine* m_cursor;
    QCPItemText* m_box;
    QList<QCPItemTracer*> m_tracers;
    ChartColors m_colors;
    bool m_shown = false;
    double m_key = 0;
    QString m_text;
};

} // namespace groupscope::ui
