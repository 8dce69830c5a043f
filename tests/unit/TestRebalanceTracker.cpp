// RebalanceTracker: rebalances per ten minutes, the longest one, a stuck one and a storm,
// with the member that caused the latest, from polls and from GroupMetadata records on a
// manual clock; and GroupMonitor joining that verdict to lag's for the list and the detail.

#include "WholePoll.h"
#include "monitor/ClusterViewBuilder.h"
#include "offsetstopic/OffsetsTopicRecord.h"
#include "timeline/GroupTimeline.h"
#include "timeline/RebalanceTracker.h"

#include <QTest>

using namespace groupscope;
using namespace std::chrono_literals;
using kafka::GroupState;
using monitor::GroupSnapshot;
using timeline::RebalanceTracker;

namespace {

const QString groupId = QStringLiteral("orders-app");

GroupSnapshot poll(GroupState state, const QStringList& members,
                   std::optional<int32_t> groupEpoch = std::nullopt) {
    GroupSnapshot snapshot;
    snapshot.description.groupId = groupId;
    snapshot.description.state = state;
    snapshot.description.protocolType = QStringLiteral("consumer");
    snapshot.description.groupEpoch = groupEpoch;
    for (const QString& member : members) {
        kafka::MemberDescription description;
        description.memberId = member;
        snapshot.description.members.append(description);
    }
    return snapshot;
}

offsetstopic::GroupMetadata record(int32_t generation, const QStringList& members,
                                   int64_t formedAtMs, int64_t storedAtMs,
                                   int32_t sessionTimeoutMs = 45'000,
                                   int32_t rebalanceTimeoutMs = 300'000) {
    offsetstopic::GroupMetadata metadata;
    metadata.group = groupId;
    metadata.protocolType = QStringLiteral("consumer");
    metadata.protocol = QStringLiteral("range");
    metadata.generation = generation;
    metadata.currentStateTimestamp = formedAtMs;
    metadata.recordTimestamp = storedAtMs;
    for (const QString& member : members) {
        offsetstopic::GroupMemberMetadata description;
        description.memberId = member;
        description.sessionTimeoutMs = sessionTimeoutMs;
        description.rebalanceTimeoutMs = rebalanceTimeoutMs;
        metadata.members.append(description);
    }
    return metadata;
}

// Polls every two seconds: `count` polls of `snapshot`.
void observeFor(RebalanceTracker& tracker, lag::ManualClock& clock, const GroupSnapshot& snapshot,
                int count, bool generationsFromRecords = false) {
    for (int i = 0; i < count; ++i) {
        clock.advance(2s);
        tracker.observePoll(snapshot, clock.nowMs(), generationsFromRecords);
    }
}

} // namespace

class TestRebalanceTracker : public QObject {
    Q_OBJECT

private slots:
    void aQuietGroupHasNoRebalance() {
        lag::ManualClock clock;
        RebalanceTracker tracker(clock);
        observeFor(tracker, clock, poll(GroupState::Stable, {QStringLiteral("a")}), 10);
        const lag::RebalanceHealth health = tracker.health(groupId);
        QCOMPARE(health.rebalancesLast10Min, 0);
        QCOMPARE(health.rebalancing, false);
        QCOMPARE(health.status(), lag::GroupStatus::Ok);
        QVERIFY(health.reason().isEmpty());
    }

    void aPolledRebalanceCountsOnceWithItsDurationAndTheMemberThatJoined() {
        lag::ManualClock clock;
        RebalanceTracker tracker(clock);
        const QString a = QStringLiteral("a");
        const QString b = QStringLiteral("b");
        observeFor(tracker, clock, poll(GroupState::Stable, {a}), 3);
        observeFor(tracker, clock, poll(GroupState::PreparingRebalance, {a, b}), 3);
        lag::RebalanceHealth during = tracker.health(groupId);
        QVERIFY(during.rebalancing);
        QCOMPARE(during.currentRebalanceSeconds, 4.0); // first seen 4 s ago
        QCOMPARE(during.joinedMembers, QStringList{b});
        observeFor(tracker, clock, poll(GroupState::Stable, {a, b}), 3);
        const lag::RebalanceHealth after = tracker.health(groupId);
        QCOMPARE(after.rebalancesLast10Min, 1);
        QCOMPARE(after.rebalancing, false);
        QCOMPARE(after.longestRebalanceSeconds, 6.0);
        QCOMPARE(after.joinedMembers, QStringList{b});
        QVERIFY(after.leftMembers.isEmpty());
        QCOMPARE(after.causeExact, false);
        QVERIFY2(after.summary().contains(QStringLiteral("cause: member b joined")),
                 qPrintable(after.summary()));
    }

