#include "plots/CountTicker.h"

#include "plots/ChartText.h"

namespace groupscope::ui {

QString CountTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    return ChartText::compactCount(tick);
}

} // namespace groupscope::ui
