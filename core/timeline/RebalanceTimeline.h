#pragma once

#include "timeline/ConsumerGroupHistory.h"
#include "timeline/GroupTimeline.h"

#include <QHash>
#include <QSet>
#include <QStringList>

#include <optional>

namespace groupscope::monitor {
struct GroupSnapshot;
} // namespace groupscope::monitor
namespace groupscope::offsetstopic {
struct ConsumerGroupRecord;
struct GroupMetadata;
} // namespace groupscope::offsetstopic

namespace groupscope::timeline {

// Per group: generations with their members, leader, protocol and partition ownership, and
// the states the group went through, with durations. Two sources:
//
// - GroupMetadata records from `__consumer_offsets` (exact): the coordinator writes one
//   when a generation's assignment is stored and when the group becomes Empty; their
//   currentStateTimestamp says when the generation formed.
// - Polled GroupSnapshots (approximate): a generation is inferred when a Stable or Empty
//   poll shows other members or assignments than before, or follows a rebalance state.
//
// Once a group has exact generations, polls only add state changes, which the records
// cannot show (PreparingRebalance is never written to the topic). Memory is bounded by
// keeping the newest generations and state spans per group.
//
// Consumer-protocol (KIP-848) groups have no GroupMetadata records; their records (key
// types 3-8, see ConsumerGroupHistory) give group epochs (kept as generations), target
// assignments, each member's reconciliation and the ownership of each partition, and every
// state (Assigning and Reconciling included) exactly, so polls add nothing to them.
class RebalanceTimeline {
public:
    struct Options {
        int maxGenerationsPerGroup = 100;
        int maxStateSpansPerGroup = 500;
        ConsumerGroupHistory::Options consumerGroups;
    };

    RebalanceTimeline();
    explicit RebalanceTimeline(Options options);

    void observeGroupMetadata(const offsetstopic::GroupMetadata& metadata);
    void observeConsumerGroupRecord(const offsetstopic::ConsumerGroupRecord& record);
    // Topic names for the topic ids of consumer-group records (topic id -> name), from the
    // cluster's metadata; records of type 4 add their own.
    void addTopicNames(const QHash<QString, QString>& namesById);
    // Topic ids that consumer-group records named and no name is known for.
    QStringList unresolvedTopicIds() const;
    void observeSnapshot(const monitor::GroupSnapshot& snapshot, int64_t takenAtMs);
    // Only the group's state from a poll, never an inferred generation: for monitors that
    // take generations from the offsets topic and would otherwise get an approximate
    // generation ahead of the exact record that is still on its way.
    void observeSnapshotState(const monitor::GroupSnapshot& snapshot, int64_t takenAtMs);

    // The stream's history window holds no record of the group's generation (it formed
    // before the window): stand in for it with what a poll shows, marked as started before
    // `windowStartMs`, so the timeline shows the generation in force at the window's start.
    // Only for a group with no generation yet; a later record of that same generation (its
    // state timestamp before the window) replaces the stand-in with the exact data.
    bool seedGenerationBeforeWindow(const monitor::GroupSnapshot& snapshot, int64_t windowStartMs);

    GroupTimeline timeline(const QString& group) const;
    QStringList groups() const;
    // The member that owned the partition at that time, if the timeline knows.
    QString ownerAt(const QString& group, const kafka::TopicPartition& partition,
                    int64_t timeMs) const;
    void removeGroup(const QString& group) { m_groups.remove(group); }

private:
    struct TrackedGroup {
        GroupTimeline timeline;
        bool hasExactGenerations = false;
        // Polling: a rebalance state was seen since the current generation began.
        bool rebalanceSeenSinceGenerationStart = false;
        // Consumer-protocol groups: what their records say (partitions by topic id).
        std::optional<ConsumerGroupHistory> consumer;
    };

    TrackedGroup& tracked(const QString& group);
    bool followsConsumerRecords(const QString& group) const;
    void enterConsumerState(TrackedGroup& group, kafka::GroupState state, int64_t atMs);
    void startGeneration(TrackedGroup& group, Generation generation);
    void enterState(TrackedGroup& group, kafka::GroupState state, int64_t atMs, bool approximate);
    static bool hasFormedAGeneration(const monitor::GroupSnapshot& snapshot);
    static Generation generationFromPoll(const monitor::GroupSnapshot& snapshot, int64_t startMs);
    void inferGenerationFromPoll(TrackedGroup& group, const monitor::GroupSnapshot& snapshot,
                                 int64_t takenAtMs);

    // The consumer group's timeline with topic names for topic ids.
    GroupTimeline consumerTimeline(const TrackedGroup& group) const;
    kafka::TopicPartition named(const kafka::TopicPartition& byId) const;
    void noteTopicIds(const ConsumerGroupHistory& history);

    Options m_options;
    QHash<QString, TrackedGroup> m_groups;
    QHash<QString, QString> m_topicNames; // topic id -> name
    QSet<QString> m_topicIds;             // every topic id seen in consumer-group records
};

} // namespace groupscope::timeline
