#pragma once

#include "lag/Clock.h"
#include "snapshot/RebalanceHealth.h"

#include <QHash>
#include <QStringList>

#include <optional>

namespace groupscope::monitor {
struct GroupSnapshot;
} // namespace groupscope::monitor
namespace groupscope::offsetstopic {
struct GroupMetadata;
} // namespace groupscope::offsetstopic

namespace groupscope::timeline {

struct GroupTimeline;

// Rebalance health for every group, lean enough for thousands of them: a few rebalances of
// the last ten minutes per group, the member ids of the latest generation, two timeouts.
//
// A rebalance is an episode of rebalancing states. Polls see episodes begin and end (up to
// one interval late). Generations say how many rebalances there really were: each new
// generation id in the offsets topic's GroupMetadata (classic groups, exact, with its
// members, so who joined and who left is exact too) or each step of a consumer group's
// polled group epoch. A generation that arrives while polls show its episode belongs to
// that episode; one no poll saw (a quick rebalance between two polls) is an episode of its
// own. Without any generation source (the offsets topic unreadable, a classic group) a
// change of members between two polls stands for a rebalance the polls missed.
//
// Not thread safe: the monitor's worker owns it, as GroupMonitor.
class RebalanceTracker {
public:
    struct Options {
        lag::RebalanceThresholds thresholds; // for groups without their own
        int maxEpisodesPerGroup = 100;       // a storm beyond this still counts as one
    };

    explicit RebalanceTracker(const lag::Clock& clock = lag::SystemClock::instance());
    RebalanceTracker(const lag::Clock& clock, Options options);

    // `generationsFromRecords`: the offsets topic is read, so classic groups' generations
    // come from observeGroupMetadata() and polls need not guess them.
    void observePoll(const monitor::GroupSnapshot& poll, int64_t takenAtMs,
                     bool generationsFromRecords);
    void observeGroupMetadata(const offsetstopic::GroupMetadata& metadata);

    // Per-group thresholds (the user's settings); groups not named use Options::thresholds.
    void setThresholds(const QHash<QString, lag::RebalanceThresholds>& thresholds) {
        m_thresholds = thresholds;
    }

    // `timeline`: the group's full rebalance timeline where the monitor keeps one (a watched
    // group); its latest generation then names the cause when the tracker only has polls.
    lag::RebalanceHealth health(const QString& group,
                                const GroupTimeline* timeline = nullptr) const;

    void removeGroup(const QString& group) { m_groups.remove(group); }
    qsizetype groupCount() const { return m_groups.size(); }

private:
    struct Episode {
        int64_t startMs = 0;
        // It began after this (the poll before the one that saw it); a generation stored
        // before it belongs to an earlier rebalance.
        int64_t earliestStartMs = 0;
        std::optional<int64_t> endMs; // none while it goes on
        int generations = 0;          // generations it formed; it counts as max(1, this)
    };
    struct Member {
        QString memberId;
        int32_t rebalanceTimeoutMs = -1;
    };
    struct Cause {
        QStringList joined;
        QStringList left;
        QStringList timedOut;
        bool exact = false;
    };
    struct TrackedGroup {
        // Oldest first, within the window (and the open one). A QList, not a deque: an empty
        // deque allocates, and most of thousands of groups never rebalance.
        QList<Episode> episodes;
        int64_t lastPollMs = -1;
        QStringList polledMembers;        // sorted member ids of the latest poll
        QStringList membersBeforeEpisode; // of the last poll before the open episode
        std::optional<int32_t> groupEpoch;
        std::optional<int32_t> generation;         // latest GroupMetadata's
        QList<Member> recordMembers;               // its members
        std::optional<int32_t> sessionTimeoutMs;   // the largest of its members'
        std::optional<int32_t> rebalanceTimeoutMs; // the largest of its members'
        Cause cause;
    };

    bool isOpen(const TrackedGroup& group) const {
        return !group.episodes.isEmpty() && !group.episodes.back().endMs;
    }
    // Both true when the episode is the group's latest one.
    bool addGenerations(TrackedGroup& group, int count, int64_t formedAtMs, int64_t storedAtMs);
    bool insertEpisode(TrackedGroup& group, Episode episode);
    void prune(TrackedGroup& group, int64_t nowMs) const;
    lag::RebalanceThresholds thresholdsOf(const QString& group) const;

    const lag::Clock& m_clock;
    Options m_options;
    QHash<QString, TrackedGroup> m_groups;
    QHash<QString, lag::RebalanceThresholds> m_thresholds;
};

} // namespace groupscope::timeline
