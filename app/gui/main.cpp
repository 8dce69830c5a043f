// groupscope: the desktop inspector. Parses the command line and opens the main window;
// everything else lives in groupscope_ui and groupscope_core.

#include "dialogs/ConnectionDialog.h"
#include "widgets/ApplicationIcon.h"
#include "windows/MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>

#include <cstdio>

namespace {

struct Options {
    QCommandLineOption bootstrapServer{
        QStringLiteral("bootstrap-server"),
        QStringLiteral("The Kafka cluster to inspect, as HOST:PORT[,HOST:PORT...]. Without it, "
                       "a connection dialog asks."),
        QStringLiteral("HOST:PORT")};
    QCommandLineOption version{QStringLiteral("version"), QStringLiteral("Print the version.")};

    void addTo(QCommandLineParser& parser) const {
        parser.setApplicationDescription(
            QStringLiteral("Inspect Apache Kafka consumer groups: states, members and lag."));
        parser.addHelpOption();
        parser.addOption(bootstrapServer);
        parser.addOption(version);
    }
};

} // namespace

int main(int argc, char* argv[]) {
    QCoreApplication::setOrganizationName(QStringLiteral("Groupscope"));
    QCoreApplication::setApplicationName(QStringLiteral("groupscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(GROUPSCOPE_VERSION));
    const Options options;

    // --version and --help must work without a display, so they are handled before
    // QApplication connects to one.
    {
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
    }

    QApplication app(argc, argv);
    app.setWindowIcon(groupscope::ui::applicationIcon());
    QCommandLineParser parser;
    options.addTo(parser);
    parser.process(app);

    QString servers = parser.value(options.bootstrapServer).trimmed();
    if (servers.isEmpty()) {
        const auto answer = groupscope::ui::ConnectionDialog::askForBootstrapServers();
        if (!answer)
            return 0; // Cancel quits
        servers = *answer;
    }

    groupscope::ui::MainWindow window;
    groupscope::kafka::ConnectionProfile profile;
    profile.name = servers;
    profile.bootstrapServers = servers;
    window.connectTo(profile);
    window.show();
    return app.exec();
}
