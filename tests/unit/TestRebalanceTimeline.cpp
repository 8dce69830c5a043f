#include "offsetstopic/OffsetsTopicRecord.h"
#include "snapshot/GroupSnapshot.h"
#include "timeline/RebalanceTimeline.h"

#include <QTest>

using namespace groupscope::timeline;
using groupscope::kafka::GroupState;
using groupscope::kafka::TopicPartition;
using groupscope::monitor::GroupSnapshot;
using groupscope::offsetstopic::GroupMetadata;

namespace {

constexpr int64_t start = 1'700'000'000'000;
const QString group = QStringLiteral("payments");
const TopicPartition orders0{QStringLiteral("orders"), 0};
const TopicPartition orders1{QStringLiteral("orders"), 1};

using Assignment = QList<QPair<QString, QList<TopicPartition>>>;

// A stored generation as the coordinator writes it: formed at formedAt (the state
// timestamp), stored (SyncGroup from the leader) at storedAt.
GroupMetadata generationRecord(int32_t generation, const Assignment& members, int64_t formedAt,
                               int64_t storedAt) {
    GroupMetadata metadata;
    metadata.group = group;
    metadata.protocolType = QStringLiteral("consumer");
    metadata.generation = generation;
    metadata.currentStateTimestamp = formedAt;
    metadata.recordTimestamp = storedAt;
    if (!members.isEmpty()) {
        metadata.protocol = QStringLiteral("range");
        metadata.leader = members.first().first;
    }
    for (const auto& [memberId, partitions] : members) {
        groupscope::offsetstopic::GroupMemberMetadata member;
        member.memberId = memberId;
        member.clientId = QStringLiteral("client-") + memberId;
        member.clientHost = QStringLiteral("/10.0.0.1");
        member.assignment = groupscope::offsetstopic::ConsumerAssignment{0, partitions, 0};
        metadata.members.append(member);
    }
    return metadata;
}

GroupSnapshot poll(GroupState state, const Assignment& members) {
    GroupSnapshot snapshot;
    snapshot.description.groupId = group;
    snapshot.description.state = state;
    snapshot.description.protocolType = QStringLiteral("consumer");
    snapshot.description.partitionAssignor =
        members.isEmpty() ? QString() : QStringLiteral("range");
    for (const auto& [memberId, partitions] : members) {
        groupscope::kafka::MemberDescription member;
        member.memberId = memberId;
        member.clientId = QStringLiteral("client-") + memberId;
        // Kafka reports members without assignments while a rebalance is in progress.
        if (state == GroupState::Stable)
            member.assignment = partitions;
        snapshot.description.members.append(member);
    }
    return snapshot;
}

QList<GroupState> statesOf(const GroupTimeline& timeline) {
    QList<GroupState> states;
    for (const StateSpan& span : timeline.states)
        states.append(span.state);
    return states;
}

} // namespace

