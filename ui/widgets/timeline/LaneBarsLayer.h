#pragma once

#include "widgets/timeline/TimelineLayer.h"

#include <QHash>

namespace groupscope::ui {

// One bar per stretch of single ownership in each visible lane, in the owner's colour;
// stretches nobody owned are hatched outlines, so a gap reads as a gap and not as a
// missing bar. Bars wide enough carry their owner's name, and a bar that starts with a
// change of owner gets a notch at its start. During rebalances the bars are veiled in the
// phase's stripes, so the pause reads across every lane. Consumer-protocol groups never
// pause as a whole: their bars end and start one partition at a time, and the tail of a
// bar whose owner was told to revoke it is hatched.
//
// Detail adapts to the amount: with many bars in view (a long history of a big group)
// corners are square and edges pixel-snapped, which keeps a replot in budget.
class LaneBarsLayer : public TimelineLayer {
public:
    using TimelineLayer::TimelineLayer;

    // Fraction of the lane height a bar fills; the rest lets the shading show between lanes.
    static constexpr double kBarHeight = 0.64;
    // Above this many bars in view, bars are drawn the fast way.
    static constexpr int kDetailedBarLimit = 500;

protected:
    void draw(QCPPainter* painter) override;

private:
    struct VisibleBar {
        QRectF rect;
        const QString* ownerId;
        bool ownerChangedAtStart;
        // Where the owner was told to revoke the partition (consumer-protocol groups), or
        // below the bar's left edge when it was not.
        double revokingFromX;
    };

    QList<VisibleBar> visibleBars(double barHeight) const;
    QColor fillOf(const QString& ownerId) const;
    void drawRebalanceVeil(QCPPainter* painter) const;
    // The stretch a consumer-protocol member kept consuming a partition it was told to
    // revoke: hatched in the background colour, so "on its way out" reads at a glance.
    void drawRevocation(QCPPainter* painter, const VisibleBar& bar) const;
    void drawOwnerName(QCPPainter* painter, const QRectF& bar, const QString& name,
                       const QColor& fill, const QFontMetricsF& metrics);

    // Text widths by name: measuring (shaping) text is the costly part of a label.
    QHash<QString, double> m_nameWidths;
    QString m_nameWidthsFont;
};

} // namespace groupscope::ui
