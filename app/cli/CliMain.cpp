#include "cli/CliMain.h"

#include "cli/ArgumentList.h"
#include "cli/CommandContext.h"
#include "cli/GroupCommands.h"
#include "cli/MonitorCommands.h"
#include "cli/ResetCommands.h"
#include "cli/SandboxCommand.h"

namespace groupscope::cli {

namespace {

const char* const usageText = R"(Usage: groupscope-cli [connection options] COMMAND [options]

Inspect Apache Kafka consumer groups. Options follow kafka-consumer-groups.

Connection options (anywhere on the line):
  --bootstrap-server HOST:PORT[,...]  the cluster to talk to (required unless the
                                      command config sets bootstrap.servers)
  --command-config FILE               librdkafka properties (key=value lines), e.g.
                                      security.protocol, sasl.*, ssl.*; TLS checks the
                                      broker's certificate and host name unless the file
                                      says enable.ssl.certificate.verification=false
  --timeout MS                        deadline for each Kafka request (default 5000)

Commands:
  list [--state] [--json]             the cluster's consumer groups
  describe (--group G ... | --all-groups) [--offsets | --members [--verbose] | --state] [--json]
                                      committed offsets, log end offsets and lag per
                                      partition; members and assignments; group state
  reset (--group G ... | --all-groups) (--all-topics | --topic T[:P,...] ... | --from-file F)
        (--to-offset N | --to-datetime yyyy-MM-ddTHH:mm:ss.SSS[zone] | --by-duration PnDTnHnMnS |
         --shift-by N | --to-earliest | --to-latest | --to-current)
        [--dry-run | --execute] [--export | --json] [--preview] [--as-kafka-command]
        [--wait-until-empty S]
                                      plan (dry run, the default) or apply an offset reset;
                                      --preview shows the record each partition would
                                      read next; every apply is recorded in the audit log
  undo --entry ID [--execute] [--force]
                                      put back the offsets an applied reset replaced
                                      (--force: even if recorded for another cluster)
  history [--group G] [--json]        the audit log of applied resets
  delete-offsets --group G --topic T[:P,...] ... [--execute]
                                      delete committed offsets of a group
  timeline --group G [--since DURATION] [--json]
                                      generations, members and partition ownership over
                                      the last DURATION (ISO-8601, default PT1H), read
                                      from __consumer_offsets; approximate (polling only)
                                      where that topic cannot be read
  watch --group G [--interval MS] [--count N] [--json]
                                      lag, time lag, rates, time to drain and the health
                                      verdict every MS (default 2000) until Ctrl-C, or N
                                      updates; --json prints one object per line
                                      (both also take --no-offsets-topic: poll only)
  sandbox [--rate-scale X] [--duration S] [--rebalance-interval S] [--name-prefix P] [--quiet]
                                      run the demo workload (topics orders, payments,
                                      audit; groups billing, analytics, shipping, archive)

Other:
  --help                              this text
  --version                           the version

Exit codes: 0 success, 1 Kafka or input error, 2 usage error.
)";

std::optional<std::chrono::milliseconds> parseTimeout(const QString& text) {
    bool ok = false;
    const qlonglong value = text.toLongLong(&ok);
    if (!ok || value <= 0 || value > 3'600'000)
        return std::nullopt;
    return std::chrono::milliseconds(value);
}

} // namespace

int runCli(const QStringList& words, QTextStream& out, QTextStream& err) {
    ArgumentList arguments(words);
    if (arguments.takeFlag(QStringLiteral("--help")) || arguments.takeFlag(QStringLiteral("-h"))) {
        out << usageText;
        return ExitSuccess;
    }
    if (arguments.takeFlag(QStringLiteral("--version"))) {
        out << "groupscope-cli " << GROUPSCOPE_VERSION << u'\n';
        return ExitSuccess;
    }
    const auto bootstrap = arguments.takeValue(QStringLiteral("--bootstrap-server"));
    const auto commandConfig = arguments.takeValue(QStringLiteral("--command-config"));
    const auto timeoutText = arguments.takeValue(QStringLiteral("--timeout"));
    auto command = arguments.takePositional();
    // Kafka's tool names its action with a flag; accept those spellings too, so a
    // kafka-consumer-groups line works with the program name changed.
    for (const auto& [flag, name] :
         {std::pair{"--list", "list"}, std::pair{"--describe", "describe"},
          std::pair{"--reset-offsets", "reset"}, std::pair{"--delete-offsets", "delete-offsets"}})
        if (!command && arguments.takeFlag(QString::fromLatin1(flag)))
            command = QString::fromLatin1(name);
    if (!command) {
        err << "Error: no command given\n\n" << usageText;
        return ExitUsage;
    }
    if (!arguments.error().isEmpty()) {
        err << "Error: " << arguments.error() << u'\n';
        return ExitUsage;
    }

    CommandContext context{{}, std::chrono::milliseconds(5000), out, err};
    if (commandConfig) {
        auto profile = kafka::ConnectionProfile::fromCommandConfigFile(*commandConfig);
        if (!profile) {
            err << "Error: " << profile.error().message << u'\n';
            return ExitFailure;
        }
        context.profile = profile.value();
    }
    if (bootstrap)
        context.profile.bootstrapServers = *bootstrap;
    // history only reads the local audit log; every other command talks to a cluster.
    const bool needsCluster = *command != u"history";
    if (needsCluster && context.profile.bootstrapServers.trimmed().isEmpty()) {
        err << "Error: missing --bootstrap-server HOST:PORT\n";
        return ExitUsage;
    }
    if (timeoutText) {
        const auto timeout = parseTimeout(*timeoutText);
        if (!timeout) {
            err << "Error: --timeout takes milliseconds from 1 to 3600000, got \"" << *timeoutText
                << "\"\n";
            return ExitUsage;
        }
        context.timeout = *timeout;
    }
    // Verification is only ever off because the command config says so; say what it costs
    // every time, on stderr so that it never mixes with output a script parses.
    if (const QString warning = context.profile.verificationWarning(); !warning.isEmpty())
        err << "Warning: " << warning << u'\n';

    if (*command == u"list")
        return runListCommand(context, arguments);
    if (*command == u"describe")
        return runDescribeCommand(context, arguments);
    if (*command == u"reset")
        return runResetCommand(context, arguments);
    if (*command == u"undo")
        return runUndoCommand(context, arguments);
    if (*command == u"history")
        return runHistoryCommand(context, arguments);
    if (*command == u"delete-offsets")
        return runDeleteOffsetsCommand(context, arguments);
    if (*command == u"timeline")
        return runTimelineCommand(context, arguments);
    if (*command == u"watch")
        return runWatchCommand(context, arguments);
    if (*command == u"sandbox")
        return runSandboxCommand(context.profile, arguments.remaining(), out, err);
    err << "Error: unknown command \"" << *command
        << "\" (commands: list, describe, reset, undo, history, delete-offsets, "
           "timeline, watch, sandbox)\n";
    return ExitUsage;
}

} // namespace groupscope::cli
