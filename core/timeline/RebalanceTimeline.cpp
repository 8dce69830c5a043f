#include "timeline/RebalanceTimeline.h"

#include "offsetstopic/OffsetsTopicRecord.h"
#include "snapshot/GroupSnapshot.h"

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

// The member of `members` with that static identity, if any.
const GenerationMember* findInstance(const QList<GenerationMember>& members,
                                     const QString& groupInstanceId) {
    if (groupInstanceId.isEmpty())
        return nullptr;
    for (const GenerationMember& member : members)
        if (member.groupInstanceId == groupInstanceId)
            return &member;
    return nullptr;
}

// Static members of `after` that were in `before` under another member id.
QList<MemberReplacement> replacementsBetween(const QList<GenerationMember>& before,
                                             const QList<GenerationMember>& after, int64_t atMs) {
    QList<MemberReplacement> replacements;
    for (const GenerationMember& member : after) {
        const GenerationMember* previous = findInstance(before, member.groupInstanceId);
        if (previous && previous->memberId != member.memberId)
            replacements.append(
                {member.groupInstanceId, previous->memberId, member.memberId, atMs});
    }
    return replacements;
}

// Whether both lists hold the same member ids (each list is sorted by member id).
bool sameMemberIds(const QList<GenerationMember>& a, const QList<GenerationMember>& b) {
    return std::equal(a.cbegin(), a.cend(), b.cbegin(), b.cend(),
                      [](const GenerationMember& x, const GenerationMember& y) {
                          return x.memberId == y.memberId;
                      });
}

// Who joined and who left, compared with the generation before. A static member that came
// back under a new member id did neither (Kafka hands it its old assignment).
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
        if (!previousIds.contains(member.memberId) &&
            !(previous && findInstance(previous->members, member.groupInstanceId)))
            generation.joinedMemberIds.append(member.memberId);
    }
    if (previous)
        for (const GenerationMember& member : previous->members)
            if (!currentIds.contains(member.memberId) &&
                !findInstance(generation.members, member.groupInstanceId))
                generation.leftMemberIds.append(member.memberId);
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
    if (previous)
        generation.replacedMembers =
            replacementsBetween(previous->members, generation.members, generation.startMs);
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

