#pragma once
// What the GUI tests on the real broker share: settings, keychain and audit log kept away
// from the user's, and a MainWindow connected to the test broker, refreshing every 500 ms.

#include "TestBroker.h"

#include "windows/MainWindow.h"

#include <QSettings>
#include <QStandardPaths>

#include <memory>

namespace groupscope::test {

// Call from initTestCase(); `dataDir` (a valid temporary directory) holds the audit log.
// With `dataDir` the settings are kept there too, apart from the other test programs that
// ctest runs at the same time (window layouts and saved profiles are settings).
inline void keepGuiSettingsApart(const QString& dataDir = {}) {
    if (!dataDir.isEmpty()) {
        qputenv("GROUPSCOPE_DATA_DIR", dataDir.toUtf8());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                           dataDir + QStringLiteral("/settings"));
    }
    qputenv("GROUPSCOPE_NO_KEYCHAIN", "1");
    QStandardPaths::setTestModeEnabled(true);
}

// Connected, not shown yet.
inline std::unique_ptr<ui::MainWindow> brokerWindow(bool readOnly = false) {
    auto window = std::make_unique<ui::MainWindow>();
    ui::SavedConnection connection;
    connection.profile = brokerProfile();
    connection.readOnly = readOnly;
    connection.refreshInterval = std::chrono::milliseconds(500);
    window->connectTo(connection);
    return window;
}

} // namespace groupscope::test
