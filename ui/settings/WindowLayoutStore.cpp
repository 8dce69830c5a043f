#include "settings/WindowLayoutStore.h"

#include <QSettings>
#include <QUrl>

namespace groupscope::ui {

namespace {

// The window layout of any profile, saved last: the start of a profile seen for the first
// time. "mainWindow" is where versions before per-profile layouts kept the only one.
const QString lastLayoutGroup = QStringLiteral("mainWindow");

// A profile's name may hold '/' or other characters QSettings gives a meaning to.
QString profileGroup(const QString& profileName) {
    return QStringLiteral("profiles/%1/window")
        .arg(QString::fromLatin1(QUrl::toPercentEncoding(profileName)));
}

// "groupColumns4" and "partitionColumns2": the tables gained columns, and a header state
// saved for the old ones would put widths on the wrong columns.
struct Keys {
    QString geometry = QStringLiteral("geometry");
    QString splitter = QStringLiteral("splitter");
    QString docks = QStringLiteral("docks");
    QString groupColumns = QStringLiteral("groupColumns4");
    QString partitionColumns = QStringLiteral("partitionColumns2");
    QString offsetColumns = QStringLiteral("offsetColumns");
    QString filterText = QStringLiteral("filterText");
    QString stateFilter = QStringLiteral("stateFilter");
    QString browserTab = QStringLiteral("browserTab");
    QString openGroup = QStringLiteral("openGroup");
};

void writeSizes(QSettings& settings, const WindowLayout& layout) {
    const Keys keys;
    settings.setValue(keys.geometry, layout.geometry);
    settings.setValue(keys.splitter, layout.splitter);
    settings.setValue(keys.docks, layout.docks);
    settings.setValue(keys.groupColumns, layout.groupColumns);
    settings.setValue(keys.partitionColumns, layout.partitionColumns);
    settings.setValue(keys.offsetColumns, layout.offsetColumns);
}

void readSizes(const QSettings& settings, WindowLayout& layout) {
    const Keys keys;
    layout.geometry = settings.value(keys.geometry).toByteArray();
    layout.splitter = settings.value(keys.splitter).toByteArray();
    layout.docks = settings.value(keys.docks).toByteArray();
    layout.groupColumns = settings.value(keys.groupColumns).toByteArray();
    layout.partitionColumns = settings.value(keys.partitionColumns).toByteArray();
    layout.offsetColumns = settings.value(keys.offsetColumns).toByteArray();
}

} // namespace

WindowLayout WindowLayoutStore::load(const QString& profileName) {
    QSettings settings;
    const QString group = profileGroup(profileName);
    const bool remembered =
        !profileName.isEmpty() && settings.contains(group + QStringLiteral("/geometry"));
    WindowLayout layout;
    settings.beginGroup(remembered ? group : lastLayoutGroup);
    readSizes(settings, layout);
    if (remembered) {
        const Keys keys;
        layout.filterText = settings.value(keys.filterText).toString();
        layout.stateFilter = settings.value(keys.stateFilter, 0).toInt();
        layout.browserTab = settings.value(keys.browserTab, 0).toInt();
        layout.openGroup = settings.value(keys.openGroup).toString();
    }
    settings.endGroup();
    return layout;
}

void WindowLayoutStore::save(const QString& profileName, const WindowLayout& layout) {
    QSettings settings;
    settings.beginGroup(lastLayoutGroup);
    writeSizes(settings, layout);
    settings.endGroup();
    if (profileName.isEmpty())
        return;
    const Keys keys;
    settings.beginGroup(profileGroup(profileName));
    writeSizes(settings, layout);
    settings.setValue(keys.filterText, layout.filterText);
    settings.setValue(keys.stateFilter, layout.stateFilter);
    settings.setValue(keys.browserTab, layout.browserTab);
    settings.setValue(keys.openGroup, layout.openGroup);
    settings.endGroup();
}

} // namespace groupscope::ui
