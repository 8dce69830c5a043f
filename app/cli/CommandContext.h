#pragma once

#include "kafka/ConnectionProfile.h"

#include <QTextStream>

#include <chrono>

namespace groupscope::cli {

// Exit codes shared by every command.
enum ExitCode : int { ExitSuccess = 0, ExitFailure = 1, ExitUsage = 2 };

// What every command gets: the connection, the per-request timeout and the two streams.
struct CommandContext {
    kafka::ConnectionProfile profile;
    std::chrono::milliseconds timeout{5000};
    QTextStream& out;
    QTextStream& err;
};

} // namespace groupscope::cli