class TestRebalanceTimeline : public QObject {
    Q_OBJECT
private slots:
    void generationsFromStoredMetadata() {
        RebalanceTimeline timeline;
        timeline.observeGroupMetadata(
            generationRecord(1, {{QStringLiteral("m-1"), {orders0, orders1}}}, start, start + 100));
        timeline.observeGroupMetadata(generationRecord(
            2, {{QStringLiteral("m-1"), {orders0}}, {QStringLiteral("m-2"), {orders1}}},
            start + 60'000, start + 60'250));
        timeline.observeGroupMetadata(generationRecord(3, {}, start + 90'000, start + 90'010));

        const GroupTimeline history = timeline.timeline(group);
        QCOMPARE(history.generations.size(), 3);
        const Generation& first = history.generations[0];
        QCOMPARE(first.generationId, 1);
        QVERIFY(!first.approximate);
        QCOMPARE(first.startMs, start);
        QCOMPARE(first.endMs, std::optional<int64_t>(start + 60'000));
        QCOMPARE(first.protocol, QStringLiteral("range"));
        QCOMPARE(first.leader, QStringLiteral("m-1"));
        QCOMPARE(first.joinedMemberIds, QStringList{QStringLiteral("m-1")});
        QCOMPARE(first.ownerByPartition.value(orders1), QStringLiteral("m-1"));

        const Generation& second = history.generations[1];
        QCOMPARE(second.joinedMemberIds, QStringList{QStringLiteral("m-2")});
        QVERIFY(second.leftMemberIds.isEmpty());
        QCOMPARE(second.members.size(), 2);
        QCOMPARE(second.members[1].clientId, QStringLiteral("client-m-2"));
        QCOMPARE(second.ownerByPartition.value(orders1), QStringLiteral("m-2"));
        QCOMPARE(second.durationMs(0), int64_t(30'000));

        const Generation& third = history.generations[2];
        QCOMPARE(third.leftMemberIds, (QStringList{QStringLiteral("m-1"), QStringLiteral("m-2")}));
        QVERIFY(third.members.isEmpty());
        QVERIFY(!third.endMs.has_value());
        QCOMPARE(third.durationMs(start + 100'000), int64_t(10'000));

        QCOMPARE(statesOf(history),
                 (QList<GroupState>{GroupState::CompletingRebalance, GroupState::Stable,
                                    GroupState::CompletingRebalance, GroupState::Stable,
                                    GroupState::Empty}));
        QCOMPARE(history.states[0].durationMs(0), int64_t(100)); // join done -> stored
        QCOMPARE(history.states[1].durationMs(0), int64_t(59'900));
        QCOMPARE(history.states[3].endMs, std::optional<int64_t>(start + 90'000));
        QVERIFY(!history.states[4].endMs.has_value());
        QVERIFY(!history.states[0].approximate);

        QCOMPARE(timeline.ownerAt(group, orders1, start + 30'000), QStringLiteral("m-1"));
        QCOMPARE(timeline.ownerAt(group, orders1, start + 60'000), QStringLiteral("m-2"));
        QVERIFY(timeline.ownerAt(group, orders1, start + 95'000).isEmpty());
        QVERIFY(timeline.ownerAt(group, orders1, start - 1).isEmpty());
        QCOMPARE(timeline.groups(), QStringList{group});
    }

    // Kafka 4 stores a classic group when it is created, as generation 0 with no members;
    // the timeline's first generation is still the first one that formed.
    void groupCreatedBeforeItsFirstGenerationIsEmptyNotAGeneration() {
        RebalanceTimeline timeline;
        timeline.observeGroupMetadata(generationRecord(0, {}, start, start + 5));
        timeline.observeGroupMetadata(
            generationRecord(1, {{QStringLiteral("m-1"), {orders0}}}, start + 100, start + 150));
        const GroupTimeline history = timeline.timeline(group);
        QCOMPARE(history.generations.size(), 1);
        QCOMPARE(history.generations[0].generationId, 1);
        QCOMPARE(history.generations[0].protocol, QStringLiteral("range"));
        QCOMPARE(history.generations[0].joinedMemberIds, QStringList{QStringLiteral("m-1")});
        QCOMPARE(statesOf(history).first(), GroupState::Empty);
        QCOMPARE(history.states.first().startMs, start);
    }

    void sameGenerationStoredAgainIsUpdatedInPlace() {
        RebalanceTimeline timeline;
        timeline.observeGroupMetadata(
            generationRecord(4, {{QStringLiteral("m-1"), {orders0}}}, start, start + 50));
        // A member rejoined with a new member id without a rebalance.
        timeline.observeGroupMetadata(
            generationRecord(4, {{QStringLiteral("m-1b"), {orders0}}}, start + 500, start + 9000));
        const GroupTimeline history = timeline.timeline(group);
        QCOMPARE(history.generations.size(), 1);
        QCOMPARE(history.generations[0].startMs, start);
        QCOMPARE(history.generations[0].ownerByPartition.value(orders0), QStringLiteral("m-1b"));
        QCOMPARE(history.generations[0].joinedMemberIds, QStringList{QStringLiteral("m-1b")});
        QVERIFY(history.generations[0].replacedMembers.isEmpty()); // no instance id: unknown
        QCOMPARE(history.states.size(), 2);
    }

    // A static member (group.instance.id) restarting within its session timeout comes back
    // under a new member id: the same member replaced, not one leaving and one joining, and
    // its partitions keep their owner, whether the coordinator stores the generation again
    // or forms a new one.
    void staticMemberRestartIsAReplacementNotLeaveAndJoin() {
        RebalanceTimeline timeline;
        const auto withInstances = [](GroupMetadata metadata) {
            for (groupscope::offsetstopic::GroupMemberMetadata& member : metadata.members)
                if (member.memberId.startsWith(QStringLiteral("s-")))
                    member.groupInstanceId = QStringLiteral("static-1");
            return metadata;
        };
        timeline.observeGroupMetadata(withInstances(
            generationRecord(3, {{QStringLiteral("s-1"), {orders0, orders1}}}, start, start + 50)));
        timeline.observeGroupMetadata(withInstances(generationRecord(
            4, {{QStringLiteral("m-2"), {orders1}}, {QStringLiteral("s-1"), {orders0}}},
            start + 1000, start + 1050)));
        // Restarted: stored again in the same generation with a new member id.
        timeline.observeGroupMetadata(withInstances(generationRecord(
            4, {{QStringLiteral("m-2"), {orders1}}, {QStringLiteral("s-1b"), {orders0}}},
            start + 1000, start + 9000)));
        GroupTimeline history = timeline.timeline(group);
        QCOMPARE(history.generations.size(), 2);
        Generation fourth = history.generations[1];
        QCOMPARE(fourth.joinedMemberIds, QStringList{QStringLiteral("m-2")});
        QVERIFY(fourth.leftMemberIds.isEmpty());
        QCOMPARE(fourth.replacedMembers,
                 (QList<MemberReplacement>{{QStringLiteral("static-1"), QStringLiteral("s-1"),
                                            QStringLiteral("s-1b"), start + 9000}}));
        QCOMPARE(fourth.ownerByPartition.value(orders0), QStringLiteral("s-1b"));
        QVERIFY(!ownerChanged(history.generations[0], fourth, orders0));
        QVERIFY(ownerChanged(history.generations[0], fourth, orders1));

        // Restarted again, this time with a rebalance (a new generation).
        timeline.observeGroupMetadata(withInstances(generationRecord(
            5, {{QStringLiteral("m-2"), {orders1}}, {QStringLiteral("s-1c"), {orders0}}},
            start + 20'000, start + 20'100)));
        history = timeline.timeline(group);
        QCOMPARE(history.generations.size(), 3);
        const Generation& fifth = history.generations[2];
        QVERIFY(fifth.joinedMemberIds.isEmpty());
        QVERIFY(fifth.leftMemberIds.isEmpty());
        QCOMPARE(fifth.replacedMembers,
                 (QList<MemberReplacement>{{QStringLiteral("static-1"), QStringLiteral("s-1b"),
                                            QStringLiteral("s-1c"), start + 20'000}}));
        QVERIFY(!ownerChanged(history.generations[1], fifth, orders0));
        QVERIFY(!ownerChanged(history.generations[1], fifth, orders1));
    }

    void generationInForceAtTheWindowStartIsSeeded() {
        RebalanceTimeline timeline;
        const Assignment pair{{QStringLiteral("m-1"), {orders0}},
                              {QStringLiteral("m-2"), {orders1}}};
        QVERIFY(timeline.seedGenerationBeforeWindow(poll(GroupState::Stable, pair), start));
        QVERIFY(!timeline.seedGenerationBeforeWindow(poll(GroupState::Stable, pair), start));
        GroupTimeline history = timeline.timeline(group);
        QCOMPARE(history.generations.size(), 1);
        QVERIFY(history.generations[0].startedBeforeWindow);
        QVERIFY(history.generations[0].approximate);
        QCOMPARE(history.generations[0].startMs, start);
        QCOMPARE(history.generations[0].ownerByPartition.value(orders1), QStringLiteral("m-2"));
        QCOMPARE(statesOf(history), QList<GroupState>{GroupState::Stable});
        QCOMPARE(timeline.ownerAt(group, orders0, start + 1), QStringLiteral("m-1"));

        // Not during a rebalance (membership in flux), nor for an offsets-only group.
        RebalanceTimeline other;
        QVERIFY(
            !other.seedGenerationBeforeWindow(poll(GroupState::PreparingRebalance, pair), start));
        GroupSnapshot offsetsOnly = poll(GroupState::Empty, {});
        offsetsOnly.description.protocolType.clear();
        QVERIFY(!other.seedGenerationBeforeWindow(offsetsOnly, start));
        QVERIFY(other.timeline(group).generations.isEmpty());
    }

    // A group that formed just as the monitor went live: the poll saw it before its record
    // came through the stream. The record has the stand-in's members, so it is the same
    // generation, with its true start; a record with other members is a new generation.
    void standInForAGroupFormedAsTheWindowOpenedBecomesExact() {
        const Assignment pair{{QStringLiteral("m-1"), {orders0}},
                              {QStringLiteral("m-2"), {orders1}}};
        RebalanceTimeline timeline;
        QVERIFY(timeline.seedGenerationBeforeWindow(poll(GroupState::Stable, pair), start));
        timeline.observeGroupMetadata(generationRecord(1, pair, start + 5000, start + 5001));
        GroupTimeline history = timeline.timeline(group);
        QCOMPARE(history.generations.size(), 1);
        QCOMPARE(history.generations[0].generationId, 1);
        QVERIFY(!history.generations[0].startedBeforeWindow);
        QCOMPARE(history.generations[0].startMs, start + 5000);
        QCOMPARE(history.generations[0].joinedMemberIds,
                 (QStringList{QStringLiteral("m-1"), QStringLiteral("m-2")}));

        RebalanceTimeline rebalanced;
        QVERIFY(rebalanced.seedGenerationBeforeWindow(poll(GroupState::Stable, pair), start));
        const Assignment other{{QStringLiteral("m-1"), {orders0}},
                               {QStringLiteral("m-3"), {orders1}}};
        rebalanced.observeGroupMetadata(generationRecord(7, other, start + 5000, start + 5001));
        history = rebalanced.timeline(group);
        QCOMPARE(history.generations.size(), 2);
        QVERIFY(history.generations[0].startedBeforeWindow);
        QCOMPARE(history.generations[1].generationId, 7);
    }

    void tombstoneEndsTheGroup() {
        RebalanceTimeline timeline;
        timeline.observeGroupMetadata(generationRecord(2, {}, start, start + 10));
        GroupMetadata tombstone;
        tombstone.group = group;
        tombstone.isTombstone = true;
        tombstone.recordTimestamp = start + 5000;
        timeline.observeGroupMetadata(tombstone);
        const GroupTimeline history = timeline.timeline(group);
        QVERIFY(history.deleted);
        QCOMPARE(history.generations.last().endMs, std::optional<int64_t>(start + 5000));
        QCOMPARE(history.states.last().state, GroupState::Dead);
        QCOMPARE(history.states.first().endMs, std::optional<int64_t>(start + 5000));

        // Recreated later: generations start again.
        timeline.observeGroupMetadata(
            generationRecord(1, {{QStringLiteral("m-9"), {orders0}}}, start + 9000, start + 9100));
        QVERIFY(!timeline.timeline(group).deleted);
        QCOMPARE(timeline.timeline(group).generations.last().generationId, 1);
    }

    void memoryIsBounded() {
        RebalanceTimeline::Options options;
        options.maxGenerationsPerGroup = 3;
        options.maxStateSpansPerGroup = 4;
        RebalanceTimeline timeline(options);
        for (int generation = 1; generation <= 10; ++generation)
            timeline.observeGroupMetadata(
                generationRecord(generation, {{QStringLiteral("m-%1").arg(generation), {orders0}}},
                                 start + 1000 * generation, start + 1000 * generation + 10));
        const GroupTimeline history = timeline.timeline(group);
        QCOMPARE(history.generations.size(), 3);
        QCOMPARE(history.droppedGenerations, 7);
        QCOMPARE(history.generations.first().generationId, 8);
        QCOMPARE(history.states.size(), 4);
        QCOMPARE(history.droppedStates, 20 - 4);
        QCOMPARE(history.generations.last().leftMemberIds, QStringList{QStringLiteral("m-9")});
    }

    void pollingInfersApproximateGenerations() {
        RebalanceTimeline timeline;
        const Assignment alone{{QStringLiteral("m-1"), {orders0, orders1}}};
        const Assignment pair{{QStringLiteral("m-1"), {orders0}},
                              {QStringLiteral("m-2"), {orders1}}};
        timeline.observeSnapshot(poll(GroupState::Stable, alone), start);
        timeline.observeSnapshot(poll(GroupState::Stable, alone), start + 2000);
        timeline.observeSnapshot(poll(GroupState::PreparingRebalance, pair), start + 4000);
        timeline.observeSnapshot(poll(GroupState::CompletingRebalance, pair), start + 6000);
        timeline.observeSnapshot(poll(GroupState::Stable, pair), start + 8000);
        timeline.observeSnapshot(poll(GroupState::Stable, pair), start + 10'000);

        GroupTimeline history = timeline.timeline(group);
        QCOMPARE(history.generations.size(), 2);
        QVERIFY(history.generations[0].approximate);
        QCOMPARE(history.generations[0].generationId, -1);
        QCOMPARE(history.generations[0].endMs, std::optional<int64_t>(start + 8000));
        QCOMPARE(history.generations[1].startMs, start + 8000);
        QCOMPARE(history.generations[1].joinedMemberIds, QStringList{QStringLiteral("m-2")});
        QCOMPARE(history.generations[1].ownerByPartition.value(orders1), QStringLiteral("m-2"));
        QCOMPARE(history.generations[1].protocol, QStringLiteral("range"));
        QCOMPARE(statesOf(history),
                 (QList<GroupState>{GroupState::Stable, GroupState::PreparingRebalance,
                                    GroupState::CompletingRebalance, GroupState::Stable}));
        QCOMPARE(history.states[1].durationMs(0), int64_t(2000));
        QVERIFY(history.states[1].approximate);

        // A rebalance that ends with the same members and assignment is still a new
        // generation in Kafka.
        timeline.observeSnapshot(poll(GroupState::PreparingRebalance, pair), start + 12'000);
        timeline.observeSnapshot(poll(GroupState::Stable, pair), start + 14'000);
        history = timeline.timeline(group);
        QCOMPARE(history.generations.size(), 3);
        QVERIFY(history.generations[2].joinedMemberIds.isEmpty());

        timeline.observeSnapshot(poll(GroupState::Empty, {}), start + 16'000);
        history = timeline.timeline(group);
        QCOMPARE(history.generations.size(), 4);
        QCOMPARE(history.generations[3].leftMemberIds,
                 (QStringList{QStringLiteral("m-1"), QStringLiteral("m-2")}));
        QCOMPARE(history.states.last().state, GroupState::Empty);
    }

    void pollOfAGroupCreatedByItsFirstJoinIsNotAGeneration() {
        RebalanceTimeline timeline;
        // The first member's JoinGroup creates the group Empty, with no protocol type yet.
        GroupSnapshot created = poll(GroupState::Empty, {});
        created.description.protocolType.clear();
        timeline.observeSnapshot(created, start);
        QVERIFY(timeline.timeline(group).generations.isEmpty());
        timeline.observeSnapshot(poll(GroupState::Stable, {{QStringLiteral("m-1"), {orders0}}}),
                                 start + 2000);
        const GroupTimeline history = timeline.timeline(group);
        QCOMPARE(history.generations.size(), 1);
        QCOMPARE(history.generations[0].joinedMemberIds, QStringList{QStringLiteral("m-1")});
        QCOMPARE(statesOf(history), (QList<GroupState>{GroupState::Empty, GroupState::Stable}));
    }

    void pollsOnlyAddStatesOnceRecordsAreStreamed() {
        RebalanceTimeline timeline;
        timeline.observeGroupMetadata(
            generationRecord(5, {{QStringLiteral("m-1"), {orders0}}}, start, start + 100));
        timeline.observeSnapshot(
            poll(GroupState::PreparingRebalance, {{QStringLiteral("m-1"), {}}}), start + 5000);
        timeline.observeSnapshot(poll(GroupState::Stable, {{QStringLiteral("m-2"), {orders0}}}),
                                 start + 7000);
        const GroupTimeline history = timeline.timeline(group);
        QCOMPARE(history.generations.size(), 1);
        QVERIFY(!history.generations[0].approximate);
        QCOMPARE(statesOf(history),
                 (QList<GroupState>{GroupState::CompletingRebalance, GroupState::Stable,
                                    GroupState::PreparingRebalance, GroupState::Stable}));
        QVERIFY(history.states[2].approximate);
    }

    void failedPollsAreIgnoredAndVanishedGroupsEnd() {
        RebalanceTimeline timeline;
        timeline.observeSnapshot(poll(GroupState::Stable, {{QStringLiteral("m-1"), {orders0}}}),
                                 start);
        GroupSnapshot failed = poll(GroupState::Unknown, {});
        failed.error = groupscope::kafka::KafkaError::timeout(QStringLiteral("no answer"));
        timeline.observeSnapshot(failed, start + 2000);
        QCOMPARE(timeline.timeline(group).states.size(), 1);

        timeline.observeSnapshot(poll(GroupState::Dead, {}), start + 4000);
        const GroupTimeline history = timeline.timeline(group);
        QCOMPARE(history.states.last().state, GroupState::Dead);
        QCOMPARE(history.generations.last().endMs, std::optional<int64_t>(start + 4000));
    }

    void unknownGroupHasAnEmptyTimeline() {
        RebalanceTimeline timeline;
        const GroupTimeline history = timeline.timeline(QStringLiteral("nobody"));
        QCOMPARE(history.group, QStringLiteral("nobody"));
        QVERIFY(history.generations.isEmpty());
        QVERIFY(timeline.groups().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestRebalanceTimeline)
#include "TestRebalanceTimeline.moc"
