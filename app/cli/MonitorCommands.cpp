#include "cli/MonitorCommands.h"
#include "cli/CommandErrors.h"

#include "cli/TextTable.h"
#include "cli/TimelineOutput.h"
#include "common/StopSignalWatcher.h"
#include "lag/DurationText.h"
#include "monitor/MonitorSession.h"
#include "offsets/ResetSpec.h"
#include "snapshot/HealthStatus.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace groupscope::cli {

namespace {

using monitor::GroupMonitor;
using monitor::GroupMonitorSnapshot;
using monitor::MonitorSession;

constexpr std::chrono::milliseconds defaultHistory{3'600'000};
constexpr std::chrono::milliseconds defaultInterval{2000};
// Replaying an hour of a busy cluster's offsets topic takes a while; never forever.
constexpr std::chrono::seconds historyDeadline{60};

// What the two commands share: the group, the stream switches and the history window.
struct MonitorArguments {
    QString group;
    std::chrono::milliseconds since = defaultHistory;
    bool readOffsetsTopic = true;
    QString offsetsTopic = QString::fromLatin1(monitor::OffsetsTopicStream::internalTopic);
    bool asJson = false;
};

// Returns ExitSuccess or the usage error already reported.
int takeMonitorArguments(const CommandContext& context, ArgumentList& arguments,
                         MonitorArguments& into) {
    const QStringList groups = arguments.takeValues(QStringLiteral("--group"));
    const auto since = arguments.takeValue(QStringLiteral("--since"));
    into.readOffsetsTopic = !arguments.takeFlag(QStringLiteral("--no-offsets-topic"));
    if (const auto topic = arguments.takeValue(QStringLiteral("--offsets-topic")))
        into.offsetsTopic = *topic;
    into.asJson = arguments.takeFlag(QStringLiteral("--json"));
    if (groups.size() != 1 || groups.first().trimmed().isEmpty())
        return usageError(context, QStringLiteral("give exactly one --group G"));
    into.group = groups.first();
    if (since) {
        const auto duration = offsets::parseIsoDuration(*since);
        if (!duration || duration.value() <= 0)
            return usageError(
                context, QStringLiteral(
                             "--since takes a positive ISO-8601 duration such as PT1H, got \"%1\"")
                             .arg(*since));
        into.since = std::chrono::milliseconds(duration.value());
    }
    return ExitSuccess;
}

kafka::Result<std::unique_ptr<MonitorSession>> openSession(const CommandContext& context,
                                                           const MonitorArguments& arguments) {
    MonitorSession::Options options;
    options.profile = context.profile;
    options.groups = {arguments.group};
    options.requestTimeout = context.timeout;
    options.readOffsetsTopic = arguments.readOffsetsTopic;
    options.offsetsTopic = arguments.offsetsTopic;
    options.history = arguments.since;
    options.rebuildLagHistory = false; // the lag chart's history: the CLI prints none
    return MonitorSession::create(std::move(options));
}

// The watched group's part of the session's view: the same numbers the GUI's detail shows.
GroupMonitorSnapshot watchedSnapshot(const MonitorSession& session, const QString& group) {
    const monitor::ClusterView view = session.view();
    if (const GroupMonitorSnapshot* snapshot = view.watchedGroup(group))
        return *snapshot;
    GroupMonitorSnapshot unknown;
    unknown.group = group;
    return unknown;
}

QJsonValue optionalRate(std::optional<double> value) {
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

QString timeLagStatusName(lag::TimeLag::Status status) {
    switch (status) {
    case lag::TimeLag::Status::Estimated:
        return QStringLiteral("estimated");
    case lag::TimeLag::Status::CaughtUp:
        return QStringLiteral("caughtUp");
    case lag::TimeLag::Status::AtLeast:
        return QStringLiteral("atLeast");
    case lag::TimeLag::Status::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

QString drainStatusName(lag::DrainEstimate::Status status) {
    switch (status) {
    case lag::DrainEstimate::Status::Drained:
        return QStringLiteral("drained");
    case lag::DrainEstimate::Status::Draining:
        return QStringLiteral("draining");
    case lag::DrainEstimate::Status::NotDraining:
        return QStringLiteral("notDraining");
    case lag::DrainEstimate::Status::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

QJsonValue timeLagSeconds(const lag::TimeLag& timeLag) {
    return timeLag.status == lag::TimeLag::Status::Unknown ? QJsonValue(QJsonValue::Null)
                                                           : QJsonValue(timeLag.seconds);
}

void noteApproximate(const CommandContext& context, const GroupMonitorSnapshot& snapshot) {
    context.err << "Note: the timeline is approximate (polling only): " << snapshot.timelineNote
                << u'\n';
}

// A group with no committed offset has no lag to speak of (not "0").
bool anyLag(const GroupMonitorSnapshot& snapshot) {
    return std::any_of(
        snapshot.partitions.cbegin(), snapshot.partitions.cend(),
        [](const monitor::MonitoredPartition& partition) { return partition.lag.has_value(); });
}

// The rebalance health that joins the verdict, with GroupTrend's field names.
QJsonObject rebalanceToJson(const lag::RebalanceHealth& rebalance) {
    return QJsonObject{
        {QStringLiteral("rebalancesLast10Min"), rebalance.rebalancesLast10Min},
        {QStringLiteral("longestRebalanceSeconds"), rebalance.longestRebalanceSeconds},
        {QStringLiteral("rebalancing"), rebalance.rebalancing},
        {QStringLiteral("currentRebalanceSeconds"), rebalance.currentRebalanceSeconds},
        {QStringLiteral("stuckRebalance"), rebalance.stuckRebalance},
        {QStringLiteral("stuckAfterSeconds"), rebalance.stuckAfterSeconds},
        {QStringLiteral("rebalanceStorm"), rebalance.rebalanceStorm},
        {QStringLiteral("joinedMembers"), QJsonArray::fromStringList(rebalance.joinedMembers)},
        {QStringLiteral("leftMembers"), QJsonArray::fromStringList(rebalance.leftMembers)},
        {QStringLiteral("timedOutMembers"), QJsonArray::fromStringList(rebalance.timedOutMembers)},
        {QStringLiteral("causeExact"), rebalance.causeExact}};
}

// " rebalances=3/10m longest=4.2s stuck" : what the verdict line adds about rebalances.
QString rebalanceText(const lag::RebalanceHealth& rebalance) {
    QString text = QStringLiteral(" rebalances=%1/10m longest=%2s")
                       .arg(rebalance.rebalancesLast10Min)
                       .arg(rebalance.longestRebalanceSeconds, 0, 'f', 1);
    if (rebalance.rebalancing)
        text +=
            QStringLiteral(" rebalancing=%1s").arg(rebalance.currentRebalanceSeconds, 0, 'f', 1);
    if (rebalance.stuckRebalance)
        text += QStringLiteral(" STUCK");
    if (rebalance.rebalanceStorm)
        text += QStringLiteral(" STORM");
    if (const QString cause = rebalance.cause(); !cause.isEmpty())
        text += QStringLiteral(" cause=\"%1\"").arg(cause);
    return text;
}

QJsonObject watchLineToJson(const GroupMonitorSnapshot& snapshot) {
    QJsonArray partitions;
    QHash<kafka::TopicPartition, lag::PartitionStatus> statuses;
    for (const lag::PartitionHealth& health : snapshot.health.partitions)
        statuses.insert(health.topicPartition, health.status);
    for (const monitor::MonitoredPartition& partition : snapshot.partitions)
        partitions.append(QJsonObject{
            {QStringLiteral("topic"), partition.topicPartition.topic},
            {QStringLiteral("partition"), partition.topicPartition.partition},
            {QStringLiteral("currentOffset"), optionalNumber(partition.committedOffset)},
            {QStringLiteral("logEndOffset"), qint64(partition.logEndOffset)},
            {QStringLiteral("lag"), optionalNumber(partition.lag)},
            {QStringLiteral("timeLagSeconds"), timeLagSeconds(partition.timeLag)},
            {QStringLiteral("productionRate"), optionalRate(partition.productionRate)},
            {QStringLiteral("consumptionRate"), optionalRate(partition.consumptionRate)},
            {QStringLiteral("status"),
             statuses.contains(partition.topicPartition)
                 ? QJsonValue(lag::partitionStatusName(statuses.value(partition.topicPartition)))
                 : QJsonValue(QJsonValue::Null)}});
    const auto& generations = snapshot.timeline.generations;
    return QJsonObject{
        {QStringLiteral("time"), isoTime(snapshot.takenAtMs)},
        {QStringLiteral("group"), snapshot.group},
        {QStringLiteral("state"), kafka::groupStateName(snapshot.state)},
        {QStringLiteral("members"), snapshot.memberCount},
        {QStringLiteral("lag"),
         anyLag(snapshot) ? QJsonValue(qint64(snapshot.totalLag)) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("timeLagSeconds"), timeLagSeconds(snapshot.maxTimeLag)},
        {QStringLiteral("timeLagStatus"), timeLagStatusName(snapshot.maxTimeLag.status)},
        {QStringLiteral("productionRate"), optionalRate(snapshot.productionRate)},
        {QStringLiteral("consumptionRate"), optionalRate(snapshot.consumptionRate)},
        {QStringLiteral("drainStatus"), drainStatusName(snapshot.drain.status)},
        {QStringLiteral("drainSeconds"),
         snapshot.drain.status == lag::DrainEstimate::Status::Draining
             ? QJsonValue(snapshot.drain.seconds)
             : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("verdict"), lag::groupStatusName(snapshot.health.status)},
        {QStringLiteral("rebalance"), rebalanceToJson(snapshot.rebalance)},
        {QStringLiteral("generation"), generations.isEmpty() || generations.last().generationId < 0
                                           ? QJsonValue(QJsonValue::Null)
                                           : QJsonValue(generations.last().generationId)},
        {QStringLiteral("timelineApproximate"), snapshot.timelineApproximate()},
        {QStringLiteral("partitions"), partitions}};
}

QString rateText(std::optional<double> rate) {
    return rate ? QStringLiteral("%1/s").arg(*rate, 0, 'f', 1) : QStringLiteral("?");
}

QString watchLineText(const GroupMonitorSnapshot& snapshot) {
    const lag::TimeLag& timeLag = snapshot.maxTimeLag;
    QString timeLagText = QStringLiteral("?");
    if (timeLag.status != lag::TimeLag::Status::Unknown)
        timeLagText =
            QStringLiteral("%1%2s")
                .arg(timeLag.status == lag::TimeLag::Status::AtLeast ? QStringLiteral(">=")
                                                                     : QString())
                .arg(timeLag.seconds, 0, 'f', 1);
    QString drainText = drainStatusName(snapshot.drain.status);
    if (snapshot.drain.status == lag::DrainEstimate::Status::Draining)
        drainText = QStringLiteral("%1s").arg(snapshot.drain.seconds, 0, 'f', 0);
    return QStringLiteral("%1 %2 %3 members=%4 lag=%5 time-lag=%6 produce=%7 consume=%8 "
                          "drain=%9 verdict=%10")
               .arg(isoTime(snapshot.takenAtMs), snapshot.group,
                    kafka::groupStateName(snapshot.state))
               .arg(snapshot.memberCount)
               .arg(anyLag(snapshot) ? QString::number(snapshot.totalLag) : QStringLiteral("-"))
               .arg(timeLagText, rateText(snapshot.productionRate),
                    rateText(snapshot.consumptionRate), drainText,
                    lag::groupStatusName(snapshot.health.status)) +
           rebalanceText(snapshot.rebalance);
}

} // namespace

int runTimelineCommand(const CommandContext& context, ArgumentList& arguments) {
    MonitorArguments options;
    if (const int usage = takeMonitorArguments(context, arguments, options))
        return usage;
    if (const int usage = rejectLeftovers(context, arguments))
        return usage;
    auto session = openSession(context, options);
    if (!session) {
        context.err << "Error: " << session.error().message << u'\n';
        return ExitFailure;
    }
    const int64_t sinceMs = QDateTime::currentMSecsSinceEpoch() - options.since.count();
    if (!session.value()->waitForHistory(std::chrono::steady_clock::now() + historyDeadline))
        context.err << "Warning: the offsets topic's history was not fully read within "
                    << historyDeadline.count() << " s; the timeline may miss the newest events\n";
    // One poll adds the current state, and is the whole timeline when the topic is unreadable.
    if (const auto polled = session.value()->refresh(); !polled) {
        context.err << "Error: " << polled.error().message << u'\n';
        return ExitFailure;
    }
    const GroupMonitorSnapshot snapshot = watchedSnapshot(*session.value(), options.group);
    if (snapshot.timelineApproximate())
        noteApproximate(context, snapshot);
    if (!snapshot.exists && snapshot.timeline.generations.isEmpty()) {
        context.err << "Error: Consumer group '" << options.group << "' does not exist.\n";
        return ExitFailure;
    }
    if (options.asJson)
        context.out << QJsonDocument(
                           timelineToJson(snapshot, sinceMs, session.value()->streamStatus()))
                           .toJson(QJsonDocument::Indented);
    else
        printTimelineText(context, snapshot);
    // Skipped records leave gaps in the timeline: say so (JSON has the counts).
    if (const auto skips = session.value()->view().offsetsTopicSkips; skips.total() > 0)
        context.err << "Note: " << skips.total() << " record(s) of __consumer_offsets skipped ("
                    << skips.unknownVersions << " of versions this build does not know, "
                    << skips.decodeErrors << " malformed"
                    << (skips.lastDecodeError.isEmpty()
                            ? QString()
                            : QStringLiteral("; last: ") + skips.lastDecodeError)
                    << ")\n";
    return ExitSuccess;
}

int runWatchCommand(const CommandContext& context, ArgumentList& arguments) {
    MonitorArguments options;
    if (const int usage = takeMonitorArguments(context, arguments, options))
        return usage;
    std::chrono::milliseconds interval = defaultInterval;
    if (const auto text = arguments.takeValue(QStringLiteral("--interval"))) {
        bool ok = false;
        const qlonglong value = text->toLongLong(&ok);
        if (!ok || value < 100 || value > 3'600'000)
            return usageError(context,
                              QStringLiteral("--interval takes milliseconds from 100 to 3600000"));
        interval = std::chrono::milliseconds(value);
    }
    std::optional<qlonglong> count;
    if (const auto text = arguments.takeValue(QStringLiteral("--count"))) {
        bool ok = false;
        count = text->toLongLong(&ok);
        if (!ok || *count <= 0)
            return usageError(context, QStringLiteral("--count takes a positive number"));
    }
    if (const int usage = rejectLeftovers(context, arguments))
        return usage;
    auto session = openSession(context, options);
    if (!session) {
        context.err << "Error: " << session.error().message << u'\n';
        return ExitFailure;
    }
    app::StopSignalWatcher stopSignal;
    QString lastNote;
    for (qlonglong updates = 0; !count || updates < *count;) {
        const auto nextAt = std::chrono::steady_clock::now() + interval;
        if (const auto polled = session.value()->refresh(); !polled) {
            context.err << "Error: " << polled.error().message << u'\n';
        } else {
            const GroupMonitorSnapshot snapshot = watchedSnapshot(*session.value(), options.group);
            if (snapshot.timelineApproximate() && snapshot.timelineNote != lastNote)
                noteApproximate(context, snapshot);
            lastNote = snapshot.timelineApproximate() ? snapshot.timelineNote : QString();
            if (options.asJson)
                context.out
                    << QJsonDocument(watchLineToJson(snapshot)).toJson(QJsonDocument::Compact)
                    << u'\n';
            else
                context.out << watchLineText(snapshot) << u'\n';
            context.out.flush();
            context.err.flush();
            ++updates;
            if (count && updates >= *count)
                break;
        }
        if (stopSignal.waitUntil(nextAt))
            break;
    }
    return ExitSuccess;
}

} // namespace groupscope::cli