    void aRebalanceLongerThanTheDefaultIsStuckAndAnError() {
        lag::ManualClock clock;
        RebalanceTracker tracker(clock);
        observeFor(tracker, clock, poll(GroupState::Stable, {QStringLiteral("a")}), 2);
        const GroupSnapshot rebalancing =
            poll(GroupState::PreparingRebalance, {QStringLiteral("a"), QStringLiteral("b")});
        observeFor(tracker, clock, rebalancing, 23); // 44 s since it was first seen
        QCOMPARE(tracker.health(groupId).stuckRebalance, false);
        observeFor(tracker, clock, rebalancing, 1);
        const lag::RebalanceHealth stuck = tracker.health(groupId);
        QCOMPARE(stuck.stuckAfterSource, lag::StuckThresholdSource::Default);
        QCOMPARE(stuck.stuckAfterSeconds, 45.0);
        QVERIFY(stuck.stuckRebalance);
        QCOMPARE(stuck.status(), lag::GroupStatus::Error);
        QVERIFY2(stuck.reason().startsWith(QStringLiteral("rebalance stuck for 46 s")),
                 qPrintable(stuck.reason()));
        QVERIFY2(stuck.reason().contains(QStringLiteral("the default")),
                 qPrintable(stuck.reason()));
    }

    void theGroupsOwnTimeoutsFromTheOffsetsTopicSetWhenItIsStuck() {
        lag::ManualClock clock;
        RebalanceTracker tracker(clock);
        // Members that time out after 10 s without a heartbeat, and may take 120 s to rejoin.
        tracker.observeGroupMetadata(record(1, {QStringLiteral("a")}, clock.nowMs() - 1000,
                                            clock.nowMs() - 900, 10'000, 120'000));
        observeFor(tracker, clock, poll(GroupState::Stable, {QStringLiteral("a")}), 2, true);
        observeFor(tracker, clock,
                   poll(GroupState::PreparingRebalance, {QStringLiteral("a"), QStringLiteral("b")}),
                   6, true);
        QCOMPARE(tracker.health(groupId).stuckRebalance, false); // 10 s: not longer yet
        observeFor(tracker, clock,
                   poll(GroupState::PreparingRebalance, {QStringLiteral("a"), QStringLiteral("b")}),
                   1, true);
        const lag::RebalanceHealth health = tracker.health(groupId);
        QCOMPARE(health.stuckAfterSource, lag::StuckThresholdSource::GroupTimeouts);
        QCOMPARE(health.stuckAfterSeconds, 10.0);
        QVERIFY(health.stuckRebalance);
        QVERIFY2(health.reason().contains(QStringLiteral("the group's 10 s timeout")),
                 qPrintable(health.reason()));
    }

    void aGroupsOwnStuckSettingWinsOverItsTimeouts() {
        lag::ManualClock clock;
        RebalanceTracker tracker(clock);
        lag::RebalanceThresholds thresholds;
        thresholds.stuckAfterMs = 3000;
        tracker.setThresholds({{groupId, thresholds}});
        tracker.observeGroupMetadata(
            record(1, {QStringLiteral("a")}, clock.nowMs() - 1000, clock.nowMs() - 900));
        observeFor(tracker, clock, poll(GroupState::Stable, {QStringLiteral("a")}), 1, true);
        observeFor(tracker, clock, poll(GroupState::CompletingRebalance, {QStringLiteral("a")}), 3,
                   true);
        const lag::RebalanceHealth health = tracker.health(groupId);
        QCOMPARE(health.stuckAfterSource, lag::StuckThresholdSource::GroupSetting);
        QVERIFY(health.stuckRebalance);
    }

