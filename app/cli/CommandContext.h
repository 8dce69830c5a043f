#pragma once

#include "kafka/ConnectionProfile.h"

#include <QIODevice>
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

// Writes UTF-8 text as it is: straight to the stream's device when it has one, since a
// large JSON document would otherwise be decoded and encoded again on its way out.
inline void writeUtf8(QTextStream& stream, const QByteArray& text) {
    if (QIODevice* device = stream.device()) {
        stream.flush();
        device->write(text);
    } else {
        stream << QString::fromUtf8(text);
    }
}

} // namespace groupscope::cli
