#include "plots/DurationTicker.h"

#include "plots/ChartText.h"

#include <array>
#include <cmath>

namespace groupscope::ui {

namespace {

constexpr std::array<double, 20> stepsSeconds{1,     2,     5,     10,    15,     30,    60,
                                              120,   300,   600,   900,   1800,   3600,  7200,
                                              10800, 21600, 43200, 86400, 172800, 604800};

} // namespace

double DurationTicker::getTickStep(const QCPRange& range) {
    const double wanted = range.size() / (mTickCount + 1e-10);
    for (const double step : stepsSeconds)
        if (step >= wanted)
            return step;
    // Beyond a week: whole weeks, chosen like any other number.
    return cleanMantissa(wanted / stepsSeconds.back()) * stepsSeconds.back();
}

int DurationTicker::getSubTickCount(double tickStep) {
    // Sub-ticks on round units too: every 10 s in a 30 s step, every minute in 5 minutes.
    const long long step = std::llround(tickStep);
    switch (step) {
    case 15:
    case 30:
    case 900:
    case 1800:
    case 10800:
    case 21600:
    case 43200:
        return 2;
    case 300:
        return 4;
    case 3600:
        return 3;
    default:
        return 1;
    }
}

QString DurationTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    return ChartText::tickDuration(tick);
}

} // namespace groupscope::ui
