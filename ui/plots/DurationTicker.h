#pragma once

#include <qcustomplot.h>

namespace groupscope::ui {

// A value axis in seconds with steps a person counts in (10 s, 30 s, 5 min, 1 h, ...),
// instead of the decimal steps that would put ticks at 250 s or 2,000 s.
class DurationTicker : public QCPAxisTicker {
protected:
    double getTickStep(const QCPRange& range) override;
    int getSubTickCount(double tickStep) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override;
};

} // namespace groupscope::ui
