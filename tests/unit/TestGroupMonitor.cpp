// GroupMonitor's combination of polls and offsets-topic records, with synthetic inputs and
// a ManualClock: which source feeds the timeline, the health window and the rates, and when
// the timeline is approximate. Needs no broker (it lives here with the monitor's other
// tests; it belongs with the unit suite once that folder is open to this work).
#include "monitor/GroupInspector.h"
#include "monitor/GroupMonitor.h"

#include <QTest>

using namespace groupscope;
using kafka::GroupState;
using kafka::TopicPartition;
using monitor::GroupMonitor;
using monitor::GroupSnapshot;

namespace {

const QString group = QStringLiteral("billing");
const TopicPartition orders0{QStringLiteral("orders"), 0};
const TopicPartition orders1{QStringLiteral("orders"), 1};

struct Row {
    TopicPartition partition;
    std::optional<int64_t> committed;
    int64_t logEnd = 0;
};

kafka::MemberDescription member(const QString& id, QList<TopicPartition> assignment) {
    kafka::MemberDescription described;
    described.memberId = id;
    described.clientId = id + QStringLiteral("-client");
    described.host = QStringLiteral("/127.0.0.1");
    described.assignment = std::move(assignment);
    return described;
}

GroupSnapshot poll(GroupState state, QList<kafka::MemberDescription> members,
                   const QList<Row>& rows) {
    kafka::GroupDescription description;
    description.groupId = group;
    description.state = state;
    description.protocolType = QStringLiteral("consumer");
    description.partitionAssignor = members.isEmpty() ? QString() : QStringLiteral("range");
    description.members = std::move(members);
    QList<kafka::CommittedOffset> committed;
    QHash<TopicPartition, kafka::LogOffsets> logOffsets;
    for (const Row& row : rows) {
        if (row.committed)
            committed.append({row.partition, *row.committed, {}});
        logOffsets.insert(row.partition, {row.partition, 0, row.logEnd, {}});
    }
    return monitor::assembleGroupSnapshot(description, committed, logOffsets);
}

offsetstopic::GroupMetadata generationRecord(int32_t generation, const QStringList& memberIds,
                                             int64_t formedMs, int64_t storedMs) {
    offsetstopic::GroupMetadata metadata;
    metadata.group = group;
    metadata.protocolType = QStringLiteral("consumer");
    metadata.generation = generation;
    metadata.protocol = QStringLiteral("range");
    metadata.leader = memberIds.value(0);
    metadata.currentStateTimestamp = formedMs;
    metadata.recordTimestamp = storedMs;
    for (qsizetype i = 0; i < memberIds.size(); ++i) {
        offsetstopic::GroupMemberMetadata memberMetadata;
        memberMetadata.memberId = memberIds[i];
        memberMetadata.clientId = memberIds[i] + QStringLiteral("-client");
        offsetstopic::ConsumerAssignment assignment;
        for (int partition = int(i); partition < 2; partition += int(memberIds.size()))
            assignment.partitions.append({QStringLiteral("orders"), partition});
        memberMetadata.assignment = assignment;
        metadata.members.append(memberMetadata);
    }
    return metadata;
}

offsetstopic::OffsetCommit commitRecord(const TopicPartition& partition, int64_t offset,
                                        int64_t timeMs) {
    offsetstopic::OffsetCommit commit;
    commit.group = group;
    commit.topicPartition = partition;
    commit.offset = offset;
    commit.commitTimestamp = timeMs;
    commit.recordTimestamp = timeMs;
    commit.valueVersion = 3;
    return commit;
}

// Production 30 msg/s sampled by a poll every 2 s; the consumer commits every second (read
// from the offsets topic, half a second after each poll), `consumedPerSecond` further each
// time, starting caught up. Returns the group's verdict after 40 s.
lag::GroupStatus driveProducerAndConsumer(int consumedPerSecond) {
    lag::ManualClock clock;
    GroupMonitor monitor(clock);
    monitor.setStreamState(GroupMonitor::StreamState::Live);
    const int64_t t0 = clock.nowMs();
    const auto logEndAt = [&](int64_t ms) { return 1000 + 30 * (ms - t0) / 1000; };
    int64_t committed = 1000;
    for (int64_t ms = 0; ms <= 40'000; ms += 500) {
        clock.setNowMs(t0 + ms);
        if (ms % 2000 == 0)
            monitor.observePoll(poll(GroupState::Stable, {member(QStringLiteral("m1"), {orders0})},
                                     {{orders0, committed, logEndAt(clock.nowMs())}}),
                                clock.nowMs());
        else if (ms % 1000 == 500) {
            // A consumer keeping up commits what was the log end when it committed.
            committed =
                consumedPerSecond >= 30 ? logEndAt(clock.nowMs()) : committed + consumedPerSecond;
            monitor.observeRecord(commitRecord(orders0, committed, clock.nowMs()));
        }
    }
    return monitor.snapshot(group).health.status;
}

} // namespace

