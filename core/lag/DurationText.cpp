#include "lag/DurationText.h"

#include <cmath>

namespace groupscope::lag {

QString durationText(double seconds) {
    if (!std::isfinite(seconds))
        return QStringLiteral("\u2013");
    if (seconds < 0)
        return QStringLiteral("-") + durationText(-seconds);
    if (seconds < 1)
        return QStringLiteral("%1 ms").arg(std::llround(seconds * 1000));
    // Rounded before choosing the unit, so 59.7 s reads "1m 00s", not "60 s".
    if (seconds < 9.95)
        return QStringLiteral("%1 s").arg(seconds, 0, 'f', 1);
    const long long total = std::llround(seconds);
    if (total < 60)
        return QStringLiteral("%1 s").arg(total);
    const long long days = total / 86400;
    const long long hours = total % 86400 / 3600;
    const long long minutes = total % 3600 / 60;
    const long long secs = total % 60;
    const auto twoDigits = [](long long value) {
        return QStringLiteral("%1").arg(value, 2, 10, QLatin1Char('0'));
    };
    if (days > 0)
        return QStringLiteral("%1d %2h").arg(days).arg(twoDigits(hours));
    if (hours > 0)
        return QStringLiteral("%1h %2m").arg(hours).arg(twoDigits(minutes));
    return QStringLiteral("%1m %2s").arg(minutes).arg(twoDigits(secs));
}

QString timeLagText(const TimeLag& timeLag) {
    switch (timeLag.status) {
    case TimeLag::Status::CaughtUp:
        return QStringLiteral("0 s");
    case TimeLag::Status::AtLeast:
        return QStringLiteral("\u2265 ") + durationText(timeLag.seconds);
    case TimeLag::Status::Estimated:
        return (timeLag.extrapolated ? QStringLiteral("\u2248 ") : QString()) +
               durationText(timeLag.seconds);
    case TimeLag::Status::Unknown:
        break;
    }
    return QStringLiteral("\u2013");
}

} // namespace groupscope::lag