void RebalanceTimeline::observeGroupMetadata(const offsetstopic::GroupMetadata& metadata) {
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
    // Kafka 4's group coordinator stores a classic group as soon as it exists, before any
    // generation formed: generation 0, no members, no protocol. That is a state, Empty, not
    // a generation (Kafka 3 stores nothing until the first join completes).
    if (metadata.generation == 0 && metadata.members.isEmpty()) {
        enterState(group, kafka::GroupState::Empty,
                   metadata.currentStateTimestamp.value_or(metadata.recordTimestamp), false);
        return;
    }

    Generation generation;
    generation.generationId = metadata.generation;
    // currentStateTimestamp is when the group last changed state: for a stored
    // generation, when its join phase completed, i.e. when the generation was formed.
    generation.startMs = metadata.currentStateTimestamp.value_or(metadata.recordTimestamp);
    generation.protocolType = metadata.protocolType;
    generation.protocol = metadata.protocol;
    generation.leader = metadata.leader;
    for (const offsetstopic::GroupMemberMetadata& member : metadata.members) {
        generation.members.append(
            {member.memberId, member.groupInstanceId, member.clientId, member.clientHost});
        if (member.assignment)
            for (const kafka::TopicPartition& partition : member.assignment->partitions)
                generation.ownerByPartition.insert(partition, member.memberId);
    }
    sortMembers(generation.members);

    if (!generations.isEmpty()) {
        Generation& current = generations.last();
        // The same generation stored again (e.g. a static member replaced in place): update
        // it, keeping when it began.
        const bool storedAgain =
            group.hasExactGenerations && current.generationId == generation.generationId;
        // A record of the generation the seeded stand-in stands for: the stand-in becomes
        // exact. Either its state timestamp is before the window (it really was in force when
        // the window opened), or it has the stand-in's very members: a group that formed just
        // as the monitor went live, whose record was still on its way through the stream
        // when the poll saw the group. Then the record's own start time is the true one.
        const bool standIn =
            current.startedBeforeWindow && !current.endMs && !group.hasExactGenerations;
        const bool formedBeforeWindow = generation.startMs <= current.startMs;
        const bool seededOne =
            standIn && (formedBeforeWindow || sameMemberIds(current.members, generation.members));
        if (storedAgain || seededOne) {
            if (storedAgain) {
                generation.startMs = current.startMs;
                generation.endMs = current.endMs;
            }
            generation.replacedMembers =
                current.replacedMembers +
                replacementsBetween(current.members, generation.members, metadata.recordTimestamp);
            compareMembers(generation,
                           generations.size() > 1 ? &generations[generations.size() - 2] : nullptr);
            if (seededOne && formedBeforeWindow)
                generation.joinedMemberIds = current.joinedMemberIds; // unknown: none listed
            current = std::move(generation);
            group.hasExactGenerations = true;
            return;
        }
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

bool RebalanceTimeline::followsConsumerRecords(const QString& group) const {
    const auto it = m_groups.constFind(group);
    return it != m_groups.cend() && it->consumer.has_value();
}

void RebalanceTimeline::observeSnapshot(const monitor::GroupSnapshot& snapshot, int64_t takenAtMs) {
    if (snapshot.error.isError())
        return; // a failed poll says nothing about the group
    if (followsConsumerRecords(snapshot.groupId()))
        return; // its records show every state exactly
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
    if (kafka::isRebalancing(state)) {
        group.rebalanceSeenSinceGenerationStart = true;
        return;
    }
    if (!group.hasExactGenerations && hasFormedAGeneration(snapshot))
        inferGenerationFromPoll(group, snapshot, takenAtMs);
}

bool RebalanceTimeline::hasFormedAGeneration(const monitor::GroupSnapshot& snapshot) {
    const kafka::GroupState state = snapshot.description.state;
    if (state != kafka::GroupState::Stable && state != kafka::GroupState::Empty)
        return false;
    // A classic group is created Empty, with no protocol type, by its first member's
    // JoinGroup (answered MEMBER_ID_REQUIRED); a poll then is not a generation. A group
    // that had members keeps its protocol type after they leave.
    return !snapshot.description.members.isEmpty() || !snapshot.description.protocolType.isEmpty();
}

void RebalanceTimeline::observeSnapshotState(const monitor::GroupSnapshot& snapshot,
                                             int64_t takenAtMs) {
    if (snapshot.error.isError() || followsConsumerRecords(snapshot.groupId()))
        return;
    TrackedGroup& group = tracked(snapshot.groupId());
    const kafka::GroupState state = snapshot.description.state;
    if (!snapshot.exists() || state == kafka::GroupState::Dead) {
        enterState(group, kafka::GroupState::Dead, takenAtMs, true);
        return;
    }
    enterState(group, state, takenAtMs, true);
}

bool RebalanceTimeline::seedGenerationBeforeWindow(const monitor::GroupSnapshot& snapshot,
                                                   int64_t windowStartMs) {
    if (snapshot.error.isError() || !snapshot.exists())
        return false;
    if (!hasFormedAGeneration(snapshot))
        return false;
    const kafka::GroupState state = snapshot.description.state;
    TrackedGroup& group = tracked(snapshot.groupId());
    if (!group.timeline.generations.isEmpty())
        return false;
    Generation generation = generationFromPoll(snapshot, windowStartMs);
    generation.startedBeforeWindow = true;
    // Nobody joined "in" it as far as the window can tell.
    group.timeline.generations.append(std::move(generation));
    if (group.timeline.states.isEmpty() || group.timeline.states.first().startMs > windowStartMs)
        group.timeline.states.prepend({state, windowStartMs, std::nullopt, true});
    if (group.timeline.states.size() > 1 && !group.timeline.states.first().endMs)
        group.timeline.states.first().endMs = group.timeline.states[1].startMs;
    return true;
}

Generation RebalanceTimeline::generationFromPoll(const monitor::GroupSnapshot& snapshot,
                                                 int64_t startMs) {
    Generation generation;
    generation.approximate = true;
    generation.startMs = startMs;
    generation.protocolType = snapshot.description.protocolType;
    generation.protocol = snapshot.description.partitionAssignor;
    for (const kafka::MemberDescription& member : snapshot.description.members) {
        generation.members.append(
            {member.memberId, member.groupInstanceId, member.clientId, member.host});
        for (const kafka::TopicPartition& partition : member.assignment)
            generation.ownerByPartition.insert(partition, member.memberId);
    }
    sortMembers(generation.members);
    return generation;
}

void RebalanceTimeline::inferGenerationFromPoll(TrackedGroup& group,
                                                const monitor::GroupSnapshot& snapshot,
                                                int64_t takenAtMs) {
    Generation generation = generationFromPoll(snapshot, takenAtMs);

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
    if (it->consumer)
        return consumerTimeline(*it);
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
    if (it->consumer) {
        for (const OwnershipSpan& span : consumerTimeline(*it).ownership)
            if (span.partition == partition && span.startMs <= timeMs &&
                (!span.endMs || timeMs < *span.endMs))
                return span.ownerId;
        return {};
    }
    for (const Generation& generation : it->timeline.generations) {
        if (generation.startMs <= timeMs && (!generation.endMs || timeMs < *generation.endMs))
            return generation.ownerByPartition.value(partition);
    }
    return {};
}

} // namespace groupscope::timeline
