#include "plots/ChartReadout.h"

#include "lag/DurationText.h"
#include "plots/ChartText.h"

#include <qcustomplot.h>

#include <cmath>

namespace groupscope::ui {

namespace {

constexpr int boxOffsetPixels = 14;
constexpr int boxPaddingPixels = 6;

// The value a series had at `key`: its newest sample at or before it.
std::optional<double> valueAt(const QCPGraph* graph, double key) {
    const auto data = graph->data();
    auto it = data->findEnd(key, false); // first sample after key
    if (it == data->constBegin())
        return std::nullopt;
    --it;
    if (std::isnan(it->value))
        return std::nullopt;
    return it->value;
}

QString valueText(std::optional<double> value, ChartReadout::Unit unit) {
    if (!value)
        return QStringLiteral("\u2013");
    return unit == ChartReadout::Unit::Seconds ? lag::durationText(*value)
                                               : ChartText::compactCount(*value);
}

} // namespace

ChartReadout::ChartReadout(QCustomPlot* plot, QCPLayer* layer)
    : m_plot(plot)
    , m_layer(layer)
    , m_cursor(new QCPItemStraightLine(plot))
    , m_box(new QCPItemText(plot)) {
    for (QCPAbstractItem* item :
         {static_cast<QCPAbstractItem*>(m_cursor), static_cast<QCPAbstractItem*>(m_box)}) {
        item->setLayer(layer);
        item->setVisible(false);
        item->setSelectable(false);
    }
    m_box->position->setType(QCPItemPosition::ptAbsolute);
    m_box->setTextAlignment(Qt::AlignLeft);
    m_box->setPadding(
        QMargins(boxPaddingPixels, boxPaddingPixels - 2, boxPaddingPixels, boxPaddingPixels - 2));
    m_box->setClipToAxisRect(false);
}

void ChartReadout::setColors(const ChartColors& colors) {
    m_colors = colors;
    QPen cursorPen(colors.axis, 1, Qt::DashLine);
    m_cursor->setPen(cursorPen);
    m_box->setColor(colors.readoutText);
    m_box->setBrush(colors.readoutBackground);
    m_box->setPen(QPen(colors.axis, 1));
}

double ChartReadout::nearestKey(const QCPGraph* graph, double key) {
    const auto data = graph->data();
    if (data->isEmpty())
        return key;
    auto after = data->findBegin(key, false); // first sample at or after key
    if (after == data->constEnd())
        return (after - 1)->key;
    if (after == data->constBegin())
        return after->key;
    const auto before = after - 1;
    return key - before->key <= after->key - key ? before->key : after->key;
}

QString ChartReadout::describe(double key, const QList<Series>& series) {
    const QDateTime time = QDateTime::fromMSecsSinceEpoch(std::llround(key * 1000));
    QStringList lines{time.toString(QStringLiteral("ddd d MMM, HH:mm:ss"))};
    for (const Series& entry : series)
        lines << QStringLiteral("%1: %2").arg(entry.label,
                                              valueText(valueAt(entry.graph, key), entry.unit));
    return lines.join(QLatin1Char('\n'));
}

void ChartReadout::showAt(double key, const QList<Series>& series) {
    if (series.isEmpty()) {
        hide();
        return;
    }
    m_key = nearestKey(series.first().graph, key);
    m_text = describe(m_key, series);
    while (m_tracers.size() < series.size()) {
        auto* tracer = new QCPItemTracer(m_plot);
        tracer->setLayer(m_layer);
        tracer->setSelectable(false);
        tracer->setStyle(QCPItemTracer::tsCircle);
        tracer->setSize(7);
        tracer->setInterpolating(false);
        m_tracers.append(tracer);
    }
    for (qsizetype i = 0; i < m_tracers.size(); ++i) {
        QCPItemTracer* tracer = m_tracers[i];
        const bool used = i < series.size() && valueAt(series[i].graph, m_key).has_value();
        tracer->setVisible(used);
        if (!used)
            continue;
        tracer->setGraph(series[i].graph);
        tracer->setGraphKey(m_key);
        tracer->setPen(QPen(series[i].graph->pen().color(), 1.5));
        tracer->setBrush(m_colors.background);
    }
    m_cursor->point1->setCoords(m_key, 0);
    m_cursor->point2->setCoords(m_key, 1);
    m_cursor->setVisible(true);
    m_box->setText(m_text);
    placeBox(m_key);
    m_box->setVisible(true);
    m_shown = true;
    repaint();
}

void ChartReadout::placeBox(double key) {
    const QCPAxisRect* rect = m_plot->axisRect();
    const double cursorX = m_plot->xAxis->coordToPixel(key);
    const QFontMetrics metrics(m_box->font());
    const QRect textSize = metrics.boundingRect(QRect(), Qt::AlignLeft, m_text);
    const int boxWidth = textSize.width() + 2 * boxPaddingPixels;
    // Right of the cursor where it fits, else left of it, so the box never leaves the plot.
    const bool leftOfCursor = cursorX + boxOffsetPixels + boxWidth > rect->right();
    m_box->setPositionAlignment(Qt::AlignTop | (leftOfCursor ? Qt::AlignRight : Qt::AlignLeft));
    m_box->position->setCoords(leftOfCursor ? cursorX - boxOffsetPixels : cursorX + boxOffsetPixels,
                               rect->top() + 8);
}

void ChartReadout::hide() {
    if (!m_shown)
        return;
    m_shown = false;
    m_text.clear();
    m_cursor->setVisible(false);
    m_box->setVisible(false);
    for (QCPItemTracer* tracer : m_tracers)
        tracer->setVisible(false);
    repaint();
}

void ChartReadout::repaint() {
    // Only the read-out's own layer: the series' buffers stay as they are.
    m_layer->replot();
}

} // namespace groupscope::ui
