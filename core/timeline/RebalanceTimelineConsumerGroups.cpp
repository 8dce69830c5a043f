// RebalanceTimeline's consumer-protocol (KIP-848), share and streams groups: their records
// in, a GroupTimeline with topic names out.

#include "timeline/RebalanceTimeline.h"

#include "offsetstopic/ConsumerGroupRecord.h"

#include <algorithm>

namespace groupscope::timeline {

namespace {

void addTopicIds(const QList<offsetstopic::TopicIdPartitions>& topics, QSet<QString>& ids) {
    for (const offsetstopic::TopicIdPartitions& topic : topics)
        ids.insert(topic.topicId);
}

GroupProtocol protocolOf(kafka::GroupType type) {
    switch (type) {
    case kafka::GroupType::Share:
        return GroupProtocol::Share;
    case kafka::GroupType::Streams:
        return GroupProtocol::Streams;
    default:
        return GroupProtocol::Consumer;
    }
}

// Whether the generation's partitions are named by topic id (a streams group's are tasks,
// named by subtopology; a classic generation's by topic name already).
bool partitionsByTopicId(const Generation& generation) {
    return generation.protocolType == QLatin1String("consumer") ||
           generation.protocolType == QLatin1String("share");
}

// Polls see a share or streams group before its records arrive through the stream, and
// infer approximate generations (a stand-in with no epoch) that the records replace: such a
// group never had classic generations to keep.
void dropPolledGenerations(GroupTimeline& timeline) {
    const bool polledOnly =
        std::all_of(timeline.generations.cbegin(), timeline.generations.cend(),
                    [](const Generation& generation) {
                        return generation.approximate || generation.startedBeforeWindow;
                    });
    if (polledOnly)
        timeline.generations.clear();
}

QSet<QString> topicIdsOf(const offsetstopic::ConsumerGroupRecord& record) {
    QSet<QString> ids;
    if (record.groupType == kafka::GroupType::Streams)
        return ids; // tasks: subtopology ids, not topic ids
    if (const auto* target =
            std::get_if<offsetstopic::ConsumerGroupTargetAssignmentMemberValue>(&record.value))
        addTopicIds(target->topicPartitions, ids);
    if (const auto* current =
            std::get_if<offsetstopic::ConsumerGroupCurrentMemberAssignmentValue>(&record.value)) {
        addTopicIds(current->assignedPartitions, ids);
        addTopicIds(current->partitionsPendingRevocation, ids);
    }
    return ids;
}

} // namespace

void RebalanceTimeline::observeConsumerGroupRecord(
    const offsetstopic::ConsumerGroupRecord& record) {
    TrackedGroup& group = tracked(record.group);
    if (!group.consumer) {
        // A classic group upgraded to the consumer protocol keeps the generations it had.
        group.consumer.emplace(m_options.consumerGroups);
        group.timeline.protocol = protocolOf(record.groupType);
    }
    group.hasExactGenerations = true;
    m_topicIds.unite(topicIdsOf(record));
    ConsumerGroupHistory::Changes changes = group.consumer->apply(record);
    for (auto it = changes.topicNames.cbegin(); it != changes.topicNames.cend(); ++it)
        m_topicNames.insert(it.key(), it.value());

    QList<Generation>& generations = group.timeline.generations;
    if (changes.newEpoch) {
        if (record.groupType != kafka::GroupType::Consumer)
            dropPolledGenerations(group.timeline);
        group.timeline.deleted = false;
        startGeneration(group, std::move(*changes.newEpoch));
    }
    if (changes.targetAssignment && !generations.isEmpty() &&
        generations.last().generationId == changes.targetAssignment->assignmentEpoch)
        generations.last().ownerByPartition = changes.targetAssignment->ownerByPartition;
    if (changes.deleted) {
        if (!generations.isEmpty() && !generations.last().endMs)
            generations.last().endMs = std::max(record.recordTimestamp, generations.last().startMs);
        group.timeline.deleted = true;
    }
    if (changes.state != kafka::GroupState::Unknown)
        enterConsumerState(group, changes.state, record.recordTimestamp);
}

void RebalanceTimeline::enterConsumerState(TrackedGroup& group, kafka::GroupState state,
                                           int64_t atMs) {
    // The coordinator writes one change's records in one batch, with one timestamp: the
    // states passed through between them (a member already removed, its partitions not yet
    // reassigned) lasted no time. The last of them is the state.
    QList<StateSpan>& spans = group.timeline.states;
    if (!spans.isEmpty() && spans.last().startMs == atMs && !spans.last().approximate &&
        spans.last().state != state) {
        spans.removeLast();
        if (!spans.isEmpty() && spans.last().endMs == atMs)
            spans.last().endMs.reset();
    }
    enterState(group, state, atMs, false);
}

void RebalanceTimeline::addTopicNames(const QHash<QString, QString>& namesById) {
    for (auto it = namesById.cbegin(); it != namesById.cend(); ++it)
        m_topicNames.insert(it.key(), it.value());
}

QStringList RebalanceTimeline::unresolvedTopicIds() const {
    QStringList ids;
    for (const QString& id : m_topicIds)
        if (!m_topicNames.contains(id))
            ids.append(id);
    ids.sort();
    return ids;
}

kafka::TopicPartition RebalanceTimeline::named(const kafka::TopicPartition& byId) const {
    const auto name = m_topicNames.constFind(byId.topic);
    return name == m_topicNames.cend() ? byId : kafka::TopicPartition{*name, byId.partition};
}

GroupTimeline RebalanceTimeline::consumerTimeline(const TrackedGroup& group) const {
    GroupTimeline timeline = group.timeline;
    const ConsumerGroupHistory& history = *group.consumer;
    const auto renamedOwners = [this](const QMap<kafka::TopicPartition, QString>& owners) {
        QMap<kafka::TopicPartition, QString> renamed;
        for (auto it = owners.cbegin(); it != owners.cend(); ++it)
            renamed.insert(named(it.key()), it.value());
        return renamed;
    };
    const auto renamedList = [this](const QList<kafka::TopicPartition>& partitions) {
        QList<kafka::TopicPartition> renamed;
        for (const kafka::TopicPartition& partition : partitions)
            renamed.append(named(partition));
        std::sort(renamed.begin(), renamed.end());
        return renamed;
    };
    QSet<QString> unresolved;
    const auto noteUnresolved = [&](const QMap<kafka::TopicPartition, QString>& owners) {
        for (auto it = owners.cbegin(); it != owners.cend(); ++it)
            if (!m_topicNames.contains(it.key().topic))
                unresolved.insert(it.key().topic);
    };
    for (Generation& generation : timeline.generations) {
        // Generations from before an upgrade to the consumer protocol carry names already.
        if (!partitionsByTopicId(generation))
            continue;
        noteUnresolved(generation.ownerByPartition);
        generation.ownerByPartition = renamedOwners(generation.ownerByPartition);
    }
    if (timeline.protocol == GroupProtocol::Streams) {
        // Tasks, named by subtopology: nothing to resolve.
        timeline.targetAssignments = history.targetAssignments();
        timeline.reconciliation = history.reconciliation();
        timeline.ownership = history.ownership();
        return timeline;
    }
    for (TargetAssignment target : history.targetAssignments()) {
        noteUnresolved(target.ownerByPartition);
        target.ownerByPartition = renamedOwners(target.ownerByPartition);
        timeline.targetAssignments.append(std::move(target));
    }
    for (ReconciliationStep step : history.reconciliation()) {
        step.assigned = renamedList(step.assigned);
        step.pendingRevocation = renamedList(step.pendingRevocation);
        step.target = renamedList(step.target);
        timeline.reconciliation.append(std::move(step));
    }
    for (OwnershipSpan span : history.ownership()) {
        if (!m_topicNames.contains(span.partition.topic))
            unresolved.insert(span.partition.topic);
        span.partition = named(span.partition);
        timeline.ownership.append(std::move(span));
    }
    std::stable_sort(
        timeline.ownership.begin(), timeline.ownership.end(),
        [](const OwnershipSpan& a, const OwnershipSpan& b) { return a.partition < b.partition; });
    timeline.unresolvedTopicIds = QStringList(unresolved.cbegin(), unresolved.cend());
    timeline.unresolvedTopicIds.sort();
    return timeline;
}

} // namespace groupscope::timeline
