#include "cli/ResetCommandOptions.h"

#include "cli/CommandContext.h"

namespace groupscope::cli {

using offsets::ResetMode;
using offsets::ResetSpec;

namespace {

struct ModeOption {
    const char* flag;
    ResetMode mode;
    bool takesValue;
};
constexpr ModeOption modeOptions[] = {
    {"--to-offset", ResetMode::ToOffset, true},      {"--to-datetime", ResetMode::ToDatetime, true},
    {"--by-duration", ResetMode::ByDuration, true},  {"--shift-by", ResetMode::ShiftBy, true},
    {"--to-earliest", ResetMode::ToEarliest, false}, {"--to-latest", ResetMode::ToLatest, false},
    {"--to-current", ResetMode::ToCurrent, false},   {"--to-group", ResetMode::ToGroup, true},
};

ResetCommandOptions failed(ResetCommandOptions options, const QString& error, int code) {
    options.error = error;
    options.errorCode = code;
    return options;
}

// The one --to-* option given (the last spec parsed) and every mode flag seen, for the
// "choose one way" check; an error when a value does not parse.
QString takeModes(ArgumentList& arguments, std::optional<ResetSpec>& spec,
                  QStringList& modesGiven) {
    for (const ModeOption& option : modeOptions) {
        const QString flag = QString::fromLatin1(option.flag);
        std::optional<QString> value;
        if (option.takesValue)
            value = arguments.takeValue(flag);
        else if (arguments.takeFlag(flag))
            value = QString();
        if (!value)
            continue;
        modesGiven.append(flag);
        auto parsed = ResetSpec::parse(option.mode, *value);
        if (!parsed)
            return QStringLiteral("%1: %2").arg(flag, parsed.error().message);
        spec = parsed.value();
    }
    return {};
}

// The combinations Kafka's tool refuses, and ours; empty when the options make sense.
QString checkCombination(const ResetCommandOptions& options, bool dryRun,
                         const QStringList& modesGiven) {
    if (options.execute && dryRun)
        return QStringLiteral("choose --dry-run or --execute, not both");
    if (options.allGroups == !options.groups.isEmpty())
        return QStringLiteral("reset needs either --group G (repeatable) or --all-groups");
    const bool scoped = options.scope.allTopics || !options.scope.topics.isEmpty();
    if (options.fromFile && (!modesGiven.isEmpty() || scoped))
        return QStringLiteral("--from-file brings its own partitions and offsets: give no --topic, "
                              "--all-topics or --to-* option with it");
    if (!options.fromFile && modesGiven.isEmpty())
        return QStringLiteral(
            "choose how to reset: --to-offset, --to-datetime, --by-duration, --shift-by, "
            "--to-earliest, --to-latest, --to-current, --to-group or --from-file");
    if (!options.fromFile && modesGiven.size() != 1)
        return QStringLiteral("choose one way to reset, got %1")
            .arg(modesGiven.join(QStringLiteral(", ")));
    if (!options.fromFile && options.scope.allTopics == !options.scope.topics.isEmpty())
        return QStringLiteral(
            "choose the partitions: --all-topics or --topic T[:P,...] (repeatable)");
    return {};
}

} // namespace

ResetCommandOptions ResetCommandOptions::parse(ArgumentList& arguments) {
    ResetCommandOptions options;
    arguments.takeFlag(QStringLiteral("--reset-offsets")); // Kafka's spelling of the command
    options.groups = arguments.takeValues(QStringLiteral("--group"));
    options.exportWithGroup = options.groups.size() != 1;
    options.allGroups = arguments.takeFlag(QStringLiteral("--all-groups"));
    options.scope.allTopics = arguments.takeFlag(QStringLiteral("--all-topics"));
    options.scope.topics = arguments.takeValues(QStringLiteral("--topic"));
    options.fromFile = arguments.takeValue(QStringLiteral("--from-file"));
    options.execute = arguments.takeFlag(QStringLiteral("--execute"));
    const bool dryRun = arguments.takeFlag(QStringLiteral("--dry-run"));
    options.exportCsv = arguments.takeFlag(QStringLiteral("--export"));
    options.asJson = arguments.takeFlag(QStringLiteral("--json"));
    options.asKafkaCommand = arguments.takeFlag(QStringLiteral("--as-kafka-command"));
    const auto waitText = arguments.takeValue(QStringLiteral("--wait-until-empty"));
    options.withPreview = arguments.takeFlag(QStringLiteral("--preview"));
    options.force = arguments.takeFlag(QStringLiteral("--force"));
    const auto verifyText = arguments.takeValue(QStringLiteral("--verify-for"));
    QStringList modesGiven;
    if (const QString error = takeModes(arguments, options.spec, modesGiven); !error.isEmpty())
        return failed(options, error, ExitFailure);

    if (!arguments.error().isEmpty())
        return failed(options, arguments.error(), ExitUsage);
    if (!arguments.remaining().isEmpty())
        return failed(options,
                      QStringLiteral("unexpected argument \"%1\" (see groupscope-cli --help)")
                          .arg(arguments.remaining().first()),
                      ExitUsage);
    if (const QString error = checkCombination(options, dryRun, modesGiven); !error.isEmpty())
        return failed(options, error, ExitUsage);
    if (waitText) {
        bool ok = false;
        const int seconds = waitText->toInt(&ok);
        if (!ok || seconds < 0 || seconds > 86400)
            return failed(options,
                          QStringLiteral("--wait-until-empty takes seconds from 0 to 86400"),
                          ExitUsage);
        options.waitForEmpty = std::chrono::seconds(seconds);
    }
    if (verifyText) {
        const auto seconds = parseVerifySeconds(*verifyText);
        if (!seconds)
            return failed(options, seconds.error().message, ExitUsage);
        options.verifyFor = seconds.value();
    }
    return options;
}

kafka::Result<std::chrono::milliseconds> parseVerifySeconds(const QString& text) {
    bool ok = false;
    const int seconds = text.toInt(&ok);
    if (!ok || seconds < 0 || seconds > 3600)
        return kafka::KafkaError::invalidArgument(
            QStringLiteral("--verify-for takes seconds from 0 (no check) to 3600, not \"%1\"")
                .arg(text));
    return std::chrono::milliseconds(std::chrono::seconds(seconds));
}

} // namespace groupscope::cli
