#include "widgets/timeline/GenerationMarkersLayer.h"

#include "widgets/timeline/TimelineScene.h"
#include "widgets/timeline/TimelineTheme.h"

#include <QFontMetrics>

#include <algorithm>

namespace groupscope::ui {

namespace {

// Horizontal extents of labels drawn so far, to keep the next one off them.
class LabelSpace {
public:
    bool isFree(double left, double right) const {
        return std::none_of(m_taken.cbegin(), m_taken.cend(), [&](const QPair<double, double>& t) {
            return left < t.second && right > t.first;
        });
    }
    void take(double left, double right) { m_taken.append({left - 6, right + 6}); }

private:
    QList<QPair<double, double>> m_taken;
};

} // namespace

QRect GenerationMarkersLayer::clipRect() const {
    // The lanes plus the label band above them.
    const QRect lanes = axisRect()->rect();
    return lanes.adjusted(0, -kLabelBandHeight, 0, 0);
}

void GenerationMarkersLayer::draw(QCPPainter* painter) {
    const TimelineScene& scene = *context().scene;
    const TimelineTheme& theme = *context().theme;
    const QRect area = axisRect()->rect();
    const double viewLeft = area.left();
    const double viewRight = area.right() + 1;
    QFont font = mParentPlot->font();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    painter->setFont(font);
    const QFontMetricsF metrics(font);
    const double labelBaseline = area.top() - (kLabelBandHeight - metrics.ascent()) / 2 - 2;
    LabelSpace labels;

    const QList<TimelineScene::Boundary>& boundaries = scene.boundaries();
    for (auto it = boundaries.crbegin(); it != boundaries.crend(); ++it) {
        const double x = std::round(pixelX(it->atMs)) + 0.5;
        if (x < viewLeft || x > viewRight)
            continue;
        const bool hovered = context().hover->generationIndex == it->generationIndex;
        QPen pen(hovered ? theme.highlight : theme.boundary, hovered ? 2 : 1);
        if (it->approximate)
            pen.setDashPattern({3, 3});
        painter->setPen(pen);
        painter->drawLine(QPointF(x, area.top() - 4), QPointF(x, area.bottom() + 1));

        const double width = metrics.horizontalAdvance(it->label);
        const double left = x + 3;
        if (left + width > viewRight + 2 || !(hovered || labels.isFree(left, left + width)))
            continue;
        labels.take(left, left + width);
        painter->setPen(hovered ? theme.highlight : theme.text);
        painter->drawText(QPointF(left, labelBaseline), it->label);
    }

    if (scene.lanes().isEmpty()) {
        // Said over everything else, on a plate, so shading cannot cross the words.
        const QString message = scene.isEmpty()
                                    ? QObject::tr("No rebalance history for this group yet")
                                    : QObject::tr("No partition has been assigned to a member yet");
        painter->setFont(mParentPlot->font());
        const QFontMetricsF messageMetrics(mParentPlot->font());
        QRectF plate(0, 0, messageMetrics.horizontalAdvance(message) + 24,
                     messageMetrics.height() + 12);
        plate.moveCenter(QRectF(area).center());
        painter->setPen(Qt::NoPen);
        painter->setBrush(theme.background);
        painter->drawRoundedRect(plate, 4, 4);
        painter->setPen(theme.mutedText);
        painter->drawText(plate, Qt::AlignCenter, message);
        painter->setFont(font);
    }

    const double nowX = std::round(pixelX(scene.nowMs())) + 0.5;
    if (!scene.isEmpty() && nowX >= viewLeft && nowX <= viewRight) {
        painter->setPen(QPen(theme.now, 1.5));
        painter->drawLine(QPointF(nowX, area.top() - 4), QPointF(nowX, area.bottom() + 1));
        const QString now = QObject::tr("now");
        const double width = metrics.horizontalAdvance(now);
        if (labels.isFree(nowX - width - 3, nowX)) {
            painter->setPen(theme.now);
            painter->drawText(QPointF(nowX - width - 3, labelBaseline), now);
        }
    }
}

} // namespace groupscope::ui
