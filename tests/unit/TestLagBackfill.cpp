// The lag rebuilt from replayed commits and past log ends (LagBackfill), and GroupMonitor's
// hand-over of it: when a group awaits the rebuild, what is asked for, and what the
// snapshot then carries. Synthetic inputs and a ManualClock; no broker.
#include "lag/LagBackfill.h"
#include "monitor/GroupInspector.h"
#include "monitor/GroupMonitor.h"

#include <QTest>

#include <cmath>

using namespace groupscope;
using kafka::TopicPartition;
using lag::LagBackfill;
using monitor::GroupMonitor;

namespace {

constexpr int64_t step = 30'000;
// A grid-aligned moment, so expected times are easy to write down.
constexpr int64_t t0 = 1'700'000'010'000 / step * step;
const QString group = QStringLiteral("billing");
const TopicPartition orders0{QStringLiteral("orders"), 0};
const TopicPartition orders1{QStringLiteral("orders"), 1};
const TopicPartition refunds0{QStringLiteral("refunds"), 0};

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

monitor::GroupSnapshot poll(const QList<QPair<TopicPartition, int64_t>>& committed,
                            int64_t logEnd) {
    kafka::GroupDescription description;
    description.groupId = group;
    description.state = kafka::GroupState::Stable;
    description.protocolType = QStringLiteral("consumer");
    QList<kafka::CommittedOffset> offsets;
    QHash<TopicPartition, kafka::LogOffsets> logOffsets;
    for (const auto& [partition, offset] : committed) {
        offsets.append({partition, offset, {}});
        logOffsets.insert(partition, {partition, 0, logEnd, {}});
    }
    return monitor::assembleGroupSnapshot(description, offsets, logOffsets);
}

} // namespace

