#pragma once

#include <QStringList>
#include <QTextStream>

namespace groupscope::cli {

// The whole of groupscope-cli: parses the connection options, picks the command and runs
// it. `arguments` excludes the program name. Returns the exit code (0 ok, 1 Kafka or input
// error, 2 usage).
int runCli(const QStringList& arguments, QTextStream& out, QTextStream& err);

} // namespace groupscope::cli
