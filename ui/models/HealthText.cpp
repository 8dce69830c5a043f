#include "models/HealthText.h"

#include <QCoreApplication>

namespace groupscope::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("HealthText", text);
}

} // namespace

QString healthToolTip(lag::GroupStatus health, const QString& healthReason,
                      const lag::RebalanceHealth& rebalance) {
    QStringList lines;
    if (!healthReason.isEmpty())
        lines.append(healthReason);
    else if (health == lag::GroupStatus::NotFound)
        lines.append(tr("Not judged yet: it needs a window of commits"));
    // A quiet group's tooltip stays the verdict's reason alone.
    if (rebalance.rebalancesLast10Min == 0 && !rebalance.rebalancing)
        return lines.join(QLatin1Char('\n'));
    // The verdict's reason may be the stuck rebalance itself: not said twice.
    QString summary = rebalance.summary();
    if (const QString reason = rebalance.reason();
        !reason.isEmpty() && healthReason == reason && summary.startsWith(reason))
        summary = summary.mid(reason.size()).remove(0, 2); // its "; " too
    lines.append(tr("Rebalances: %1").arg(summary));
    if (!rebalance.cause().isEmpty())
        lines.append(rebalance.causeExact ? tr("(cause from the offsets topic's generations)")
                                          : tr("(cause from comparing polls of the members)"));
    return lines.join(QLatin1Char('\n'));
}

QString rebalanceHeaderText(const lag::RebalanceHealth& rebalance) {
    if (rebalance.rebalancing)
        return tr("rebalancing %1 s%2")
            .arg(rebalance.currentRebalanceSeconds, 0, 'f', 0)
            .arg(rebalance.stuckRebalance ? tr(" (stuck)") : QString());
    if (rebalance.rebalanceStorm)
        return tr("%1 rebalances in 10 min (storm)").arg(rebalance.rebalancesLast10Min);
    return {};
}

} // namespace groupscope::ui
