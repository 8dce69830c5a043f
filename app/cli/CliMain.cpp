#include "cli/CliMain.h"

#include "cli/ArgumentList.h"
#include "cli/CommandContext.h"
#include "cli/ExporterCommand.h"
#include "cli/GroupCommands.h"
#include "cli/MonitorCommands.h"
#include "cli/RecordsCommand.h"
#include "cli/ResetCommands.h"
#include "cli/SandboxCommand.h"
#include "kafka/GroupClientChoice.h"
#include "kafka/LibrdkafkaVersion.h"
#include "kafka/TransportSafety.h"

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
  list [--state [S,...]] [--type [T,...]] [--protocol] [--json]
                                      the cluster's groups of every type; --state, --type
                                      and --protocol add columns, and with a list keep only
                                      those states (stable, empty, ...) or types (classic,
                                      consumer, share, streams)
  describe (--group G ... | --all-groups) [--offsets [--lag-detail] | --members [--verbose] |
           --state [--verbose]] [--json]
  describe --topic T ... [--json]     the groups that read each topic: their partitions of
                                      it, state and lag on it (the GUI's Topics tab)
                                      committed offsets, log end offsets and lag per
                                      partition (a share group's start offsets, a streams
                                      group's offset lag); members, assignments and epochs;
                                      group state, as the Kafka tool of the group's type;
                                      --lag-detail adds the last stable offset, the effective
                                      lag (transaction markers, aborted records and open
                                      transactions read from the log), commits deleted by
                                      retention and the oldest unconsumed record's age
  reset (--group G ... | --all-groups) (--all-topics | --topic T[:P,...] ... | --from-file F)
        (--to-offset N | --to-datetime yyyy-MM-ddTHH:mm:ss.SSS[zone] | --by-duration PnDTnHnMnS |
         --shift-by N | --to-earliest | --to-latest | --to-current | --to-group G)
        [--dry-run | --execute] [--export | --json] [--preview] [--as-kafka-command]
        [--wait-until-empty S] [--force] [--verify-for S]
                                      plan (dry run, the default) or apply an offset reset;
                                      --preview shows the record each partition would
                                      read next; --to-group copies G's committed offsets
                                      (--all-topics: every partition G or the group
                                      commits on); rows whose group moved on since the
                                      plan are resolved again and named; a group without
                                      members that a consumer still commits to is refused
                                      unless --force; the new offsets are read again after
                                      S seconds (default 5, 0: no check); every apply is
                                      recorded in the write journal before it is sent
  undo --entry ID [--execute] [--force | --skip-conflicts] [--verify-for S]
                                      put back the offsets an applied reset replaced;
                                      partitions that moved since are conflicts, refused
                                      unless --skip-conflicts (leave them) or --force
                                      (restore them too; also undoes an entry recorded
                                      on another cluster id)
  history [--group G | --entry ID] [--json]
                                      the write journal of applied changes
  delete-offsets --group G --topic T[:P,...] ... [--execute] [--force]
                                      delete committed offsets of a group (refused, as
                                      a reset is, while a consumer outside the group's
                                      membership still commits, unless --force)
  delete --group G ... [--execute]    delete empty groups (refused while they have
                                      members); each group's committed offsets go to the
                                      write journal, and undo commits them again
  timeline --group G [--since DURATION] [--json]
                                      generations, members and partition ownership over
                                      the last DURATION (ISO-8601, default PT1H), read
                                      from __consumer_offsets; approximate (polling only)
                                      where that topic cannot be read
  records [--group G] --topic T:P [--at committed|earliest|latest|OFFSET|DATETIME]
          [--before N] [--after N] [--follow] [--format text|json|hex] [--read-uncommitted]
          [--json]
                                      one partition's records around an offset: by default
                                      N=5 before and after the group's committed offset,
                                      which is marked (the record the group reads next);
                                      offset, timestamp and its type, key, value, headers,
                                      size; values as text, JSON or hex, chosen per record
                                      unless --format; committed records only unless
                                      --read-uncommitted; --follow then prints new records
                                      until Ctrl-C. Never joins the group, never commits
  watch --group G [--interval MS] [--count N] [--json]
                                      lag, time lag, rates, time to drain, the health
                                      verdict and rebalance health (per 10 minutes,
                                      longest, stuck, storm, cause) every MS
                                      (default 2000) until Ctrl-C, or N
                                      updates; --json prints one object per line
                                      (both also take --no-offsets-topic: poll only)
  exporter --listen [ADDRESS:]PORT [--group-filter RE] [--topic-filter RE]
           [--granularity partition|topic|group] [--member-labels] [--cluster-name NAME]
           [--interval MS] [--web-config FILE]
                                      serve /metrics to Prometheus (text format 0.0.4) from
                                      the live pipeline: lag, offsets and time lag per
                                      partition (or per topic, or none), state, members and
                                      verdict per group; PORT alone listens on 127.0.0.1;
                                      --group-filter / --topic-filter keep the groups /
                                      topics whose name matches RE; --member-labels adds
                                      member_host, consumer_id and client_id to the
                                      per-partition series; --web-config: TLS
                                      and basic auth, in the Prometheus exporter toolkit's
                                      web config format; runs until Ctrl-C
  sandbox [--rate-scale X] [--duration S] [--rebalance-interval S] [--name-prefix P]
          [--quiet | --json]
                                      run the demo workload (topics orders, payments,
                                      audit, refunds; groups billing, analytics, shipping,
                                      fulfilment, refunds, archive); a status line every
                                      10 s with gaps and duplicates per group

Other:
  --help                              this text
  --version                           the version, and the librdkafka in use

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

namespace {

struct CommonOptions {
    std::optional<QString> bootstrap;
    std::optional<QString> commandConfig;
    std::optional<QString> timeout;
};

// The connection and timeout options every command shares, into `context`; an exit code
// when they are bad. `needsCluster` is false only for commands that read local files.
std::optional<int> applyCommonOptions(const CommonOptions& options, bool needsCluster,
                                      CommandContext& context) {
    if (options.commandConfig) {
        auto profile = kafka::ConnectionProfile::fromCommandConfigFile(*options.commandConfig);
        if (!profile) {
            context.err << "Error: " << profile.error().message << u'\n';
            return ExitFailure;
        }
        context.profile = profile.value();
    }
    if (options.bootstrap)
        context.profile.bootstrapServers = *options.bootstrap;
    if (needsCluster && context.profile.bootstrapServers.trimmed().isEmpty()) {
        context.err << "Error: missing --bootstrap-server HOST:PORT\n";
        return ExitUsage;
    }
    if (options.timeout) {
        const auto timeout = parseTimeout(*options.timeout);
        if (!timeout) {
            context.err << "Error: --timeout takes milliseconds from 1 to 3600000, got \""
                        << *options.timeout << "\"\n";
            return ExitUsage;
        }
        context.timeout = *timeout;
    }
    // Verification is only ever off because the command config says so; say what it costs
    // every time, on stderr so that it never mixes with output a script parses.
    if (const QString warning = context.profile.verificationWarning(); !warning.isEmpty())
        context.err << "Warning: " << warning << u'\n';
    if (const QString warning = kafka::cleartextCredentialsWarning(context.profile);
        !warning.isEmpty())
        context.err << "Warning: " << warning << u'\n';
    // Once per run, before any request: what reading the groups through librdkafka costs,
    // when this profile needs it (GSSAPI, a PKCS#12 keystore) or the environment asks.
    if (needsCluster)
        if (const QString note =
                kafka::GroupClientChoice::forProfile(context.profile).fallbackNote();
            !note.isEmpty())
            context.err << "Note: " << note << u'\n';
    return std::nullopt;
}

int runCommand(const QString& command, CommandContext& context, ArgumentList& arguments) {
    if (command == u"list")
        return runListCommand(context, arguments);
    if (command == u"describe")
        return runDescribeCommand(context, arguments);
    if (command == u"reset")
        return runResetCommand(context, arguments);
    if (command == u"undo")
        return runUndoCommand(context, arguments);
    if (command == u"history")
        return runHistoryCommand(context, arguments);
    if (command == u"delete-offsets")
        return runDeleteOffsetsCommand(context, arguments);
    if (command == u"delete")
        return runDeleteGroupsCommand(context, arguments);
    if (command == u"timeline")
        return runTimelineCommand(context, arguments);
    if (command == u"records")
        return runRecordsCommand(context, arguments);
    if (command == u"watch")
        return runWatchCommand(context, arguments);
    if (command == u"exporter")
        return runExporterCommand(context, arguments);
    if (command == u"sandbox")
        return runSandboxCommand(context.profile, arguments.remaining(), context.out, context.err);
    context.err << "Error: unknown command \"" << command
                << "\" (commands: list, describe, reset, undo, history, delete-offsets, "
                   "delete, timeline, records, watch, exporter, sandbox)\n";
    return ExitUsage;
}

} // namespace

int runCli(const QStringList& words, QTextStream& out, QTextStream& err) {
    ArgumentList arguments(words);
    if (arguments.takeFlag(QStringLiteral("--help")) || arguments.takeFlag(QStringLiteral("-h"))) {
        out << usageText;
        return ExitSuccess;
    }
    if (arguments.takeFlag(QStringLiteral("--version"))) {
        out << "groupscope-cli " << GROUPSCOPE_VERSION << u'\n' << "librdkafka "
            << kafka::librdkafkaVersion() << u'\n';
        return ExitSuccess;
    }
    CommonOptions common;
    common.bootstrap = arguments.takeValue(QStringLiteral("--bootstrap-server"));
    common.commandConfig = arguments.takeValue(QStringLiteral("--command-config"));
    common.timeout = arguments.takeValue(QStringLiteral("--timeout"));
    // A command word comes first. Kafka's tool names its action with a flag, anywhere on
    // the line; accept those spellings too, so a kafka-consumer-groups line works with the
    // program name changed (`--delete --group G` must not take G for the command).
    std::optional<QString> command;
    if (!arguments.remaining().isEmpty() && !arguments.remaining().first().startsWith(u'-'))
        command = arguments.takePositional();
    for (const auto& [flag, name] :
         {std::pair{"--list", "list"}, std::pair{"--describe", "describe"},
          std::pair{"--reset-offsets", "reset"}, std::pair{"--delete-offsets", "delete-offsets"},
          std::pair{"--delete", "delete"}})
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
    // history only reads the local write journal; every other command talks to a cluster.
    if (const auto failed = applyCommonOptions(common, *command != u"history", context))
        return *failed;
    return runCommand(*command, context, arguments);
}

} // namespace groupscope::cli
