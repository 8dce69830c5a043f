// groupscope-cli: the command-line front end. Everything but the streams lives in app/cli (the
// groupscope_cli library).
#include "cli/CliMain.h"

#include <QCoreApplication>
#include <QTextStream>

#include <cstdio>

int main(int argc, char* argv[]) {
    QCoreApplication application(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("groupscope-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(GROUPSCOPE_VERSION));
    QTextStream out(stdout);
    QTextStream err(stderr);
    const int exitCode = groupscope::cli::runCli(application.arguments().mid(1), out, err);
    out.flush();
    err.flush();
    return exitCode;
}