    void aGenerationStoredDuringAPolledRebalanceIsThatRebalanceAndNamesItsCauseExactly() {
        lag::ManualClock clock;
        RebalanceTracker tracker(clock);
        const QString a = QStringLiteral("a");
        const QString b = QStringLiteral("b");
        tracker.observeGroupMetadata(record(1, {a, b}, clock.nowMs() - 5000, clock.nowMs() - 4000));
        observeFor(tracker, clock, poll(GroupState::Stable, {a, b}), 2, true);
        observeFor(tracker, clock, poll(GroupState::PreparingRebalance, {a}), 2, true);
        // b left; generation 2 forms with a alone, and a poll sees it stable afterwards.
        tracker.observeGroupMetadata(record(2, {a}, clock.nowMs() + 500, clock.nowMs() + 600));
        observeFor(tracker, clock, poll(GroupState::Stable, {a}), 2, true);
        const lag::RebalanceHealth health = tracker.health(groupId);
        // Generation 1 formed before the polls began, and generation 2 is the polled one.
        QCOMPARE(health.rebalancesLast10Min, 2);
        QCOMPARE(health.leftMembers, QStringList{b});
        QVERIFY(health.causeExact);
    }

    void aQuickRebalanceBetweenTwoPollsCountsFromItsGeneration() {
        lag::ManualClock clock;
        RebalanceTracker tracker(clock);
        const QString a = QStringLiteral("a");
        const QString c = QStringLiteral("c");
        tracker.observeGroupMetadata(record(4, {a}, clock.nowMs() - 5000, clock.nowMs() - 4000));
        observeFor(tracker, clock, poll(GroupState::Stable, {a}), 2, true);
        tracker.observeGroupMetadata(record(5, {a, c}, clock.nowMs() + 100, clock.nowMs() + 300));
        observeFor(tracker, clock, poll(GroupState::Stable, {a, c}), 2, true);
        const lag::RebalanceHealth health = tracker.health(groupId);
        QCOMPARE(health.rebalancesLast10Min, 2);
        QCOMPARE(health.joinedMembers, QStringList{c});
        QVERIFY(health.causeExact);
        QCOMPARE(health.longestRebalanceSeconds, 1.0); // generation 4: formed 1 s before stored
    }

    void withoutAnyGenerationAChangeOfMembersBetweenPollsIsAMissedRebalance() {
        lag::ManualClock clock;
        RebalanceTracker tracker(clock);
        observeFor(tracker, clock, poll(GroupState::Stable, {QStringLiteral("a")}), 2);
        observeFor(tracker, clock, poll(GroupState::Stable, {QStringLiteral("b")}), 2);
        lag::RebalanceHealth health = tracker.health(groupId);
        QCOMPARE(health.rebalancesLast10Min, 1);
        QCOMPARE(health.joinedMembers, QStringList{QStringLiteral("b")});
        QCOMPARE(health.leftMembers, QStringList{QStringLiteral("a")});
        // Ten quiet minutes later neither the rebalance nor its cause is news.
        clock.advance(11min);
        observeFor(tracker, clock, poll(GroupState::Stable, {QStringLiteral("b")}), 1);
        QCOMPARE(tracker.health(groupId).rebalancesLast10Min, 0);
        QVERIFY(tracker.health(groupId).cause().isEmpty());
        // With the offsets topic read, the record says it, not the polls.
        RebalanceTracker exact(clock);
        observeFor(exact, clock, poll(GroupState::Stable, {QStringLiteral("a")}), 2, true);
        observeFor(exact, clock, poll(GroupState::Stable, {QStringLiteral("b")}), 2, true);
        QCOMPARE(exact.health(groupId).rebalancesLast10Min, 0);
    }