class TestGroupMonitor : public QObject {
    Q_OBJECT

private slots:
    void pollingOnlyInfersApproximateGenerations() {
        lag::ManualClock clock;
        GroupMonitor monitor(clock);
        monitor.setStreamState(GroupMonitor::StreamState::Unavailable,
                               QStringLiteral("TOPIC_AUTHORIZATION_FAILED"));
        monitor.observePoll(poll(GroupState::Stable,
                                 {member(QStringLiteral("m1"), {orders0, orders1})},
                                 {{orders0, 5, 10}, {orders1, 7, 10}}),
                            clock.nowMs());
        clock.advance(std::chrono::seconds(2));
        monitor.observePoll(
            poll(GroupState::Stable,
                 {member(QStringLiteral("m1"), {orders0}), member(QStringLiteral("m2"), {orders1})},
                 {{orders0, 5, 10}, {orders1, 7, 10}}),
            clock.nowMs());
        const auto snapshot = monitor.snapshot(group);
        QVERIFY(snapshot.timelineApproximate());
        QCOMPARE(snapshot.timelineNote, QStringLiteral("TOPIC_AUTHORIZATION_FAILED"));
        QCOMPARE(snapshot.timeline.generations.size(), 2);
        QVERIFY(snapshot.timeline.generations[1].approximate);
        QCOMPARE(snapshot.timeline.generations[1].joinedMemberIds,
                 QStringList{QStringLiteral("m2")});
        QCOMPARE(snapshot.totalLag, 5 + 3);
        QCOMPARE(snapshot.memberCount, 2);
    }

    void streamGivesExactGenerationsAndPollsOnlyStates() {
        lag::ManualClock clock;
        GroupMonitor monitor(clock);
        monitor.setStreamState(GroupMonitor::StreamState::Live);
        const int64_t t0 = clock.nowMs();
        monitor.observeRecord(generationRecord(4, {QStringLiteral("m1")}, t0 - 100, t0));
        // A poll already shows the next membership while its record is still on its way:
        // no approximate generation may slip in ahead of it.
        clock.advance(std::chrono::seconds(1));
        monitor.observePoll(
            poll(GroupState::Stable,
                 {member(QStringLiteral("m1"), {orders0}), member(QStringLiteral("m2"), {orders1})},
                 {{orders0, 1, 10}, {orders1, 1, 10}}),
            clock.nowMs());
        monitor.observeRecord(generationRecord(5, {QStringLiteral("m1"), QStringLiteral("m2")},
                                               clock.nowMs() - 200, clock.nowMs() - 100));
        const auto snapshot = monitor.snapshot(group);
        QVERIFY(!snapshot.timelineApproximate());
        QCOMPARE(snapshot.timeline.generations.size(), 2);
        QCOMPARE(snapshot.timeline.generations[0].generationId, 4);
        QCOMPARE(snapshot.timeline.generations[1].generationId, 5);
        QVERIFY(!snapshot.timeline.generations[1].approximate);
        QCOMPARE(snapshot.timeline.generations[1].ownerByPartition.value(orders1),
                 QStringLiteral("m2"));
        QVERIFY(!snapshot.timeline.states.isEmpty());
    }

    void pollsDuringReplayLeaveTheTimelineAlone() {
        lag::ManualClock clock;
        GroupMonitor monitor(clock);
        monitor.setStreamState(GroupMonitor::StreamState::Replaying);
        monitor.observePoll(
            poll(GroupState::Stable, {member(QStringLiteral("m9"), {orders0})}, {{orders0, 1, 2}}),
            clock.nowMs());
        QVERIFY(monitor.snapshot(group).timeline.generations.isEmpty());
        QVERIFY(monitor.snapshot(group).timeline.states.isEmpty());
        QVERIFY(!monitor.snapshot(group).timelineApproximate());
        QCOMPARE(monitor.snapshot(group).totalLag, 1); // lag is polled all the same
    }

