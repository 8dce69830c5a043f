// groupscope: the desktop inspector. Parses the command line and opens the main window;
// everything else lives in groupscope_ui and groupscope_core.

#include "common/StopSignalWatcher.h"
#include "dialogs/ConnectionManagerDialog.h"
#include "settings/ConnectionStore.h"
#include "widgets/ApplicationIcon.h"
#include "windows/MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QSocketNotifier>

#include <cstdio>
#include <memory>
#include <optional>

namespace {

struct Options {
    QCommandLineOption bootstrapServer{
        QStringLiteral("bootstrap-server"),
        QStringLiteral("The Kafka cluster to inspect, as HOST:PORT[,HOST:PORT...]. Without it, "
                       "a connection dialog asks."),
        QStringLiteral("HOST:PORT")};
    QCommandLineOption group{QStringLiteral("group"),
                             QStringLiteral("Open this consumer group straight away."),
                             QStringLiteral("GROUP")};
    QCommandLineOption profile{QStringLiteral("profile"),
                               QStringLiteral("Connect with this saved connection profile."),
                               QStringLiteral("NAME")};
    QCommandLineOption readOnly{QStringLiteral("read-only"),
                                QStringLiteral("Never change offsets in this session.")};
    QCommandLineOption version{QStringLiteral("version"), QStringLiteral("Print the version.")};

    void addTo(QCommandLineParser& parser) const {
        parser.setApplicationDescription(
            QStringLiteral("Inspect Apache Kafka consumer groups: states, members and lag."));
        parser.addHelpOption();
        parser.addOption(bootstrapServer);
        parser.addOption(group);
        parser.addOption(profile);
        parser.addOption(readOnly);
        parser.addOption(version);
    }
};

// --version and --help must work without a display, so they are handled before
// QApplication connects to one. An exit code when one of them was given.
std::optional<int> handleEarlyOptions(const Options& options, int argc, char* argv[]) {
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));
    QCommandLineParser early;
    options.addTo(early);
    early.parse(arguments);
    if (early.isSet(options.version)) {
        std::printf("groupscope %s\n", GROUPSCOPE_VERSION);
        return 0;
    }
    if (early.isSet(QStringLiteral("help")))
        early.showHelp(0);
    return std::nullopt;
}

// Ctrl-C in the terminal, a logout's SIGTERM or `timeout` close the windows the normal
// way (the layout is saved, worker threads stop, the exit status is 0) instead of killing
// the process mid-refresh. The notifier lives as long as the application.
std::unique_ptr<QSocketNotifier>
closeWindowsOnStopSignal(const groupscope::app::StopSignalWatcher& stopSignals, QApplication& app) {
    if (!stopSignals.isInstalled())
        return nullptr;
    auto notifier = std::make_unique<QSocketNotifier>(stopSignals.wakeFd(), QSocketNotifier::Read);
    QObject::connect(notifier.get(), &QSocketNotifier::activated, &app,
                     [notifier = notifier.get()] {
                         notifier->setEnabled(false);
                         QApplication::closeAllWindows();
                         QCoreApplication::quit();
                     });
    return notifier;
}

// The connection the command line names (--bootstrap-server or --profile), or the one the
// user picks in the connection dialog. Empty with an exit code: stop there.
std::optional<groupscope::ui::SavedConnection>
chooseConnection(const QCommandLineParser& parser, const Options& options, int& exitCode) {
    using groupscope::ui::ConnectionManagerDialog;
    using groupscope::ui::SavedConnection;
    exitCode = 0;
    const QString servers = parser.value(options.bootstrapServer).trimmed();
    const QString profileName = parser.value(options.profile).trimmed();
    if (!servers.isEmpty()) {
        SavedConnection connection;
        connection.profile.name = servers;
        connection.profile.bootstrapServers = servers;
        return connection;
    }
    if (profileName.isEmpty())
        return ConnectionManagerDialog::choose(); // empty when Close quits
    std::optional<SavedConnection> connection;
    for (const SavedConnection& saved : groupscope::ui::ConnectionStore::load())
        if (saved.profile.name == profileName)
            connection = saved;
    if (!connection) {
        std::fprintf(stderr, "groupscope: no saved connection profile named \"%s\"\n",
                     qPrintable(profileName));
        exitCode = 2;
        return std::nullopt;
    }
    if (!ConnectionManagerDialog::fillSecrets(nullptr, *connection))
        return std::nullopt;
    return connection;
}

} // namespace

int main(int argc, char* argv[]) {
    QCoreApplication::setOrganizationName(QStringLiteral("Groupscope"));
    QCoreApplication::setApplicationName(QStringLiteral("groupscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(GROUPSCOPE_VERSION));
    // Lets Wayland desktops tie the window to the .desktop entry and its icon.
    QGuiApplication::setDesktopFileName(QStringLiteral("org.groupscope.Groupscope"));
    const Options options;
    if (const auto exitCode = handleEarlyOptions(options, argc, argv))
        return *exitCode;

    QApplication app(argc, argv);
    app.setWindowIcon(groupscope::ui::applicationIcon());
    const groupscope::app::StopSignalWatcher stopSignals;
    const auto stopNotifier = closeWindowsOnStopSignal(stopSignals, app);
    QCommandLineParser parser;
    options.addTo(parser);
    parser.process(app);

    int exitCode = 0;
    std::optional<groupscope::ui::SavedConnection> connection =
        chooseConnection(parser, options, exitCode);
    if (!connection)
        return exitCode;
    if (parser.isSet(options.readOnly))
        connection->readOnly = true;

    // Each window is deleted when closed; File > New window opens more, on any profile.
    groupscope::ui::MainWindow* window = groupscope::ui::MainWindow::openWindow(*connection);
    if (parser.isSet(options.group))
        window->openGroup(parser.value(options.group));
    return app.exec();
}
