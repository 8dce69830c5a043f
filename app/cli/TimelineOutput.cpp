#include "cli/TimelineOutput.h"

#include "cli/TextTable.h"
#include "lag/DurationText.h"

#include <QDateTime>
#include <QSet>

#include <algorithm>

namespace groupscope::cli {

using monitor::GroupMonitorSnapshot;

QString isoTime(int64_t ms) {
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

QJsonValue optionalNumber(std::optional<int64_t> value) {
    return value ? QJsonValue(qint64(*value)) : QJsonValue(QJsonValue::Null);
}

namespace {

bool isGroupEpoch(const timeline::Generation& generation) {
    return generation.protocolType == QLatin1String("consumer") ||
           generation.protocolType == QLatin1String("share") ||
           generation.protocolType == QLatin1String("streams");
}

QString protocolDescription(timeline::GroupProtocol protocol) {
    switch (protocol) {
    case timeline::GroupProtocol::Consumer:
        return QStringLiteral(", consumer protocol (KIP-848)");
    case timeline::GroupProtocol::Share:
        return QStringLiteral(", share group (KIP-932)");
    case timeline::GroupProtocol::Streams:
        return QStringLiteral(", streams group (KIP-1071; partitions are active tasks, "
                              "subtopology-partition)");
    case timeline::GroupProtocol::Classic:
        break;
    }
    return QStringLiteral(", classic protocol");
}

QJsonArray partitionNames(const QList<kafka::TopicPartition>& partitions) {
    QJsonArray names;
    for (const kafka::TopicPartition& partition : partitions)
        names.append(partition.toString());
    return names;
}

// Partitions whose owner differs from the generation before (none before the first).
QJsonArray ownershipChanges(const timeline::Generation& generation,
                            const timeline::Generation* previous) {
    QJsonArray changes;
    if (!previous)
        return changes;
    QSet<kafka::TopicPartition> partitions;
    for (auto it = generation.ownerByPartition.cbegin(); it != generation.ownerByPartition.cend();
         ++it)
        partitions.insert(it.key());
    for (auto it = previous->ownerByPartition.cbegin(); it != previous->ownerByPartition.cend();
         ++it)
        partitions.insert(it.key());
    QList<kafka::TopicPartition> sorted(partitions.cbegin(), partitions.cend());
    std::sort(sorted.begin(), sorted.end());
    for (const kafka::TopicPartition& partition : sorted) {
        const QString from = previous->ownerByPartition.value(partition);
        const QString to = generation.ownerByPartition.value(partition);
        if (timeline::ownerChanged(*previous, generation, partition))
            changes.append(QJsonObject{{QStringLiteral("partition"), partition.toString()},
                                       {QStringLiteral("from"), from},
                                       {QStringLiteral("to"), to}});
    }
    return changes;
}

QJsonObject generationToJson(const timeline::Generation& generation,
                             const timeline::Generation* previous) {
    QJsonArray members;
    for (const timeline::GenerationMember& member : generation.members) {
        QList<kafka::TopicPartition> assignment;
        for (auto it = generation.ownerByPartition.cbegin();
             it != generation.ownerByPartition.cend(); ++it)
            if (it.value() == member.memberId)
                assignment.append(it.key());
        members.append(QJsonObject{{QStringLiteral("memberId"), member.memberId},
                                   {QStringLiteral("groupInstanceId"), member.groupInstanceId},
                                   {QStringLiteral("clientId"), member.clientId},
                                   {QStringLiteral("host"), member.host},
                                   {QStringLiteral("assignment"), partitionNames(assignment)}});
    }
    QJsonArray replacements;
    for (const timeline::MemberReplacement& replacement : generation.replacedMembers)
        replacements.append(
            QJsonObject{{QStringLiteral("groupInstanceId"), replacement.groupInstanceId},
                        {QStringLiteral("oldMemberId"), replacement.oldMemberId},
                        {QStringLiteral("newMemberId"), replacement.newMemberId},
                        {QStringLiteral("atMs"), qint64(replacement.atMs)}});
    return QJsonObject{
        {QStringLiteral("generation"), generation.generationId},
        // For a consumer-protocol, share or streams group the entries are group epochs
        // (generation = epoch).
        {QStringLiteral("groupEpoch"), isGroupEpoch(generation)},
        {QStringLiteral("approximate"), generation.approximate},
        {QStringLiteral("start"), isoTime(generation.startMs)},
        {QStringLiteral("startMs"), qint64(generation.startMs)},
        {QStringLiteral("startedBeforeWindow"), generation.startedBeforeWindow},
        {QStringLiteral("endMs"), optionalNumber(generation.endMs)},
        {QStringLiteral("protocolType"), generation.protocolType},
        {QStringLiteral("protocol"), generation.protocol},
        {QStringLiteral("leader"), generation.leader},
        {QStringLiteral("members"), members},
        {QStringLiteral("joined"), QJsonArray::fromStringList(generation.joinedMemberIds)},
        {QStringLiteral("left"), QJsonArray::fromStringList(generation.leftMemberIds)},
        {QStringLiteral("replaced"), replacements},
        {QStringLiteral("ownershipChanges"), ownershipChanges(generation, previous)}};
}

QJsonObject streamToJson(const std::optional<monitor::OffsetsTopicStream::Status>& status) {
    if (!status)
        return QJsonObject{{QStringLiteral("read"), false}};
    return QJsonObject{
        {QStringLiteral("read"), true},
        {QStringLiteral("reason"), status->reason},
        {QStringLiteral("caughtUp"), status->caughtUp},
        {QStringLiteral("recordsRead"), qint64(status->recordsRead)},
        {QStringLiteral("consumerGroupRecords"), qint64(status->consumerGroupRecords)},
        {QStringLiteral("unknownVersions"), qint64(status->unknownVersions)},
        {QStringLiteral("shareGroupRecords"), qint64(status->shareGroupRecords)},
        {QStringLiteral("streamsGroupRecords"), qint64(status->streamsGroupRecords)},
        {QStringLiteral("decodeErrors"), qint64(status->decodeErrors)}};
}

} // namespace

QJsonObject timelineToJson(const GroupMonitorSnapshot& snapshot, int64_t sinceMs,
                           const std::optional<monitor::OffsetsTopicStream::Status>& stream) {
    QJsonArray generations;
    const QList<timeline::Generation>& list = snapshot.timeline.generations;
    for (qsizetype i = 0; i < list.size(); ++i)
        generations.append(generationToJson(list[i], i > 0 ? &list[i - 1] : nullptr));
    QJsonArray states;
    for (const timeline::StateSpan& span : snapshot.timeline.states)
        states.append(QJsonObject{{QStringLiteral("state"), kafka::groupStateName(span.state)},
                                  {QStringLiteral("startMs"), qint64(span.startMs)},
                                  {QStringLiteral("endMs"), optionalNumber(span.endMs)},
                                  {QStringLiteral("approximate"), span.approximate}});
    QJsonArray commits;
    for (const monitor::CommitHistoryEntry& commit : snapshot.commits)
        commits.append(
            QJsonObject{{QStringLiteral("topic"), commit.topicPartition.topic},
                        {QStringLiteral("partition"), commit.topicPartition.partition},
                        {QStringLiteral("offset"), qint64(commit.offset)},
                        {QStringLiteral("timestampMs"), qint64(commit.commitTimestampMs)},
                        {QStringLiteral("metadata"), commit.metadata},
                        {QStringLiteral("deleted"), commit.deleted}});
    QJsonObject json{{QStringLiteral("group"), snapshot.group},
                     {QStringLiteral("protocol"), groupProtocolName(snapshot.timeline.protocol)},
                     {QStringLiteral("source"), snapshot.timelineApproximate()
                                                    ? QStringLiteral("polling")
                                                    : QStringLiteral("offsetsTopic")},
                     {QStringLiteral("approximate"), snapshot.timelineApproximate()},
                     {QStringLiteral("note"), snapshot.timelineNote.isEmpty()
                                                  ? QJsonValue(QJsonValue::Null)
                                                  : QJsonValue(snapshot.timelineNote)},
                     {QStringLiteral("sinceMs"), qint64(sinceMs)},
                     {QStringLiteral("state"), kafka::groupStateName(snapshot.state)},
                     {QStringLiteral("generations"), generations},
                     {QStringLiteral("states"), states},
                     {QStringLiteral("commits"), commits},
                     {QStringLiteral("stream"), streamToJson(stream)}};
    if (timeline::followsGroupEpochs(snapshot.timeline.protocol))
        addConsumerTimelineJson(snapshot.timeline, json);
    return json;
}

namespace {

// The leader's client id (what people recognise), or its member id when unknown.
QString leaderText(const timeline::Generation& generation) {
    if (generation.leader.isEmpty())
        return QStringLiteral("-");
    for (const timeline::GenerationMember& member : generation.members)
        if (member.memberId == generation.leader && !member.clientId.isEmpty())
            return member.clientId;
    return generation.leader;
}

void printStateSpans(const CommandContext& context, const GroupMonitorSnapshot& snapshot) {
    if (snapshot.timeline.states.isEmpty())
        return;
    TextTable states({QStringLiteral("STATE"), QStringLiteral("START"), QStringLiteral("END"),
                      QStringLiteral("DURATION")});
    for (const timeline::StateSpan& span : snapshot.timeline.states)
        states.addRow({kafka::groupStateName(span.state),
                       (span.approximate ? QStringLiteral("~") : QString()) + isoTime(span.startMs),
                       span.endMs ? isoTime(*span.endMs) : QStringLiteral("-"),
                       lag::durationText(double(span.durationMs(snapshot.takenAtMs)) / 1000.0) +
                           (span.endMs ? QString() : QStringLiteral(" so far"))});
    context.out << "\nStates (~: seen by a poll, up to one interval late):\n";
    states.print(context.out);
}

} // namespace

void printTimelineText(const CommandContext& context, const GroupMonitorSnapshot& snapshot) {
    const bool consumerProtocol = timeline::followsGroupEpochs(snapshot.timeline.protocol);
    context.out << "Group " << snapshot.group << ": "
                << (snapshot.timelineApproximate()
                        ? QStringLiteral("approximate timeline (polling only)")
                        : QStringLiteral("timeline from the offsets topic"))
                << protocolDescription(snapshot.timeline.protocol) << u'\n';
    // A consumer group's entries are its group epochs, bumped by every join and leave.
    TextTable table({consumerProtocol ? QStringLiteral("EPOCH") : QStringLiteral("GENERATION"),
                     QStringLiteral("START"), QStringLiteral("END"), QStringLiteral("DURATION"),
                     QStringLiteral("PROTOCOL"), QStringLiteral("LEADER"),
                     QStringLiteral("#MEMBERS"), QStringLiteral("JOINED"), QStringLiteral("LEFT"),
                     QStringLiteral("RESTARTED")});
    for (const timeline::Generation& generation : snapshot.timeline.generations)
        table.addRow(
            {generation.generationId >= 0 ? QString::number(generation.generationId)
                                          : QStringLiteral("~"),
             generation.startedBeforeWindow ? QStringLiteral("<=") + isoTime(generation.startMs)
                                            : isoTime(generation.startMs),
             generation.endMs ? isoTime(*generation.endMs) : QStringLiteral("-"),
             (generation.startedBeforeWindow ? QStringLiteral(">=") : QString()) +
                 lag::durationText(double(generation.durationMs(snapshot.takenAtMs)) / 1000.0),
             generation.protocol.isEmpty() ? QStringLiteral("-") : generation.protocol,
             leaderText(generation), QString::number(generation.members.size()),
             QString::number(generation.joinedMemberIds.size()),
             QString::number(generation.leftMemberIds.size()),
             QString::number(generation.replacedMembers.size())});
    if (snapshot.timeline.generations.isEmpty()) {
        // A group that only stores offsets (no members ever joined) has no generations.
        context.out << (consumerProtocol ? "No group epochs" : "No generations")
                    << " in the window (state now: " << kafka::groupStateName(snapshot.state)
                    << ").\n";
        printStateSpans(context, snapshot);
        return;
    }
    table.print(context.out);
    const QList<timeline::Generation>& list = snapshot.timeline.generations;
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QString name =
            list[i].generationId >= 0 ? QString::number(list[i].generationId) : QStringLiteral("~");
        for (const timeline::MemberReplacement& replacement : list[i].replacedMembers)
            context.out << "\nGeneration " << name << ": static member "
                        << replacement.groupInstanceId << " restarted at "
                        << isoTime(replacement.atMs) << " (" << replacement.oldMemberId << " -> "
                        << replacement.newMemberId << ")\n";
        const QJsonArray changes = ownershipChanges(list[i], i > 0 ? &list[i - 1] : nullptr);
        if (changes.isEmpty())
            continue;
        context.out << (consumerProtocol ? "\nEpoch " : "\nGeneration ") << name
                    << (consumerProtocol ? " target assignment changes:\n"
                                         : " ownership changes:\n");
        for (const QJsonValue& change : changes) {
            const QJsonObject c = change.toObject();
            const auto orDash = [](const QString& text) {
                return text.isEmpty() ? QStringLiteral("-") : text;
            };
            context.out << "  " << c[QStringLiteral("partition")].toString() << "  "
                        << orDash(c[QStringLiteral("from")].toString()) << " -> "
                        << orDash(c[QStringLiteral("to")].toString()) << u'\n';
        }
    }
    if (consumerProtocol)
        printConsumerTimelineText(context, snapshot.timeline);
    printStateSpans(context, snapshot);
}

} // namespace groupscope::cli
