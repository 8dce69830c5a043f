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
    return {id,
            {},
            id + QStringLiteral("-client"),
            QStringLiteral("/127.0.0.1"),
            std::move(assignment)};
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

monitor::GroupMetadata generationRecord(int32_t generation, const QStringList& memberIds,
                                        int64_t formedMs, int64_t storedMs) {
    monitor::GroupMetadata metadata;
    metadata.group = group;
    metadata.protocolType = QStringLiteral("consumer");
    metadata.generation = generation;
    metadata.protocol = QStringLiteral("range");
    metadata.leader = memberIds.value(0);
    metadata.currentStateTimestamp = formedMs;
    metadata.recordTimestamp = storedMs;
    for (qsizetype i = 0; i < memberIds.size(); ++i) {
        monitor::GroupMemberMetadata memberMetadata;
        memberMetadata.memberId = memberIds[i];
        memberMetadata.clientId = memberIds[i] + QStringLiteral("-client");
        monitor::ConsumerAssignment assignment;
        for (int partition = int(i); partition < 2; partition += int(memberIds.size()))
            assignment.partitions.append({QStringLiteral("orders"), partition});
        memberMetadata.assignment = assignment;
        metadata.members.append(memberMetadata);
    }
    return metadata;
}

monitor::OffsetCommit commitRecord(const TopicPartition& partition, int64_t offset,
                                   int64_t timeMs) {
    monitor::OffsetCommit commit;
    commit.group = group;
    commit.topicPartition = partition;
    commit.offset = offset;
    commit.commitTimestamp = timeMs;
    commit.recordTimestamp = timeMs;
    commit.valueVersion = 3;
    return commit;
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

    void tombstonesAreDeletionsInTheCommitHistory() {
        lag::ManualClock clock;
        GroupMonitor monitor(clock);
        monitor.setStreamState(GroupMonitor::StreamState::Live);
        monitor.observeRecord(commitRecord(orders1, 3, clock.nowMs()));
        monitor::OffsetCommit tombstone = commitRecord(orders1, -1, clock.nowMs() + 5);
        tombstone.isTombstone = true;
        monitor.observeRecord(tombstone);
        monitor.observeRecord(monitor::UnknownOffsetsTopicRecord{}); // skipped, no crash
        const auto commits = monitor.snapshot(group).commits;
        QCOMPARE(commits.size(), 2);
        QVERIFY(!commits[0].deleted);
        QVERIFY(commits[1].deleted);
        QCOMPARE(commits[1].offset, -1);
    }
};

QTEST_GUILESS_MAIN(TestGroupMonitor)
#include "TestGroupMonitor.moc"
