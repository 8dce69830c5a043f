#pragma once

#include <qcustomplot.h>

namespace groupscope::ui {

// A value axis of message counts: QCustomPlot's tick spacing, labels as "250k", "1.5M".
class CountTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override;
};

} // namespace groupscope::ui