    void inferredTimelineGivesWayWhenTheTopicBecomesReadable() {
        lag::ManualClock clock;
        GroupMonitor monitor(clock);
        monitor.setStreamState(GroupMonitor::StreamState::Unavailable,
                               QStringLiteral("no offsets topic yet"));
        monitor.observePoll(
            poll(GroupState::Stable, {member(QStringLiteral("m1"), {orders0})}, {{orders0, 1, 2}}),
            clock.nowMs());
        QCOMPARE(monitor.snapshot(group).timeline.generations.size(), 1);
        monitor.setStreamState(GroupMonitor::StreamState::Replaying);
        monitor.observeRecord(
            generationRecord(1, {QStringLiteral("m1")}, clock.nowMs() - 20, clock.nowMs() - 10));
        const auto snapshot = monitor.snapshot(group);
        QVERIFY(!snapshot.timelineApproximate());
        QCOMPARE(snapshot.timeline.generations.size(), 1);
        QCOMPARE(snapshot.timeline.generations.first().generationId, 1);
        QVERIFY(!snapshot.timeline.generations.first().approximate);
    }

    void pollsWhileTheStreamOpensAddNoCommits() {
        lag::ManualClock clock;
        GroupMonitor monitor(clock); // Pending until told otherwise
        monitor.observePoll(
            poll(GroupState::Stable, {member(QStringLiteral("m1"), {orders0})}, {{orders0, 7, 10}}),
            clock.nowMs());
        QVERIFY(monitor.snapshot(group).commits.isEmpty());
        monitor.setStreamState(GroupMonitor::StreamState::Replaying);
        monitor.observeRecord(commitRecord(orders0, 7, clock.nowMs() - 500));
        const auto snapshot = monitor.snapshot(group);
        QCOMPARE(snapshot.commits.size(), 1); // once, from the stream
        QCOMPARE(snapshot.commits.first().commitTimestampMs, clock.nowMs() - 500);
        QCOMPARE(snapshot.health.partitions.size(), 1); // its lag: against the polled log end
        QCOMPARE(snapshot.health.partitions.first().end->lag, int64_t(3));
    }

    void streamCommitsFeedHealthOnceALogEndIsKnown() {
        lag::ManualClock clock;
        GroupMonitor monitor(clock);
        monitor.setStreamState(GroupMonitor::StreamState::Live);
        // The same offset committed over and over while the log end is ahead: STALL.
        for (int i = 0; i < 10; ++i) {
            monitor.observeRecord(commitRecord(orders0, 50, clock.nowMs()));
            clock.advance(std::chrono::seconds(1));
        }
        QCOMPARE(monitor.snapshot(group).commits.size(), 10);
        // Before any poll, no log end: the commits wait and health knows nothing yet.
        QCOMPARE(monitor.snapshot(group).health.partitions.size(), 0);
        clock.advance(std::chrono::milliseconds(-1000)); // "now" is the last commit's time
        monitor.observePoll(poll(GroupState::Stable, {member(QStringLiteral("m1"), {orders0})},
                                 {{orders0, 50, 100}}),
                            clock.nowMs());
        const auto snapshot = monitor.snapshot(group);
        QCOMPARE(snapshot.health.partitions.size(), 1);
        QCOMPARE(snapshot.health.partitions.first().status, lag::PartitionStatus::Stall);
        QCOMPARE(snapshot.health.status, lag::GroupStatus::Error);
    }

    // Commits are known up to the last poll: a refresh that takes long after it (a watched
    // group's lag rebuild, a slow broker) is no silence of the group's.
    void healthIsJudgedAtTheLastPoll() {
        lag::ManualClock clock;
        GroupMonitor monitor(clock);
        monitor.setStreamState(GroupMonitor::StreamState::Live);
        for (int i = 0; i < 3; ++i) {
            monitor.observeRecord(commitRecord(orders0, 50, clock.nowMs()));
            clock.advance(std::chrono::seconds(2));
        }
        monitor.observePoll(poll(GroupState::Stable, {member(QStringLiteral("m1"), {orders0})},
                                 {{orders0, 50, 100}}),
                            clock.nowMs());
        QCOMPARE(monitor.snapshot(group).health.partitions.first().status,
                 lag::PartitionStatus::Stall);
        clock.advance(std::chrono::seconds(30)); // no poll meanwhile
        QCOMPARE(monitor.snapshot(group).health.partitions.first().status,
                 lag::PartitionStatus::Stall);
        // The next poll finds no newer commit: now the silence is the group's.
        monitor.observePoll(poll(GroupState::Stable, {member(QStringLiteral("m1"), {orders0})},
                                 {{orders0, 50, 100}}),
                            clock.nowMs());
        QCOMPARE(monitor.snapshot(group).health.partitions.first().status,
                 lag::PartitionStatus::Stop);
    }

