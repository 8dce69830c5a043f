#pragma once

#include "cli/ArgumentList.h"
#include "cli/CommandContext.h"

#include <QHostAddress>
#include <QRegularExpression>

#include <optional>

namespace groupscope::cli {

// `exporter --listen [ADDRESS:]PORT [--group-filter RE] [--topic-filter RE]
// [--granularity partition|topic|group] [--member-labels] [--cluster-name NAME]
// [--interval MS] [--web-config FILE]`: serves /metrics in Prometheus' text format from the live
// pipeline (ClusterMonitor, as the GUI) until SIGINT or SIGTERM.
int runExporterCommand(const CommandContext& context, ArgumentList& arguments);

struct ListenAddress {
    QHostAddress address;
    quint16 port = 0;
};
// "PORT" (loopback), "127.0.0.1:PORT", "[::1]:PORT", "localhost:PORT", "0.0.0.0:PORT": IP
// literals only, never a name to resolve. nullopt with *error saying why.
std::optional<ListenAddress> parseListenAddress(const QString& text, QString* error);
// A valid expression for `option` (--group-filter, --topic-filter), or nullopt with *error
// naming the option and the position.
std::optional<QRegularExpression> parseFilter(const QString& option, const QString& pattern,
                                              QString* error);

} // namespace groupscope::cli