    void everyGroupEpochOfAConsumerGroupIsARebalance() {
        lag::ManualClock clock;
        RebalanceTracker tracker(clock);
        const QStringList members{QStringLiteral("a")};
        observeFor(tracker, clock, poll(GroupState::Stable, members, 3), 2, true);
        observeFor(tracker, clock, poll(GroupState::Reconciling, members, 4), 2, true);
        observeFor(tracker, clock, poll(GroupState::Stable, members, 4), 2, true);
        QCOMPARE(tracker.health(groupId).rebalancesLast10Min, 1);
        // Two more epochs between two polls.
        observeFor(tracker, clock, poll(GroupState::Stable, members, 6), 2, true);
        QCOMPARE(tracker.health(groupId).rebalancesLast10Min, 3);
    }

    void fiveRebalancesInTenMinutesAreAStormUntilTheyAge() {
        lag::ManualClock clock;
        RebalanceTracker tracker(clock);
        const QStringList members{QStringLiteral("a")};
        for (int epoch = 1; epoch <= 5; ++epoch) {
            observeFor(tracker, clock, poll(GroupState::Stable, members, epoch), 1, true);
            clock.advance(30s);
        }
        // The first epoch is the baseline: four rebalances so far.
        QCOMPARE(tracker.health(groupId).rebalancesLast10Min, 4);
        QCOMPARE(tracker.health(groupId).rebalanceStorm, false);
        observeFor(tracker, clock, poll(GroupState::Stable, members, 6), 1, true);
        lag::RebalanceHealth storm = tracker.health(groupId);
        QCOMPARE(storm.rebalancesLast10Min, 5);
        QVERIFY(storm.rebalanceStorm);
        QCOMPARE(storm.status(), lag::GroupStatus::Warning);
        QVERIFY2(storm.reason().startsWith(QStringLiteral("rebalance storm: 5 rebalances")),
                 qPrintable(storm.reason()));
        // Ten minutes on, the oldest have left the window.
        clock.advance(9min);
        observeFor(tracker, clock, poll(GroupState::Stable, members, 6), 1, true);
        QVERIFY(tracker.health(groupId).rebalancesLast10Min < 5);
        QCOMPARE(tracker.health(groupId).rebalanceStorm, false);
    }

    void aMemberGoneAfterItsWholeRebalanceTimeoutTimedOut() {
        lag::ManualClock clock;
        RebalanceTracker tracker(clock);
        const QString a = QStringLiteral("a");
        const QString slow = QStringLiteral("slow");
        tracker.observeGroupMetadata(
            record(1, {a, slow}, clock.nowMs() - 2000, clock.nowMs() - 1000, 10'000, 8'000));
        observeFor(tracker, clock, poll(GroupState::Stable, {a, slow}), 1, true);
        observeFor(tracker, clock, poll(GroupState::PreparingRebalance, {a, slow}), 5, true);
        // The coordinator gave up on `slow` after its 8 s and formed generation 2 without it.
        tracker.observeGroupMetadata(record(2, {a}, clock.nowMs(), clock.nowMs() + 10));
        observeFor(tracker, clock, poll(GroupState::Stable, {a}), 1, true);
        const lag::RebalanceHealth health = tracker.health(groupId);
        QCOMPARE(health.timedOutMembers, QStringList{slow});
        QVERIFY(health.leftMembers.isEmpty());
        QVERIFY2(health.cause().contains(QStringLiteral("member slow timed out")),
                 qPrintable(health.cause()));
    }

    void replayedHistoryCountsWithinTheWindowOnly() {
        lag::ManualClock clock;
        RebalanceTracker tracker(clock);
        const QStringList members{QStringLiteral("a")};
        const int64_t now = clock.nowMs();
        tracker.observeGroupMetadata(record(1, members, now - 50 * 60'000, now - 50 * 60'000));
        tracker.observeGroupMetadata(record(2, members, now - 20 * 60'000, now - 20 * 60'000));
        tracker.observeGroupMetadata(record(3, members, now - 5 * 60'000, now - 5 * 60'000));
        tracker.observeGroupMetadata(record(4, members, now - 60'000, now - 59'000));
        QCOMPARE(tracker.health(groupId).rebalancesLast10Min, 2);
    }

