#include "timeline/RebalanceTracker.h"

#include "offsetstopic/OffsetsTopicRecord.h"
#include "snapshot/GroupSnapshot.h"
#include "timeline/GroupTimeline.h"

#include <algorithm>
#include <limits>

namespace groupscope::timeline {

namespace {

// Bounds what one odd record (a generation id far ahead, a reset epoch) can add.
constexpr int maxGenerationStep = 1000;

QStringList sortedMemberIds(const monitor::GroupSnapshot& poll) {
    QStringList ids;
    ids.reserve(poll.description.members.size());
    for (const kafka::MemberDescription& member : poll.description.members)
        ids.append(member.memberId);
    ids.sort();
    return ids;
}

// Ids of `of` that are not in `in` (both sorted).
QStringList missingFrom(const QStringList& of, const QStringList& in) {
    QStringList missing;
    std::set_difference(of.cbegin(), of.cend(), in.cbegin(), in.cend(),
                        std::back_inserter(missing));
    return missing;
}

} // namespace

RebalanceTracker::RebalanceTracker(const lag::Clock& clock)
    : RebalanceTracker(clock, Options()) {}

RebalanceTracker::RebalanceTracker(const lag::Clock& clock, Options options)
    : m_clock(clock)
    , m_options(options) {
    m_options.maxEpisodesPerGroup = std::max(1, m_options.maxEpisodesPerGroup);
}

void RebalanceTracker::observePoll(const monitor::GroupSnapshot& poll, int64_t takenAtMs,
                                   bool generationsFromRecords) {
    if (poll.error.isError())
        return; // a failed poll says nothing about the group
    TrackedGroup& group = m_groups[poll.groupId()];
    const bool firstPoll = group.lastPollMs < 0;
    const kafka::GroupState state = poll.description.state;
    const bool rebalancing = kafka::isRebalancing(state);
    const QStringList members = sortedMemberIds(poll);

    if (rebalancing && !isOpen(group)) {
        Episode episode;
        episode.startMs = takenAtMs;
        episode.earliestStartMs = firstPoll ? takenAtMs : group.lastPollMs;
        insertEpisode(group, episode);
        group.membersBeforeEpisode = firstPoll ? members : group.polledMembers;
        group.cause = {};
    }
    const bool episodeWasOpen = isOpen(group);
    if (episodeWasOpen && !rebalancing)
        group.episodes.back().endMs = takenAtMs;
    if (episodeWasOpen && !group.cause.exact) {
        // A member that joins shows during PreparingRebalance; one that left is gone.
        group.cause.joined = missingFrom(members, group.membersBeforeEpisode);
        group.cause.left = missingFrom(group.membersBeforeEpisode, members);
    }

    // Consumer-protocol groups: every group epoch is one rebalance, whether or not a
    // poll caught the group reconciling.
    const std::optional<int32_t> epoch = poll.description.groupEpoch;
    int epochSteps = 0;
    if (epoch && group.groupEpoch && *epoch > *group.groupEpoch)
        epochSteps = std::min(*epoch - *group.groupEpoch, maxGenerationStep);
    if (epoch)
        group.groupEpoch = epoch;
    if (epochSteps > 0) {
        const bool newEpisode = !isOpen(group) && !episodeWasOpen;
        addGenerations(group, epochSteps, takenAtMs, takenAtMs);
        if (newEpisode) {
            group.cause = {};
            group.cause.joined = missingFrom(members, group.polledMembers);
            group.cause.left = missingFrom(group.polledMembers, members);
        }
    }

    // No generation will tell: members that changed between two quiet polls are a
    // rebalance the polls missed.
    const bool generationsKnown = epoch.has_value() || generationsFromRecords;
    if (!firstPoll && !rebalancing && !episodeWasOpen && !generationsKnown &&
        members != group.polledMembers && poll.exists()) {
        Episode missed;
        missed.startMs = takenAtMs;
        missed.earliestStartMs = group.lastPollMs;
        missed.endMs = takenAtMs;
        insertEpisode(group, missed);
        group.cause = {missingFrom(members, group.polledMembers),
                       missingFrom(group.polledMembers, members),
                       {},
                       false};
    }

    group.polledMembers = members;
    group.lastPollMs = takenAtMs;
    prune(group, takenAtMs);
}

void RebalanceTracker::observeGroupMetadata(const offsetstopic::GroupMetadata& metadata) {
    if (metadata.isTombstone)
        return;
    // Kafka 4 stores a classic group as soon as it exists: generation 0, nobody in it.
    if (metadata.generation == 0 && metadata.members.isEmpty())
        return;
    TrackedGroup& group = m_groups[metadata.group];
    if (group.generation && metadata.generation <= *group.generation)
        return; // the same generation stored again, or older news
    const int steps =
        group.generation ? std::min(metadata.generation - *group.generation, maxGenerationStep) : 1;
    const bool knewMembers = group.generation.has_value();
    group.generation = metadata.generation;

    const int64_t storedAtMs = metadata.recordTimestamp;
    // When the join phase ended; PreparingRebalance itself is never written.
    const int64_t formedAtMs = metadata.currentStateTimestamp.value_or(storedAtMs);
    const bool latest = addGenerations(group, steps, formedAtMs, storedAtMs);

    QList<Member> members;
    QStringList ids;
    std::optional<int32_t> sessionTimeout;
    std::optional<int32_t> rebalanceTimeout;
    for (const offsetstopic::GroupMemberMetadata& member : metadata.members) {
        members.append({member.memberId, member.rebalanceTimeoutMs.value_or(-1)});
        ids.append(member.memberId);
        if (member.sessionTimeoutMs > 0)
            sessionTimeout = std::max(sessionTimeout.value_or(0), member.sessionTimeoutMs);
        if (member.rebalanceTimeoutMs && *member.rebalanceTimeoutMs > 0)
            rebalanceTimeout = std::max(rebalanceTimeout.value_or(0), *member.rebalanceTimeoutMs);
    }
    ids.sort();
    if (!members.isEmpty()) {
        group.sessionTimeoutMs = sessionTimeout;
        group.rebalanceTimeoutMs = rebalanceTimeout;
    }

    // History replayed after live polls is older news: it does not explain the latest.
    if (knewMembers && latest) {
        QStringList previous;
        for (const Member& member : std::as_const(group.recordMembers))
            previous.append(member.memberId);
        previous.sort();
        Cause cause;
        cause.exact = true;
        cause.joined = missingFrom(ids, previous);
        // The rebalance began no earlier than its episode's earliest start: a member gone at
        // its end that had not rejoined for its whole rebalance timeout was removed for it.
        const Episode& episode = group.episodes.back();
        const int64_t joinPhaseAtMostMs = formedAtMs - episode.earliestStartMs;
        for (const QString& id : missingFrom(previous, ids)) {
            const auto member =
                std::find_if(group.recordMembers.cbegin(), group.recordMembers.cend(),
                             [&id](const Member& m) { return m.memberId == id; });
            const bool timedOut = member != group.recordMembers.cend() &&
                                  member->rebalanceTimeoutMs > 0 &&
                                  joinPhaseAtMostMs >= member->rebalanceTimeoutMs;
            (timedOut ? cause.timedOut : cause.left).append(id);
        }
        group.cause = cause;
    }
    group.recordMembers = members;
    prune(group, m_clock.nowMs());
}

bool RebalanceTracker::addGenerations(TrackedGroup& group, int count, int64_t formedAtMs,
                                      int64_t storedAtMs) {
    if (count <= 0)
        return false;
    if (!group.episodes.isEmpty()) {
        Episode& last = group.episodes.back();
        // A generation stored while polls show the rebalance, or once it was over but not
        // after the poll that saw it end, is that rebalance's.
        const bool belongs = storedAtMs >= last.earliestStartMs &&
                             (!last.endMs || (last.generations == 0 && storedAtMs <= *last.endMs));
        if (belongs) {
            const bool firstGeneration = last.generations == 0;
            last.generations += count;
            if (formedAtMs < last.startMs && formedAtMs >= last.earliestStartMs)
                last.startMs = formedAtMs;
            // The record's time is when it became stable; the poll saw that later.
            if (last.endMs && firstGeneration)
                last.endMs = std::max(last.startMs, storedAtMs);
            return true;
        }
    }
    Episode episode;
    episode.startMs = std::min(formedAtMs, storedAtMs);
    episode.earliestStartMs = episode.startMs;
    episode.endMs = storedAtMs;
    episode.generations = count;
    return insertEpisode(group, episode);
}

bool RebalanceTracker::insertEpisode(TrackedGroup& group, Episode episode) {
    // In start order: records replayed from the topic's history arrive after live polls.
    const auto at = std::upper_bound(
        group.episodes.begin(), group.episodes.end(), episode.startMs,
        [](int64_t startMs, const Episode& other) { return startMs < other.startMs; });
    const bool last = at == group.episodes.end();
    group.episodes.insert(at, episode);
    while (int(group.episodes.size()) > m_options.maxEpisodesPerGroup)
        group.episodes.removeFirst();
    return last;
}

void RebalanceTracker::prune(TrackedGroup& group, int64_t nowMs) const {
    const int64_t windowStartMs = nowMs - lag::RebalanceHealth::windowMs;
    group.episodes.removeIf([windowStartMs](const Episode& episode) {
        return episode.endMs && *episode.endMs < windowStartMs;
    });
}

lag::RebalanceThresholds RebalanceTracker::thresholdsOf(const QString& group) const {
    return m_thresholds.value(group, m_options.thresholds);
}

lag::RebalanceHealth RebalanceTracker::health(const QString& groupId,
                                              const GroupTimeline* timeline) const {
    lag::RebalanceHealth health;
    const lag::RebalanceThresholds thresholds = thresholdsOf(groupId);
    health.stormThreshold = thresholds.stormRebalances;
    const auto it = m_groups.constFind(groupId);
    int64_t stuckAfterMs = lag::RebalanceThresholds::defaultStuckAfterMs;
    if (thresholds.stuckAfterMs) {
        stuckAfterMs = *thresholds.stuckAfterMs;
        health.stuckAfterSource = lag::StuckThresholdSource::GroupSetting;
    } else if (it != m_groups.cend() && (it->sessionTimeoutMs || it->rebalanceTimeoutMs)) {
        // A healthy rebalance waits for its members at most this long (the coordinator then
        // removes them): the shorter of the two, as either one passing means a member is
        // holding the group up.
        constexpr int32_t unknown = std::numeric_limits<int32_t>::max();
        stuckAfterMs = std::min(it->sessionTimeoutMs.value_or(unknown),
                                it->rebalanceTimeoutMs.value_or(unknown));
        health.stuckAfterSource = lag::StuckThresholdSource::GroupTimeouts;
    }
    health.stuckAfterSeconds = double(stuckAfterMs) / 1000.0;
    if (it == m_groups.cend())
        return health;

    const int64_t nowMs = m_clock.nowMs();
    const int64_t windowStartMs = nowMs - lag::RebalanceHealth::windowMs;
    int64_t longestMs = 0;
    for (const Episode& episode : it->episodes) {
        const int64_t endMs = episode.endMs.value_or(nowMs);
        if (endMs < windowStartMs)
            continue;
        health.rebalancesLast10Min += std::max(1, episode.generations);
        longestMs = std::max(longestMs, endMs - episode.startMs);
    }
    health.longestRebalanceSeconds = double(longestMs) / 1000.0;
    if (isOpen(*it)) {
        health.rebalancing = true;
        const int64_t currentMs = std::max<int64_t>(0, nowMs - it->episodes.back().startMs);
        health.currentRebalanceSeconds = double(currentMs) / 1000.0;
        health.stuckRebalance = currentMs > stuckAfterMs;
    }
    health.rebalanceStorm =
        thresholds.stormRebalances > 0 && health.rebalancesLast10Min >= thresholds.stormRebalances;

    Cause cause = it->cause;
    // The timeline's latest generation names the cause only when it is the latest
    // rebalance's: formed within it, not the generation a rebalance still under way began
    // from (its members all "joined" when it was the group's first).
    if (!cause.exact && timeline && !timeline->generations.isEmpty() && !it->episodes.isEmpty()) {
        const Generation& latest = timeline->generations.last();
        const Episode& episode = it->episodes.back();
        if (!latest.approximate && !latest.startedBeforeWindow && episode.generations > 0 &&
            latest.startMs >= episode.earliestStartMs)
            cause = {latest.joinedMemberIds, latest.leftMemberIds, {}, true};
    }
    // A cause without a rebalance in the window would explain nothing on screen.
    if (health.rebalancesLast10Min == 0)
        cause = {};
    health.joinedMembers = cause.joined;
    health.leftMembers = cause.left;
    health.timedOutMembers = cause.timedOut;
    health.causeExact = cause.exact;
    return health;
}

} // namespace groupscope::timeline