class TestLagBackfill : public QObject {
    Q_OBJECT
private slots:
    void gridStartsWhenEveryReplayedOffsetIsKnown() {
        LagBackfill backfill(step);
        backfill.recordCommit(orders0, 10, t0 + 5'000);  // known from t0 + 30 s
        backfill.recordCommit(orders1, 20, t0 + 61'000); // known from t0 + 90 s
        const QList<int64_t> times = backfill.sampleTimes(t0 - 600'000, t0 + 150'000);
        QCOMPARE(times, (QList<int64_t>{t0 + 90'000, t0 + 120'000, t0 + 150'000}));
    }

    void withoutReplayedCommitsTheWholeWindowIsRebuilt() {
        const LagBackfill backfill(step);
        const QList<int64_t> times = backfill.sampleTimes(t0 + 1, t0 + 90'000);
        QCOMPARE(times, (QList<int64_t>{t0 + 30'000, t0 + 60'000, t0 + 90'000}));
    }

    void lagIsLogEndThenMinusCommittedThen() {
        LagBackfill backfill(step);
        backfill.recordCommit(orders0, 100, t0 - 1'000);
        backfill.recordCommit(orders0, 150, t0 + 10'000);
        backfill.recordCommit(orders0, 170, t0 + 20'000); // the later one in a step wins
        backfill.recordCommit(refunds0, 5, t0);           // exactly on a grid moment: counts there
        const QList<int64_t> times{t0, t0 + 30'000, t0 + 60'000};
        QHash<TopicPartition, QList<int64_t>> logEnds;
        logEnds.insert(orders0, {120, 200, 260});
        logEnds.insert(refunds0, {5, 5, 9});
        logEnds.insert(orders1, {50, 60, 70}); // never committed in the window: stood at 40
        const lag::LagTrail trail =
            backfill.build(times, logEnds, {{orders1, 40}, {orders0, 170}, {refunds0, 5}});

        QCOMPARE(trail.timesMs, times);
        QCOMPARE(trail.topicLag.value(QStringLiteral("orders")),
                 (QList<int64_t>{20 + 10, 30 + 20, 90 + 30}));
        QCOMPARE(trail.topicLag.value(QStringLiteral("refunds")), (QList<int64_t>{0, 0, 4}));
        QCOMPARE(trail.totalLag, (QList<int64_t>{30, 50, 124}));
        QCOMPARE(trail.topicLag.size(), 2);
    }

    void timeLagIsInterpolatedFromThePastLogEnds() {
        LagBackfill backfill(step);
        // The log end grows 100 per step; the consumer stands still at 100 from t0.
        backfill.recordCommit(orders0, 100, t0);
        const QList<int64_t> times{t0, t0 + 30'000, t0 + 60'000, t0 + 90'000};
        const lag::LagTrail trail =
            backfill.build(times, {{orders0, {100, 200, 300, 400}}}, {{orders0, 100}});
        QCOMPARE(trail.totalLag, (QList<int64_t>{0, 100, 200, 300}));
        QCOMPARE(trail.maxTimeLagSeconds.at(0), 0.0); // at the log end
        // Offset 100 was the log end at t0: at t0 + 90 s it is 90 s behind.
        QCOMPARE(trail.maxTimeLagSeconds.at(1), 30.0);
        QCOMPARE(trail.maxTimeLagSeconds.at(3), 90.0);
    }

    void aPartitionWithoutLogEndsIsLeftOutAndNegativeLagIsClamped() {
        LagBackfill backfill(step);
        backfill.recordCommit(orders0, 50, t0);
        backfill.recordCommit(orders1, 10, t0);
        const QList<int64_t> times{t0, t0 + 30'000};
        // orders1's lookups are missing; orders0's log end reads below its commit (producer
        // timestamps): an estimation error, not a negative lag.
        const lag::LagTrail trail =
            backfill.build(times, {{orders0, {45, 60}}, {orders1, {11}}}, {});
        QCOMPARE(trail.totalLag, (QList<int64_t>{0, 10}));
    }

    void commitsBeforeTheWindowFoldIntoTheOffsetAtItsStart() {
        LagBackfill backfill(step, 4 * step);
        for (int i = 0; i < 100; ++i)
            backfill.recordCommit(orders0, 10 * i, t0 + i * step);
        // The newest commit is at t0 + 99 steps; the window starts 4 steps before it. The
        // commit standing then (t0 + 95 steps, offset 950) is the oldest one kept.
        const QList<int64_t> times = backfill.sampleTimes(t0, t0 + 99 * step);
        QCOMPARE(times.first(), t0 + 95 * step);
        QCOMPARE(times.size(), 5);
        const lag::LagTrail trail =
            backfill.build(times, {{orders0, {1000, 1000, 1000, 1000, 1000}}}, {});
        QCOMPARE(trail.totalLag, (QList<int64_t>{50, 40, 30, 20, 10}));
    }

    void emptyInputsGiveAnEmptyTrail() {
        const LagBackfill backfill(step);
        QVERIFY(backfill.build({}, {{orders0, {}}}, {{orders0, 1}}).isEmpty());
        QVERIFY(backfill.build({t0}, {}, {{orders0, 1}}).isEmpty());
    }

    void monitorAsksOnlyOnceTheReplayIsDone() {
        lag::ManualClock clock(t0 + 120'000);
        GroupMonitor::Options options;
        options.lagBackfillStepMs = step;
        GroupMonitor monitor(clock, options);
        monitor.setStreamState(GroupMonitor::StreamState::Replaying);
        monitor.observeRecord(commitRecord(orders0, 100, t0 + 1'000));
        monitor.observeRecord(commitRecord(orders0, 160, t0 + 40'000));
        monitor.observePoll(poll({{orders0, 160}, {orders1, 7}}, 300), clock.nowMs());
        QVERIFY(monitor.groupsAwaitingLagBackfill().isEmpty()); // still replaying
        QVERIFY(monitor.snapshot(group).lagBackfill.isEmpty());

        monitor.setStreamState(GroupMonitor::StreamState::Live);
        QCOMPARE(monitor.groupsAwaitingLagBackfill(), QStringList{group});
        const GroupMonitor::LagBackfillRequest request =
            monitor.lagBackfillRequest(group, t0 - 3'600'000);
        QCOMPARE(request.timesMs,
                 (QList<int64_t>{t0 + 30'000, t0 + 60'000, t0 + 90'000, t0 + 120'000}));
        QCOMPARE(request.partitions.size(), 2);
        QVERIFY(request.partitions.contains(orders0));
        QVERIFY(request.partitions.contains(orders1));

        // -1: no record that new, so the log end then was the polled one (300).
        monitor.completeLagBackfill(group, request.timesMs,
                                    {{orders0, {150, 200, 250, -1}}, {orders1, {7, 7, 7, 7}}});
        QVERIFY(monitor.groupsAwaitingLagBackfill().isEmpty());
        const lag::LagTrail trail = monitor.snapshot(group).lagBackfill;
        QCOMPARE(trail.timesMs, request.timesMs);
        QCOMPARE(trail.totalLag, (QList<int64_t>{50, 40, 90, 140}));
        QCOMPARE(trail.topicLag.keys(), QStringList{QStringLiteral("orders")});
    }

    void aFailedLookupGivesUpWithoutATrail() {
        lag::ManualClock clock(t0);
        GroupMonitor monitor(clock);
        monitor.setStreamState(GroupMonitor::StreamState::Live);
        monitor.observePoll(poll({{orders0, 1}}, 2), clock.nowMs());
        QCOMPARE(monitor.groupsAwaitingLagBackfill(), QStringList{group});
        monitor.completeLagBackfill(group, {t0}, {});
        QVERIFY(monitor.groupsAwaitingLagBackfill().isEmpty());
        QVERIFY(monitor.snapshot(group).lagBackfill.isEmpty());
    }

    void anUnreadableTopicNeverAsks() {
        lag::ManualClock clock(t0);
        GroupMonitor monitor(clock);
        monitor.setStreamState(GroupMonitor::StreamState::Unavailable);
        monitor.observePoll(poll({{orders0, 1}}, 2), clock.nowMs());
        QVERIFY(monitor.groupsAwaitingLagBackfill().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestLagBackfill)
#include "TestLagBackfill.moc"
