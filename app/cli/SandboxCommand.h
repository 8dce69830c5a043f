#pragma once

#include "kafka/ConnectionProfile.h"

#include <QStringList>
#include <QTextStream>

namespace groupscope::cli {

// Runs `groupscope-cli sandbox`. `arguments` are the words after "sandbox" (the connection
// options --bootstrap-server/--command-config are already parsed into `profile`).
// Returns the process exit code (0 ok, 1 Kafka or input error, 2 usage).
//
// Options: --rate-scale X, --duration SECONDS, --rebalance-interval SECONDS, --quiet, and
// --name-prefix P (prepended to every topic and group name, for shared clusters and tests).
// Runs until --duration passes or SIGINT/SIGTERM arrives, then stops cleanly.
int runSandboxCommand(const kafka::ConnectionProfile& profile, const QStringList& arguments,
                      QTextStream& out, QTextStream& err);

} // namespace groupscope::cli
