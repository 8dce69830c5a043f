#include "cli/SandboxCommand.h"

#include "cli/ArgumentList.h"
#include "cli/CommandContext.h"
#include "common/StopSignalWatcher.h"
#include "sandbox/SandboxWorkload.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <chrono>
#include <cmath>
#include <optional>
#include <variant>

namespace groupscope::cli {

namespace {

using Clock = std::chrono::steady_clock;

constexpr auto statusInterval = std::chrono::seconds(10);
// Durations beyond a week are surely typos.
constexpr double maxSeconds = 7 * 24 * 3600.0;

const char* const sandboxUsage =
    "Usage: groupscope-cli --bootstrap-server HOST:PORT sandbox [--rate-scale X]\n"
    "         [--duration SECONDS] [--rebalance-interval SECONDS] [--name-prefix P]\n"
    "         [--quiet | --json]\n";

struct SandboxCommandOptions {
    sandbox::SandboxOptions workload;
    std::optional<Clock::duration> duration; // none: until interrupted
    bool quiet = false;
    bool json = false; // one JSON object per line: started, status..., stopped
};

std::optional<double> parsePositive(const QString& text, double max) {
    bool ok = false;
    const double value = text.toDouble(&ok);
    if (!ok || !std::isfinite(value) || value <= 0 || value > max)
        return std::nullopt;
    return value;
}

std::chrono::milliseconds fromSeconds(double seconds) {
    return std::chrono::milliseconds(std::llround(seconds * 1000));
}

// The parsed options, or a usage message.
std::variant<SandboxCommandOptions, QString> parseOptions(const QStringList& words) {
    ArgumentList arguments(words);
    SandboxCommandOptions options;
    options.quiet = arguments.takeFlag(QStringLiteral("--quiet"));
    options.json = arguments.takeFlag(QStringLiteral("--json"));
    const auto rateScale = arguments.takeValue(QStringLiteral("--rate-scale"));
    const auto duration = arguments.takeValue(QStringLiteral("--duration"));
    const auto interval = arguments.takeValue(QStringLiteral("--rebalance-interval"));
    const auto prefix = arguments.takeValue(QStringLiteral("--name-prefix"));
    if (!arguments.error().isEmpty())
        return arguments.error();
    if (!arguments.remaining().isEmpty())
        return QStringLiteral("unexpected argument \"%1\"").arg(arguments.remaining().first());
    if (options.quiet && options.json)
        return QStringLiteral("--quiet and --json exclude each other");
    if (rateScale) {
        const auto value = parsePositive(*rateScale, 1000);
        if (!value)
            return QStringLiteral("--rate-scale takes a number above 0 and up to 1000, got \"%1\"")
                .arg(*rateScale);
        options.workload.rateScale = *value;
    }
    if (duration) {
        const auto value = parsePositive(*duration, maxSeconds);
        if (!value)
            return QStringLiteral("--duration takes seconds above 0, got \"%1\"").arg(*duration);
        options.duration = fromSeconds(*value);
    }
    if (interval) {
        const auto value = parsePositive(*interval, maxSeconds);
        if (!value || fromSeconds(*value).count() == 0)
            return QStringLiteral("--rebalance-interval takes seconds above 0, got \"%1\"")
                .arg(*interval);
        options.workload.rebalanceInterval = fromSeconds(*value);
    }
    if (prefix)
        options.workload.namePrefix = *prefix;
    return options;
}

void printJsonLine(QTextStream& out, const QString& event, QJsonObject object) {
    object.insert(QStringLiteral("event"), event);
    out << QJsonDocument(object).toJson(QJsonDocument::Compact) << Qt::endl;
}

void printStatus(const sandbox::SandboxWorkload& workload, const SandboxCommandOptions& options,
                 QTextStream& out, const QString& jsonEvent = QStringLiteral("status")) {
    if (options.json)
        printJsonLine(out, jsonEvent, workload.status().toJson());
    else if (!options.quiet)
        out << workload.status().toLine() << Qt::endl;
}

// Waits for the end (duration or signal), printing the status line on the way.
void runUntilStopped(const sandbox::SandboxWorkload& workload, const SandboxCommandOptions& options,
                     QTextStream& out) {
    app::StopSignalWatcher stopSignals;
    const auto startedAt = Clock::now();
    const auto end = options.duration ? startedAt + *options.duration : Clock::time_point::max();
    auto nextStatus = startedAt + statusInterval;
    for (;;) {
        const auto wakeUp = std::min(end, nextStatus);
        if (stopSignals.waitUntil(wakeUp) || Clock::now() >= end)
            return;
        printStatus(workload, options, out);
        nextStatus += statusInterval;
    }
}

} // namespace

int runSandboxCommand(const kafka::ConnectionProfile& profile, const QStringList& arguments,
                      QTextStream& out, QTextStream& err) {
    auto parsed = parseOptions(arguments);
    if (const auto* problem = std::get_if<QString>(&parsed)) {
        err << "Error: " << *problem << u'\n' << sandboxUsage;
        return ExitUsage;
    }
    const auto& options = std::get<SandboxCommandOptions>(parsed);
    if (profile.bootstrapServers.trimmed().isEmpty()) {
        err << "Error: missing --bootstrap-server HOST:PORT\n" << sandboxUsage;
        return ExitUsage;
    }

    auto workload = sandbox::SandboxWorkload::start(profile, options.workload);
    if (!workload) {
        const QString& message = workload.error().message;
        // Timeouts already name the bootstrap servers; every other error gets them here.
        err << "Error: sandbox: cannot start";
        if (!message.contains(profile.bootstrapServers))
            err << " with bootstrap servers " << profile.bootstrapServers;
        err << ": " << message << Qt::endl;
        return ExitFailure;
    }
    const sandbox::SandboxLayout& layout = workload.value()->layout();
    QStringList notes = workload.value()->notes();
    if (!workload.value()->protocolNote().isEmpty())
        notes.append(workload.value()->protocolNote());
    if (options.json) {
        printJsonLine(out, QStringLiteral("started"),
                      {{QStringLiteral("topics"), QJsonArray::fromStringList(layout.topicNames())},
                       {QStringLiteral("groups"), QJsonArray::fromStringList(layout.groupNames())},
                       {QStringLiteral("notes"), QJsonArray::fromStringList(notes)}});
    } else if (!options.quiet) {
        for (const QString& note : std::as_const(notes))
            out << "sandbox: note: " << note << u'\n';
        out << "sandbox: running (topics " << layout.topicNames().join(QStringLiteral(", "))
            << "; groups " << layout.groupNames().join(QStringLiteral(", ")) << ')' << Qt::endl;
    }

    runUntilStopped(*workload.value(), options, out);

    const bool sayStopping = !options.quiet && !options.json;
    if (sayStopping)
        out << "sandbox: stopping" << Qt::endl;
    workload.value()->stop();
    printStatus(*workload.value(), options, out, QStringLiteral("stopped"));
    if (sayStopping)
        out << "sandbox: stopped" << Qt::endl;
    return ExitSuccess;
}

} // namespace groupscope::cli