    void theTimelineNamesTheCauseOnlyOfTheRebalanceItFormed() {
        lag::ManualClock clock;
        RebalanceTracker tracker(clock);
        const QString a = QStringLiteral("a");
        const QString b = QStringLiteral("b");
        // The timeline's generation 1, exact: `a` joined the group when it formed.
        timeline::GroupTimeline history;
        timeline::Generation first;
        first.generationId = 1;
        first.startMs = clock.nowMs() - 60'000;
        first.joinedMemberIds = {a};
        history.generations.append(first);
        observeFor(tracker, clock, poll(GroupState::Stable, {a}, 1), 2, true);
        // b joins; the rebalance is under way, its generation not formed yet.
        observeFor(tracker, clock, poll(GroupState::Reconciling, {a, b}), 2, true);
        QCOMPARE(tracker.health(groupId, &history).joinedMembers, QStringList{b});
        QCOMPARE(tracker.health(groupId, &history).causeExact, false);
        // Its generation forms: the timeline's newest generation names it exactly.
        timeline::Generation second;
        second.generationId = 2;
        second.startMs = clock.nowMs();
        second.joinedMemberIds = {b};
        history.generations.append(second);
        observeFor(tracker, clock, poll(GroupState::Stable, {a, b}, 2), 1, true);
        QCOMPARE(tracker.health(groupId, &history).joinedMembers, QStringList{b});
        QCOMPARE(tracker.health(groupId, &history).causeExact, true);
    }

    void theListAndTheDetailShowAStuckRebalanceAsOneErrVerdict() {
        lag::ManualClock clock;
        monitor::ClusterViewBuilder builder(clock);
        builder.setWatchedGroups({groupId}, monitor::GroupMonitor::HistorySource::Stream);
        lag::RebalanceThresholds thresholds;
        thresholds.stuckAfterMs = 5000;
        builder.monitor().setRebalanceThresholds({{groupId, thresholds}});
        GroupSnapshot stable = poll(GroupState::Stable, {QStringLiteral("a")});
        test::observeWholePoll(builder, {stable}, true);
        GroupSnapshot rebalancing =
            poll(GroupState::PreparingRebalance, {QStringLiteral("a"), QStringLiteral("b")});
        for (int i = 0; i < 4; ++i) {
            clock.advance(2s);
            test::observeWholePoll(builder, {rebalancing}, true);
        }
        const monitor::ClusterView view = builder.view();
        const monitor::GroupTrend& trend = view.cluster.groups.first().trend;
        QVERIFY(trend.rebalance.stuckRebalance);
        QCOMPARE(trend.health, lag::GroupStatus::Error);
        QCOMPARE(trend.lagHealth, lag::GroupStatus::NotFound); // no commits: lag has no verdict
        QVERIFY2(trend.healthReason.startsWith(QStringLiteral("rebalance stuck for 6.0 s")),
                 qPrintable(trend.healthReason));
        QCOMPARE(view.watched.first().health.status, lag::GroupStatus::Error);
        QVERIFY(view.watched.first().rebalance.stuckRebalance);
        QCOMPARE(view.watched.first().rebalance.joinedMembers, QStringList{QStringLiteral("b")});
        // A group nobody opened has the same figures, from the lean path.
        monitor::ClusterViewBuilder lean(clock);
        lean.monitor().setRebalanceThresholds({{groupId, thresholds}});
        test::observeWholePoll(lean, {stable}, true);
        for (int i = 0; i < 4; ++i) {
            clock.advance(2s);
            test::observeWholePoll(lean, {rebalancing}, true);
        }
        const monitor::GroupTrend leanTrend = lean.view().cluster.groups.first().trend;
        QCOMPARE(leanTrend.health, lag::GroupStatus::Error);
        QCOMPARE(leanTrend.rebalance.currentRebalanceSeconds,
                 trend.rebalance.currentRebalanceSeconds);
    }
};

QTEST_GUILESS_MAIN(TestRebalanceTracker)
#include "TestRebalanceTracker.moc"
