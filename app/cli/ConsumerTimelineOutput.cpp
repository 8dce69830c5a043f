// `timeline` for consumer-protocol (KIP-848) groups: target assignments, each member's
// reconciliation, and partitions moving between members one at a time.

#include "cli/TextTable.h"
#include "cli/TimelineOutput.h"

#include <QHash>

namespace groupscope::cli {

namespace {

QString partitionsText(const QList<kafka::TopicPartition>& partitions) {
    if (partitions.isEmpty())
        return QStringLiteral("-");
    // As Kafka's tool prints assignments: topic:p,p,p per topic.
    QStringList topics;
    QString topic;
    QStringList numbers;
    for (const kafka::TopicPartition& partition : partitions) {
        if (partition.topic != topic && !numbers.isEmpty()) {
            topics.append(topic + u':' + numbers.join(u','));
            numbers.clear();
        }
        topic = partition.topic;
        numbers.append(QString::number(partition.partition));
    }
    topics.append(topic + u':' + numbers.join(u','));
    return topics.join(u';');
}

QJsonArray partitionArray(const QList<kafka::TopicPartition>& partitions) {
    QJsonArray names;
    for (const kafka::TopicPartition& partition : partitions)
        names.append(partition.toString());
    return names;
}

QJsonObject ownersToJson(const QMap<kafka::TopicPartition, QString>& owners) {
    QHash<QString, QList<kafka::TopicPartition>> byMember;
    for (auto it = owners.cbegin(); it != owners.cend(); ++it)
        byMember[it.value()].append(it.key()); // a QMap: partitions stay sorted
    QJsonObject json;
    for (auto it = byMember.cbegin(); it != byMember.cend(); ++it)
        json.insert(it.key(), partitionArray(it.value()));
    return json;
}

// Client ids by member id, from every epoch: what people recognise a member by.
QHash<QString, QString> clientIds(const timeline::GroupTimeline& timeline) {
    QHash<QString, QString> ids;
    for (const timeline::Generation& generation : timeline.generations)
        for (const timeline::GenerationMember& member : generation.members)
            if (!member.clientId.isEmpty())
                ids.insert(member.memberId, member.clientId);
    return ids;
}

void printReconciliation(const CommandContext& context, const timeline::GroupTimeline& timeline) {
    if (timeline.reconciliation.isEmpty())
        return;
    const QHash<QString, QString> clients = clientIds(timeline);
    TextTable table({QStringLiteral("TIME"), QStringLiteral("MEMBER"), QStringLiteral("CLIENT-ID"),
                     QStringLiteral("MEMBER-EPOCH"), QStringLiteral("STATE"),
                     QStringLiteral("ASSIGNED"), QStringLiteral("PENDING-REVOCATION"),
                     QStringLiteral("TARGET-EPOCH"), QStringLiteral("TARGET"),
                     QStringLiteral("AT-TARGET")});
    for (const timeline::ReconciliationStep& step : timeline.reconciliation)
        table.addRow(
            {isoTime(step.atMs), step.memberId, clients.value(step.memberId, u"-"_qs),
             QStringLiteral("%1 (was %2)").arg(step.memberEpoch).arg(step.previousMemberEpoch),
             step.memberState, partitionsText(step.assigned),
             partitionsText(step.pendingRevocation),
             step.targetEpoch >= 0 ? QString::number(step.targetEpoch) : u"-"_qs,
             partitionsText(step.target),
             step.reachedTarget() ? QStringLiteral("yes") : QStringLiteral("no")});
    context.out << "\nReconciliation (each member's current assignment as the coordinator "
                   "stored it):\n";
    table.print(context.out);
}

// Each hand-over of a partition: its old owner told to revoke it, releasing it, and the new
// owner receiving it, while every other partition keeps being consumed.
void printMoves(const CommandContext& context, const timeline::GroupTimeline& timeline) {
    QStringList lines;
    const QList<timeline::OwnershipSpan>& spans = timeline.ownership;
    for (qsizetype i = 1; i < spans.size(); ++i) {
        const timeline::OwnershipSpan& before = spans[i - 1];
        const timeline::OwnershipSpan& after = spans[i];
        if (before.partition != after.partition || before.ownerId == after.ownerId || !before.endMs)
            continue;
        QString line = QStringLiteral("  %1  %2 -> %3:")
                           .arg(after.partition.toString(), before.ownerId, after.ownerId);
        if (before.revocationStartMs)
            line += QStringLiteral(" revoke asked %1,").arg(isoTime(*before.revocationStartMs));
        // A share group's partition may have two owners at once: the new one can start
        // before the old one lets go, an overlap rather than a gap.
        const int64_t gapMs = after.startMs - *before.endMs;
        line += QStringLiteral(" released %1, assigned %2 (%3)")
                    .arg(isoTime(*before.endMs), isoTime(after.startMs),
                         gapMs >= 0 ? QStringLiteral("%1 ms without an owner").arg(gapMs)
                                    : QStringLiteral("both owned it for %1 ms").arg(-gapMs));
        lines.append(line);
    }
    if (lines.isEmpty())
        return;
    context.out << "\nPartition moves (incremental: no group-wide stop):\n"
                << lines.join(u'\n') << u'\n';
}

} // namespace

QString groupProtocolName(timeline::GroupProtocol protocol) {
    switch (protocol) {
    case timeline::GroupProtocol::Consumer:
        return QStringLiteral("consumer");
    case timeline::GroupProtocol::Share:
        return QStringLiteral("share");
    case timeline::GroupProtocol::Streams:
        return QStringLiteral("streams");
    case timeline::GroupProtocol::Classic:
        break;
    }
    return QStringLiteral("classic");
}

void addConsumerTimelineJson(const timeline::GroupTimeline& timeline, QJsonObject& into) {
    QJsonArray targets;
    for (const timeline::TargetAssignment& target : timeline.targetAssignments)
        targets.append(
            QJsonObject{{QStringLiteral("assignmentEpoch"), target.assignmentEpoch},
                        {QStringLiteral("atMs"), qint64(target.atMs)},
                        {QStringLiteral("members"), ownersToJson(target.ownerByPartition)}});
    QJsonArray steps;
    for (const timeline::ReconciliationStep& step : timeline.reconciliation)
        steps.append(QJsonObject{
            {QStringLiteral("memberId"), step.memberId},
            {QStringLiteral("atMs"), qint64(step.atMs)},
            {QStringLiteral("memberEpoch"), step.memberEpoch},
            {QStringLiteral("previousMemberEpoch"), step.previousMemberEpoch},
            {QStringLiteral("memberState"), step.memberState},
            {QStringLiteral("assigned"), partitionArray(step.assigned)},
            {QStringLiteral("pendingRevocation"), partitionArray(step.pendingRevocation)},
            {QStringLiteral("targetEpoch"), step.targetEpoch},
            {QStringLiteral("target"), partitionArray(step.target)},
            {QStringLiteral("reachedTarget"), step.reachedTarget()}});
    QJsonArray ownership;
    for (const timeline::OwnershipSpan& span : timeline.ownership)
        ownership.append(QJsonObject{
            {QStringLiteral("partition"), span.partition.toString()},
            {QStringLiteral("owner"), span.ownerId},
            {QStringLiteral("startMs"), qint64(span.startMs)},
            {QStringLiteral("endMs"), optionalNumber(span.endMs)},
            {QStringLiteral("revocationStartMs"), optionalNumber(span.revocationStartMs)}});
    into.insert(QStringLiteral("targetAssignments"), targets);
    into.insert(QStringLiteral("reconciliation"), steps);
    into.insert(QStringLiteral("ownership"), ownership);
    into.insert(QStringLiteral("unresolvedTopicIds"),
                QJsonArray::fromStringList(timeline.unresolvedTopicIds));
}

void printConsumerTimelineText(const CommandContext& context,
                               const timeline::GroupTimeline& timeline) {
    printReconciliation(context, timeline);
    printMoves(context, timeline);
    if (!timeline.unresolvedTopicIds.isEmpty())
        context.out << "\nTopic ids without a topic name (deleted topics?): "
                    << timeline.unresolvedTopicIds.join(QStringLiteral(", ")) << u'\n';
}

} // namespace groupscope::cli