    void pollingOnlyHealthAndCommitHistoryComeFromPolls() {
        lag::ManualClock clock;
        GroupMonitor monitor(clock);
        monitor.setStreamState(GroupMonitor::StreamState::Unavailable, QStringLiteral("off"));
        // Production 100/s, consumption 50/s: lag grows, nothing drains.
        for (int i = 0; i <= 10; ++i) {
            monitor.observePoll(poll(GroupState::Stable, {member(QStringLiteral("m1"), {orders0})},
                                     {{orders0, 50 * i, 100 * i}}),
                                clock.nowMs());
            clock.advance(std::chrono::seconds(1));
        }
        clock.advance(std::chrono::milliseconds(-1000));
        const auto snapshot = monitor.snapshot(group);
        QVERIFY(snapshot.productionRate && qAbs(*snapshot.productionRate - 100.0) < 0.01);
        QVERIFY(snapshot.consumptionRate && qAbs(*snapshot.consumptionRate - 50.0) < 0.01);
        QCOMPARE(snapshot.drain.status, lag::DrainEstimate::Status::NotDraining);
        QCOMPARE(snapshot.totalLag, 500);
        // Committed offset 500 was the log end 5 s ago.
        QCOMPARE(snapshot.maxTimeLag.status, lag::TimeLag::Status::Estimated);
        QVERIFY(qAbs(snapshot.maxTimeLag.seconds - 5.0) < 0.01);
        QCOMPARE(snapshot.commits.size(), 11); // every change of the committed offset
        QCOMPARE(snapshot.health.partitions.size(), 1);
        QCOMPARE(snapshot.health.partitions.first().status, lag::PartitionStatus::Warning);
    }

    // Log end sampled every 2 s rising 30/s; commits every 1 s (offsets topic). A commit's
    // lag is measured against the log end at its own time: measured against the newest
    // poll, commits within one poll interval looked like lag going down and WARN never came.
    void streamCommitsOfAGroupFallingBehindGiveWarn() {
        QCOMPARE(driveProducerAndConsumer(6), lag::GroupStatus::Warning);
    }

    void streamCommitsOfAGroupKeepingUpStayOk() {
        QCOMPARE(driveProducerAndConsumer(30), lag::GroupStatus::Ok);
    }

    // The stream's window holds no record of the group's generation (it formed earlier):
    // the first live poll stands in for it, marked as started before the window, and the
    // exact record of that generation, or the next one, takes over from it.
    void generationFormedBeforeTheWindowIsSeededFromAPoll() {
        lag::ManualClock clock;
        GroupMonitor::Options options;
        options.lagBackfillWindowMs = 10'000;
        GroupMonitor monitor(clock, options);
        const int64_t windowStart = clock.nowMs() - 10'000;
        monitor.setStreamState(GroupMonitor::StreamState::Replaying);
        monitor.setStreamState(GroupMonitor::StreamState::Live);
        clock.advance(std::chrono::seconds(1));
        const auto pair = QList<kafka::MemberDescription>{member(QStringLiteral("m1"), {orders0}),
                                                          member(QStringLiteral("m2"), {orders1})};
        monitor.observePoll(poll(GroupState::Stable, pair, {{orders0, 1, 10}, {orders1, 1, 10}}),
                            clock.nowMs());
        auto generations = monitor.snapshot(group).timeline.generations;
        QCOMPARE(generations.size(), 1);
        QVERIFY(generations[0].startedBeforeWindow);
        QCOMPARE(generations[0].startMs, windowStart);
        QVERIFY(!generations[0].endMs);
        QCOMPARE(generations[0].members.size(), 2);
        QCOMPARE(generations[0].ownerByPartition.value(orders1), QStringLiteral("m2"));
        QVERIFY(generations[0].joinedMemberIds.isEmpty());
        QCOMPARE(monitor.snapshot(group).timeline.states.first().startMs, windowStart);

        // A later poll adds nothing; the next generation's record ends the stand-in.
        clock.advance(std::chrono::seconds(2));
        monitor.observePoll(poll(GroupState::Stable, pair, {{orders0, 1, 10}, {orders1, 1, 10}}),
                            clock.nowMs());
        QCOMPARE(monitor.snapshot(group).timeline.generations.size(), 1);
        monitor.observeRecord(
            generationRecord(5, {QStringLiteral("m1")}, clock.nowMs() - 50, clock.nowMs()));
        generations = monitor.snapshot(group).timeline.generations;
        QCOMPARE(generations.size(), 2);
        QCOMPARE(generations[0].endMs, std::optional<int64_t>(clock.nowMs() - 50));
        QCOMPARE(generations[1].generationId, 5);
        QCOMPARE(generations[1].leftMemberIds, QStringList{QStringLiteral("m2")});
        QVERIFY(generations[1].joinedMemberIds.isEmpty());
    }

