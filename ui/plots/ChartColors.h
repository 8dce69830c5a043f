#pragma once

#include <QColor>
#include <QList>
#include <QPalette>

namespace groupscope::ui {

// The colours of a chart, derived from the widget's palette so a dark desktop theme gets a
// dark chart: background, text, axes and grid come from the palette; series get a
// categorical set (Tableau 10) whose tones are lifted on dark backgrounds.
struct ChartColors {
    QColor background;
    QColor text;
    QColor mutedText; // secondary labels and hidden legend entries
    QColor axis;
    QColor grid;
    QColor subGrid;
    QColor historyShade; // behind the rebuilt history
    QColor readoutBackground;
    QColor readoutText;
    QColor total;   // the group's total lag
    QColor timeLag; // the time-lag series on the second axis
    QList<QColor> series;
    bool dark = false;

    static ChartColors fromPalette(const QPalette& palette);
    // The colour of the n-th topic series; repeats after the set is used up.
    QColor seriesColor(int index) const { return series.at(index % series.size()); }
};

} // namespace groupscope::ui
