#include "timeline/RebalanceTimeline.h"

#include "monitor/GroupSnapshot.h"
#include "monitor/OffsetsTopicRecord.h"

#include <QSet>

#include <algorithm>

namespace groupscope::timeline {

namespace {

void sortMembers(QList<GenerationMember>& members) {
    std::sort(members.begin(), members.end(),
              [](const GenerationMember& a, const GenerationMember& b) {
                  return a.memberId < b.memberId;
              });
}

// Who joined and who left, compared with the generation before.
void compareMembers(Generation& generation, const Generation* previous) {
    QSet<QString> previousIds;
    if (previous)
        for (const GenerationMember& member : previous->members)
            previousIds.insert(member.memberId);
    QSet<QString> currentIds;
    generation.joinedMemberIds.clear();
    generation.leftMemberIds.clear();
    for (const GenerationMember& member : generation.members) {
        currentIds.insert(member.memberId);
        if (!previousIds.contains(member.memberId))
            generation.joinedMemberIds.append(member.memberId);
    }
    if (previous)
        for (const GenerationMember& member : previous->members)
            if (!currentIds.contains(member.memberId))
                generation.leftMemberIds.append(member.memberId);
}

bool isRebalancing(kafka::GroupState state) {
    return state == kafka::GroupState::PreparingRebalance ||
           state == kafka::GroupState::CompletingRebalance;
}

} // namespace

RebalanceTimeline::RebalanceTimeline()
    : RebalanceTimeline(Options()) {}

RebalanceTimeline::RebalanceTimeline(Options options)
    : m_options(options) {
    m_options.maxGenerationsPerGroup = std::max(1, m_options.maxGenerationsPerGroup);
    m_options.maxStateSpansPerGroup = std::max(1, m_options.maxStateSpansPerGroup);
}

RebalanceTimeline::TrackedGroup& RebalanceTimeline::tracked(const QString& group) {
    auto it = m_groups.find(group);
    if (it == m_groups.end()) {
        it = m_groups.insert(group, TrackedGroup());
        it->timeline.group = group;
    }
    return *it;
}

void RebalanceTimeline::startGeneration(TrackedGroup& group, Generation generation) {
    QList<Generation>& generations = group.timeline.generations;
    const Generation* previous = generations.isEmpty() ? nullptr : &generations.last();
    compareMembers(generation, previous);
    if (!generations.isEmpty() && !generations.last().endMs)
        generations.last().endMs = std::max(generation.startMs, generations.last().startMs);
    generations.append(std::move(generation));
    while (generations.size() > m_options.maxGenerationsPerGroup) {
        generations.removeFirst();
        ++group.timeline.droppedGenerations;
    }
}

void RebalanceTimeline::enterState(TrackedGroup& group, kafka::GroupState state, int64_t atMs,
                                   bool approximate) {
    QList<StateSpan>& spans = group.timeline.states;
    if (!spans.isEmpty()) {
        StateSpan& last = spans.last();
        if (last.state == state) {
            // An exact time for a state a poll saw first, later than it really began.
            if (!approximate && last.approximate && atMs < last.startMs) {
                const int64_t previousStart =
                    spans.size() > 1 ? spans[spans.size() - 2].startMs : atMs;
                last.startMs = std::max(atMs, previousStart);
                last.approximate = false;
                if (spans.size() > 1)
                    spans[spans.size() - 2].endMs = last.startMs;
            }
            return;
        }
        // Older news than what is already known (a record read after a later poll).
        if (atMs < last.startMs)
            return;
        last.endMs = atMs;
    }
    spans.append({state, atMs, std::nullopt, approximate});
    while (spans.size() > m_options.maxStateSpansPerGroup) {
        spans.removeFirst();
        ++group.timeline.droppedStates;
    }
}

void RebalanceTimeline::observeGroupMetadata(const monitor::GroupMetadata& metadata) {
    TrackedGroup& group = tracked(metadata.group);
    QList<Generation>& generations = group.timeline.generations;
    if (metadata.isTombstone) {
        if (!generations.isEmpty() && !generations.last().endMs)
            generations.last().endMs =
                std::max(metadata.recordTimestamp, generations.last().startMs);
        enterState(group, kafka::GroupState::Dead, metadata.recordTimestamp, false);
        group.timeline.deleted = true;
        return;
    }
    group.timeline.deleted = false;

    Generation generation;
    generation.generationId = metadata.generation;
    // currentStateTimestamp is when the group last changed state: for a stored
    // generation, when its join phase completed, i.e. when the generation was formed.
    generation.startMs = metadata.currentStateTimestamp.value_or(metadata.recordTimestamp);
    generation.protocolType = metadata.protocolType;
    generation.protocol = metadata.protocol;
    generation.leader = metadata.leader;
    for (const monitor::GroupMemberMetadata& member : metadata.members) {
        generation.members.append(
            {member.memberId, member.groupInstanceId, member.clientId, member.clientHost});
        if (member.assignment)
            for (const kafka::TopicPartition& partition : member.assignment->partitions)
                generation.ownerByPartition.insert(partition, member.memberId);
    }
    sortMembers(generation.members);

    if (group.hasExactGenerations && !generations.isEmpty() &&
        generations.last().generationId == generation.generationId) {
        // The same generation stored again (e.g. a static member replaced in place):
        // update it, keeping when it began.
        Generation& current = generations.last();
        generation.startMs = current.startMs;
        generation.endMs = current.endMs;
        compareMembers(generation,
                       generations.size() > 1 ? &generations[generations.size() - 2] : nullptr);
        current = std::move(generation);
        return;
    }
    group.hasExactGenerations = true;
    const bool empty = generation.members.isEmpty();
    const int64_t startMs = generation.startMs;
    startGeneration(group, std::move(generation));
    if (empty) {
        enterState(group, kafka::GroupState::Empty, startMs, false);
        return;
    }
    // The assignment is stored when the leader's SyncGroup arrives, which is when the
    // group moves from CompletingRebalance to Stable.
    if (startMs < metadata.recordTimestamp)
        enterState(group, kafka::GroupState::CompletingRebalance, startMs, false);
    enterState(group, kafka::GroupState::Stable, metadata.recordTimestamp, false);
}

void RebalanceTimeline::observeSnapshot(const monitor::GroupSnapshot& snapshot, int64_t takenAtMs) {
    if (snapshot.error.isError())
        return; // a failed poll says nothing about the group
    TrackedGroup& group = tracked(snapshot.groupId());
    const kafka::GroupState state = snapshot.description.state;
    if (!snapshot.exists() || state == kafka::GroupState::Dead) {
        QList<Generation>& generations = group.timeline.generations;
        if (!generations.isEmpty() && !generations.last().endMs)
            generations.last().endMs = std::max(takenAtMs, generations.last().startMs);
        enterState(group, kafka::GroupState::Dead, takenAtMs, true);
        return;
    }
    group.timeline.deleted = false;
    enterState(group, state, takenAtMs, true);
    if (isRebalancing(state)) {
        group.rebalanceSeenSinceGenerationStart = true;
        return;
    }
    if (!group.hasExactGenerations &&
        (state == kafka::GroupState::Stable || state == kafka::GroupState::Empty))
        inferGenerationFromPoll(group, snapshot, takenAtMs);
}

void RebalanceTimeline::observeSnapshotState(const monitor::GroupSnapshot& snapshot,
                                             int64_t takenAtMs) {
    if (snapshot.error.isError())
        return;
    TrackedGroup& group = tracked(snapshot.groupId());
    const kafka::GroupState state = snapshot.description.state;
    if (!snapshot.exists() || state == kafka::GroupState::Dead) {
        enterState(group, kafka::GroupState::Dead, takenAtMs, true);
        return;
    }
    enterState(group, state, takenAtMs, true);
}

void RebalanceTimeline::inferGenerationFromPoll(TrackedGroup& group,
                                                const monitor::GroupSnapshot& snapshot,
                                                int64_t takenAtMs) {
    Generation generation;
    generation.approximate = true;
    generation.startMs = takenAtMs;
    generation.protocolType = snapshot.description.protocolType;
    generation.protocol = snapshot.description.partitionAssignor;
    for (const kafka::MemberDescription& member : snapshot.description.members) {
        generation.members.append(
            {member.memberId, member.groupInstanceId, member.clientId, member.host});
        for (const kafka::TopicPartition& partition : member.assignment)
            generation.ownerByPartition.insert(partition, member.memberId);
    }
    sortMembers(generation.members);

    const QList<Generation>& generations = group.timeline.generations;
    const bool changed = generations.isEmpty() || generations.last().endMs.has_value() ||
                         generations.last().members != generation.members ||
                         generations.last().ownerByPartition != generation.ownerByPartition ||
                         generations.last().protocol != generation.protocol ||
                         group.rebalanceSeenSinceGenerationStart;
    group.rebalanceSeenSinceGenerationStart = false;
    if (changed)
        startGeneration(group, std::move(generation));
}

GroupTimeline RebalanceTimeline::timeline(const QString& group) const {
    const auto it = m_groups.constFind(group);
    if (it == m_groups.cend()) {
        GroupTimeline empty;
        empty.group = group;
        return empty;
    }
    return it->timeline;
}

QStringList RebalanceTimeline::groups() const {
    QStringList names = m_groups.keys();
    names.sort();
    return names;
}

QString RebalanceTimeline::ownerAt(const QString& group, const kafka::TopicPartition& partition,
                                   int64_t timeMs) const {
    const auto it = m_groups.constFind(group);
    if (it == m_groups.cend())
        return {};
    for (const Generation& generation : it->timeline.generations) {
        if (generation.startMs <= timeMs && (!generation.endMs || timeMs < *generation.endMs))
            return generation.ownerByPartition.value(partition);
    }
    return {};
}

} // namespace groupscope::timeline