    void seededGenerationBecomesExactWhenItsRecordArrives() {
        lag::ManualClock clock;
        GroupMonitor::Options options;
        options.lagBackfillWindowMs = 10'000;
        GroupMonitor monitor(clock, options);
        monitor.setStreamState(GroupMonitor::StreamState::Live);
        monitor.observePoll(poll(GroupState::Stable,
                                 {member(QStringLiteral("m1"), {orders0, orders1})},
                                 {{orders0, 1, 10}, {orders1, 1, 10}}),
                            clock.nowMs());
        // Stored again (e.g. a static member replaced): its state timestamp is older.
        monitor.observeRecord(
            generationRecord(4, {QStringLiteral("m1")}, clock.nowMs() - 60'000, clock.nowMs()));
        const auto generations = monitor.snapshot(group).timeline.generations;
        QCOMPARE(generations.size(), 1);
        QCOMPARE(generations[0].generationId, 4);
        QVERIFY(!generations[0].startedBeforeWindow);
        QCOMPARE(generations[0].startMs, clock.nowMs() - 60'000);
    }

    void offsetsOnlyGroupGetsNoSeededGeneration() {
        lag::ManualClock clock;
        GroupMonitor monitor(clock);
        monitor.setStreamState(GroupMonitor::StreamState::Live);
        GroupSnapshot offsetsOnly = poll(GroupState::Empty, {}, {{orders0, 1, 10}});
        offsetsOnly.description.protocolType.clear();
        monitor.observePoll(offsetsOnly, clock.nowMs());
        QVERIFY(monitor.snapshot(group).timeline.generations.isEmpty());
    }

    // Memory follows the live groups: a partition gone from its group's polls, or a group
    // absent (Dead, or not listed by a cluster-wide poll) for evictAfterAbsentPolls polls
    // in a row is forgotten with its history; one poll that sees it again resets the count.
    void vanishedPartitionsAndGroupsAreEvicted() {
        lag::ManualClock clock;
        GroupMonitor monitor(clock);
        monitor.setStreamState(GroupMonitor::StreamState::Unavailable, QStringLiteral("off"));
        const int polls = GroupMonitor::Options().evictAfterAbsentPolls;
        const auto pollWith = [&](GroupSnapshot snapshot) {
            clock.advance(std::chrono::seconds(2));
            monitor.observePoll(snapshot, clock.nowMs());
        };
        const auto m1 = QList<kafka::MemberDescription>{member(QStringLiteral("m1"), {orders0})};
        pollWith(poll(GroupState::Stable, m1, {{orders0, 1, 10}, {orders1, 1, 10}}));
        QCOMPARE(monitor.footprint().logEndTables, 2);
        QCOMPARE(monitor.footprint().consumptionRates, 2);
        QCOMPARE(monitor.footprint().lagSeries, 2 + 1 + 1);

        // orders-1 vanishes (say its topic was deleted); one poll showing it resets the count.
        for (int i = 0; i < polls - 1; ++i)
            pollWith(poll(GroupState::Stable, m1, {{orders0, 2, 10}}));
        pollWith(poll(GroupState::Stable, m1, {{orders0, 2, 10}, {orders1, 2, 10}}));
        for (int i = 0; i < polls - 1; ++i)
            pollWith(poll(GroupState::Stable, m1, {{orders0, 3, 10}}));
        QCOMPARE(monitor.footprint().logEndTables, 2);
        pollWith(poll(GroupState::Stable, m1, {{orders0, 3, 10}}));
        QCOMPARE(monitor.footprint().logEndTables, 1);
        QCOMPARE(monitor.footprint().consumptionRates, 1);
        QCOMPARE(monitor.footprint().lagSeries, 1 + 1 + 1);
        QCOMPARE(monitor.snapshot(group).health.partitions.size(), 1);

        // The group is deleted: Dead for `polls` polls in a row, then forgotten entirely.
        for (int i = 0; i < polls - 1; ++i)
            pollWith(poll(GroupState::Dead, {}, {}));
        QCOMPARE(monitor.groups(), QStringList{group});
        pollWith(poll(GroupState::Dead, {}, {}));
        QVERIFY(monitor.groups().isEmpty());
        const GroupMonitor::Footprint empty = monitor.footprint();
        QCOMPARE(empty.groups, 0);
        QCOMPARE(empty.timelineGroups, 0);
        QCOMPARE(empty.lagSeries, 0);
        QCOMPARE(empty.logEndTables, 0);
        QCOMPARE(empty.consumptionRates, 0);
        QCOMPARE(empty.healthGroups, 0);
    }

    void groupsMissingFromClusterPollsAreEvicted() {
        lag::ManualClock clock;
        GroupMonitor monitor(clock);
        monitor.setStreamState(GroupMonitor::StreamState::Unavailable, QStringLiteral("off"));
        const int polls = GroupMonitor::Options().evictAfterAbsentPolls;
        monitor.observePoll(poll(GroupState::Empty, {}, {{orders0, 1, 10}}), clock.nowMs());
        for (int i = 0; i < polls - 1; ++i)
            monitor.observeGroupsAbsentFrom({});
        // Listed again: the count starts over.
        monitor.observePoll(poll(GroupState::Empty, {}, {{orders0, 1, 10}}), clock.nowMs());
        monitor.observeGroupsAbsentFrom({group});
        for (int i = 0; i < polls - 1; ++i)
            monitor.observeGroupsAbsentFrom({QStringLiteral("other")});
        QCOMPARE(monitor.footprint().groups, 1);
        monitor.observeGroupsAbsentFrom({QStringLiteral("other")});
        QCOMPARE(monitor.footprint().groups, 0);
        QCOMPARE(monitor.footprint().logEndTables, 0);
        QCOMPARE(monitor.footprint().lagSeries, 0);
    }

    // `watch` said drain=drained for a group that never committed: no lag is not zero lag.
    void groupWithoutCommitsHasNoDrainVerdict() {
        lag::ManualClock clock;
        GroupMonitor monitor(clock);
        monitor.setStreamState(GroupMonitor::StreamState::Live);
        monitor.observePoll(poll(GroupState::Stable, {member(QStringLiteral("m1"), {orders0})},
                                 {{orders0, std::nullopt, 10}}),
                            clock.nowMs());
        const auto snapshot = monitor.snapshot(group);
        QCOMPARE(snapshot.partitions.size(), 1);
        QVERIFY(!snapshot.partitions.first().lag);
        QCOMPARE(snapshot.drain.status, lag::DrainEstimate::Status::Unknown);
    }

    void tombstonesAreDeletionsInTheCommitHistory() {
        lag::ManualClock clock;
        GroupMonitor monitor(clock);
        monitor.setStreamState(GroupMonitor::StreamState::Live);
        monitor.observeRecord(commitRecord(orders1, 3, clock.nowMs()));
        offsetstopic::OffsetCommit tombstone = commitRecord(orders1, -1, clock.nowMs() + 5);
        tombstone.isTombstone = true;
        monitor.observeRecord(tombstone);
        monitor.observeRecord(offsetstopic::UnknownOffsetsTopicRecord{}); // skipped, no crash
        const auto commits = monitor.snapshot(group).commits;
        QCOMPARE(commits.size(), 2);
        QVERIFY(!commits[0].deleted);
        QVERIFY(commits[1].deleted);
        QCOMPARE(commits[1].offset, -1);
    }
};

QTEST_GUILESS_MAIN(TestGroupMonitor)
#include "TestGroupMonitor.moc"
