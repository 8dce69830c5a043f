#include "plots/ChartText.h"

#include <QStringList>

#include <cmath>

namespace groupscope::ui::ChartText {

QString compactCount(double count) {
    if (!std::isfinite(count))
        return QStringLiteral("\u2013");
    if (count < 0)
        return QStringLiteral("\u2212") + compactCount(-count);
    struct Unit {
        double size;
        const char* suffix;
    };
    static constexpr Unit units[] = {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "k"}};
    for (const Unit& unit : units) {
        // 999,950 rounds to "1000k" at three digits: it belongs to the next unit up.
        if (count >= unit.size * 0.99995) {
            const double scaled = count / unit.size;
            const int decimals = scaled < 10 ? 2 : scaled < 100 ? 1 : 0;
            QString text = QString::number(scaled, 'f', decimals);
            if (text.contains(QLatin1Char('.'))) {
                while (text.endsWith(QLatin1Char('0')))
                    text.chop(1);
                if (text.endsWith(QLatin1Char('.')))
                    text.chop(1);
            }
            return text + QLatin1String(unit.suffix);
        }
    }
    return QString::number(std::llround(count));
}

QString tickDuration(double seconds) {
    if (!std::isfinite(seconds))
        return QStringLiteral("\u2013");
    long long total = std::llround(seconds);
    if (total == 0)
        return QStringLiteral("0");
    const QString sign = total < 0 ? QStringLiteral("\u2212") : QString();
    total = std::llabs(total);
    const long long days = total / 86400;
    const long long hours = total % 86400 / 3600;
    const long long minutes = total % 3600 / 60;
    const long long secs = total % 60;
    QStringList parts;
    if (days)
        parts << QStringLiteral("%1d").arg(days);
    if (hours)
        parts << QStringLiteral("%1h").arg(hours);
    if (minutes)
        parts << QStringLiteral("%1m").arg(minutes);
    if (secs)
        parts << QStringLiteral("%1s").arg(secs);
    // Ticks fall on round steps, so two units always suffice.
    return sign + parts.mid(0, 2).join(QLatin1Char(' '));
}

} // namespace groupscope::ui::ChartText
