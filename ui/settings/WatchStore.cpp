#include "settings/WatchStore.h"

#include <QSettings>
#include <QUrl>

namespace groupscope::ui {

namespace {

// Connection keys may hold '/' and ':' (bootstrap servers), which QSettings reads as
// groups or escapes per backend: the key is stored percent-encoded.
QString sectionOf(const QString& connectionKey) {
    return QStringLiteral("watch/") +
           QString::fromLatin1(QUrl::toPercentEncoding(
               connectionKey.isEmpty() ? QStringLiteral("(unnamed)") : connectionKey));
}

QVariant optionalValue(const std::optional<int64_t>& value) {
    return value ? QVariant(qlonglong(*value)) : QVariant();
}

QVariant optionalValue(const std::optional<double>& value) {
    return value ? QVariant(*value) : QVariant();
}

} // namespace

WatchSettings WatchStore::load(const QString& connectionKey) {
    QSettings settings;
    settings.beginGroup(sectionOf(connectionKey));
    WatchSettings watch;
    const QStringList groups = settings.value(QStringLiteral("groups")).toStringList();
    watch.groups = QSet<QString>(groups.cbegin(), groups.cend());
    const int count = settings.beginReadArray(QStringLiteral("thresholds"));
    for (int i = 0; i < count; ++i) {
        settings.setArrayIndex(i);
        const QString group = settings.value(QStringLiteral("group")).toString();
        alerts::AlertThresholds thresholds;
        if (const QVariant lag = settings.value(QStringLiteral("maxTotalLag")); lag.isValid())
            thresholds.maxTotalLag = lag.toLongLong();
        if (const QVariant time = settings.value(QStringLiteral("maxTimeLagSeconds"));
            time.isValid())
            thresholds.maxTimeLagSeconds = time.toDouble();
        thresholds.rebalance.stormRebalances =
            settings
                .value(QStringLiteral("stormRebalances"),
                       lag::RebalanceThresholds::defaultStormRebalances)
                .toInt();
        if (const QVariant stuck = settings.value(QStringLiteral("stuckAfterMs")); stuck.isValid())
            thresholds.rebalance.stuckAfterMs = stuck.toLongLong();
        if (!group.isEmpty())
            watch.thresholds.insert(group, thresholds);
    }
    settings.endArray();
    return watch;
}

void WatchStore::save(const QString& connectionKey, const WatchSettings& watch) {
    QSettings settings;
    settings.remove(sectionOf(connectionKey));
    settings.beginGroup(sectionOf(connectionKey));
    QStringList groups(watch.groups.cbegin(), watch.groups.cend());
    groups.sort();
    settings.setValue(QStringLiteral("groups"), groups);
    settings.beginWriteArray(QStringLiteral("thresholds"));
    int index = 0;
    QStringList named = watch.thresholds.keys();
    named.sort();
    for (const QString& group : std::as_const(named)) {
        const alerts::AlertThresholds& thresholds = watch.thresholds.value(group);
        if (thresholds.isDefault())
            continue;
        settings.setArrayIndex(index++);
        settings.setValue(QStringLiteral("group"), group);
        settings.setValue(QStringLiteral("maxTotalLag"), optionalValue(thresholds.maxTotalLag));
        settings.setValue(QStringLiteral("maxTimeLagSeconds"),
                          optionalValue(thresholds.maxTimeLagSeconds));
        settings.setValue(QStringLiteral("stormRebalances"), thresholds.rebalance.stormRebalances);
        settings.setValue(QStringLiteral("stuckAfterMs"),
                          optionalValue(thresholds.rebalance.stuckAfterMs));
    }
    settings.endArray();
}

bool WatchStore::keepRunningInTray() {
    return QSettings().value(QStringLiteral("alerts/keepRunningInTray"), false).toBool();
}

void WatchStore::setKeepRunningInTray(bool keep) {
    QSettings().setValue(QStringLiteral("alerts/keepRunningInTray"), keep);
}

} // namespace groupscope::ui
