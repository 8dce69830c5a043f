// ClusterViewBuilder: what the group list shows beside each group's lag (time lag, health
// verdict, sparkline), from a sequence of cluster-wide polls on a manual clock.

#include "WholePoll.h"
#include "monitor/ClusterViewBuilder.h"

#include <QTest>

#include <functional>

using namespace groupscope;
using monitor::ClusterSnapshot;
using monitor::ClusterViewBuilder;
using monitor::GroupSnapshot;
using monitor::GroupSummary;
using namespace std::chrono_literals;

namespace {

// One partition of `orders`: committed at `committed`, log end at `logEnd`.
GroupSnapshot group(const QString& id, int64_t committed, int64_t logEnd) {
    GroupSnapshot snapshot;
    snapshot.description.groupId = id;
    snapshot.description.state = kafka::GroupState::Stable;
    monitor::PartitionSnapshot row;
    row.topicPartition = {QStringLiteral("orders"), 0};
    row.committedOffset = committed;
    row.logStartOffset = 0;
    row.logEndOffset = logEnd;
    row.lag = logEnd - committed;
    snapshot.partitions.append(row);
    return snapshot;
}

// A whole poll of two groups: billing with lag 5, orders with lag 3.
void observeBillingAndOrders(ClusterViewBuilder& builder) {
    test::observeWholePoll(
        builder, {group(QStringLiteral("billing"), 5, 10), group(QStringLiteral("orders"), 7, 10)},
        true);
}

// Records the poll and returns the view's rows: the groups with their trends.
ClusterSnapshot observe(ClusterViewBuilder& builder, const ClusterSnapshot& poll) {
    test::observeWholePoll(builder, poll.groups, true);
    return builder.view().cluster;
}

// Records the poll of one group and returns its group list row (a builder with list rows).
GroupSummary observeListRow(ClusterViewBuilder& builder, const GroupSnapshot& group) {
    test::observeWholePoll(builder, {group}, true);
    const monitor::ClusterView view = builder.view();
    if (view.groupList.size() != 1)
        qFatal("expected one list row, got %d", int(view.groupList.size()));
    return view.groupList.first();
}

// Watches "slow" and records `polls` whole polls 2 s apart of it, which consumes 60
// records a poll of the 100 produced, and of `other(poll)`.
void watchSlowAndPoll(lag::ManualClock& clock, ClusterViewBuilder& builder, int polls,
                      const std::function<GroupSnapshot(int poll)>& other) {
    builder.setWatchedGroups({QStringLiteral("slow")},
                             monitor::GroupMonitor::HistorySource::Stream);
    for (int poll = 0; poll < polls; ++poll) {
        clock.advance(2s);
        test::observeWholePoll(
            builder,
            {group(QStringLiteral("slow"), 1000 + 60 * poll, 1100 + 100 * poll), other(poll)},
            true);
    }
}

} // namespace

class TestClusterViewBuilder : public QObject {
    Q_OBJECT

private slots:
    void aCaughtUpGroupIsHealthyWithNoTimeLag() {
        lag::ManualClock clock;
        ClusterViewBuilder tracker(clock);
        tracker.setListRows(true); // the sparkline is the list's
        GroupSummary row;
        for (int poll = 0; poll < 15; ++poll) {
            clock.advance(2s);
            const int64_t end = 1000 + 100 * poll;
            row = observeListRow(tracker, group(QStringLiteral("fast"), end, end));
        }
        QCOMPARE(row.health, lag::GroupStatus::Ok);
        QCOMPARE(row.timeLag.status, lag::TimeLag::Status::CaughtUp);
        QCOMPARE(row.lagTrend.size(), 15);
        QVERIFY(std::all_of(row.lagTrend.cbegin(), row.lagTrend.cend(),
                            [](float lag) { return lag == 0; }));
    }

    void aConsumerFallingBehindShowsGrowingLagTimeLagAndAWarning() {
        lag::ManualClock clock;
        ClusterViewBuilder tracker(clock);
        tracker.setListRows(true); // the sparkline is the list's
        GroupSummary row;
        for (int poll = 0; poll < 15; ++poll) {
            clock.advance(2s);
            // Production 100 per poll, consumption 60: lag grows by 40 every poll.
            row = observeListRow(
                tracker, group(QStringLiteral("slow"), 1000 + 60 * poll, 1100 + 100 * poll));
        }
        QCOMPARE(row.health, lag::GroupStatus::Warning);
        QCOMPARE(row.lagHealth, lag::GroupStatus::Warning); // what the alerts compare
        QVERIFY2(row.healthReason.startsWith(QStringLiteral("orders:0 is ")),
                 qPrintable(row.healthReason));
        QVERIFY(row.timeLag.isKnown());
        QVERIFY2(row.timeLag.seconds > 0, qPrintable(QString::number(row.timeLag.seconds)));
        QCOMPARE(row.lagTrend.first(), 100.0f);
        QCOMPARE(row.lagTrend.last(), float(100 + 40 * 14));
    }

    void theSparklineKeepsOnlyTheNewestSamples() {
        lag::ManualClock clock;
        ClusterViewBuilder tracker(clock);
        tracker.setListRows(true); // the sparkline is the list's
        GroupSummary row;
        const int polls = ClusterViewBuilder::sparklineSamples + 25;
        for (int poll = 0; poll < polls; ++poll) {
            clock.advance(2s);
            row = observeListRow(tracker, group(QStringLiteral("long"), 0, poll));
        }
        QCOMPARE(row.lagTrend.size(), ClusterViewBuilder::sparklineSamples);
        QCOMPARE(row.lagTrend.last(), float(polls - 1));
        QCOMPARE(row.lagTrend.first(), float(polls - ClusterViewBuilder::sparklineSamples));
    }

    // Only the GUI's group list shows sparklines: a builder without list rows (the
    // exporter's, the CLI's) keeps none, and keeps them again once asked for list rows.
    void sparklinesAreKeptOnlyForListRows() {
        lag::ManualClock clock;
        ClusterViewBuilder tracker(clock);
        ClusterSnapshot snapshot;
        for (int poll = 0; poll < 3; ++poll) {
            clock.advance(2s);
            snapshot.groups = {group(QStringLiteral("a"), 0, 10)};
            snapshot = observe(tracker, snapshot);
        }
        QVERIFY(snapshot.groups.first().trend->recentTotalLag.isEmpty());
        QCOMPARE(tracker.monitor().sparklines().groupCount(), 0);
        QCOMPARE(snapshot.groups.first().trend->health, lag::GroupStatus::Ok);

        tracker.setListRows(true);
        GroupSummary row;
        for (int poll = 0; poll < 2; ++poll) {
            clock.advance(2s);
            row = observeListRow(tracker, group(QStringLiteral("a"), 0, 10));
        }
        QCOMPARE(row.lagTrend, monitor::LagSparkline({10, 10}));
    }

    void eachGroupGetsItsOwnTrend() {
        lag::ManualClock clock;
        ClusterViewBuilder tracker(clock);
        tracker.setListRows(true); // the sparkline is the list's
        monitor::ClusterView view;
        for (int poll = 0; poll < 3; ++poll) {
            clock.advance(2s);
            test::observeWholePoll(
                tracker, {group(QStringLiteral("a"), 0, 10), group(QStringLiteral("b"), 0, 20)},
                true);
            view = tracker.view();
        }
        QCOMPARE(view.groupList.size(), 2);
        QCOMPARE(view.groupList.at(0).lagTrend, monitor::LagSparkline({10, 10, 10}));
        QCOMPARE(view.groupList.at(1).lagTrend, monitor::LagSparkline({20, 20, 20}));
    }

    // A list row carries the monitor's own copy of its id, the same string at every poll
    // although each poll's is new text: the GUI's diff of 100,000 rows compares ids by
    // pointer instead of reading their characters.
    void listRowsKeepOneIdStringFromPollToPoll() {
        lag::ManualClock clock;
        ClusterViewBuilder builder(clock);
        builder.setListRows(true);
        const auto polledId = [] { return QString::fromLatin1("orders-consumer"); };
        clock.advance(2s);
        const GroupSummary first = observeListRow(builder, group(polledId(), 5, 10));
        clock.advance(2s);
        GroupSnapshot next = group(polledId(), 6, 10);
        QVERIFY(next.groupId().constData() != first.groupId.constData());
        const GroupSummary second = observeListRow(builder, next);
        QCOMPARE(second.groupId, QStringLiteral("orders-consumer"));
        QCOMPARE(second.groupId.constData(), first.groupId.constData());
        QCOMPARE(second.totalLag.value_or(-1), int64_t(4));
    }

    // With list rows (the GUI's), a view holds every group as its list and Topics rows and
    // only the watched ones in full, with the same verdict in both; without (the exporter's,
    // the CLI's), every group in full.
    void listRowsKeepOnlyTheWatchedGroupsInFull() {
        lag::ManualClock clock;
        ClusterViewBuilder builder(clock);
        builder.setListRows(true);
        builder.setWatchedGroups({QStringLiteral("b")},
                                 monitor::GroupMonitor::HistorySource::Stream);
        for (int poll = 0; poll < 3; ++poll) {
            clock.advance(2s);
            test::observeWholePoll(builder,
                                   {group(QStringLiteral("a"), 0, 10),
                                    group(QStringLiteral("b"), 0, 20),
                                    group(QStringLiteral("c"), 5, 30)},
                                   true);
        }
        monitor::ClusterView view = builder.view();
        QCOMPARE(view.groupList.size(), 3);
        QCOMPARE(view.topicConsumers.size(), 3);
        QCOMPARE(view.cluster.groups.size(), 1);
        QVERIFY(!view.group(QStringLiteral("a")));
        QVERIFY(view.listedGroup(QStringLiteral("a")));
        QVERIFY(!view.listedGroup(QStringLiteral("d")));
        const GroupSnapshot* watched = view.group(QStringLiteral("b"));
        QVERIFY(watched);
        QCOMPARE(watched->totalLag(), 20);
        const GroupSummary* listed = view.listedGroup(QStringLiteral("b"));
        QVERIFY(listed);
        QCOMPARE(listed->totalLag, 20);
        QCOMPARE(listed->health, watched->trend->health);
        QCOMPARE(view.listedGroup(QStringLiteral("c"))->totalLag, 25);
        QVERIFY(view.watchedGroup(QStringLiteral("b")));

        builder.setListRows(false);
        view = builder.view();
        QCOMPARE(view.cluster.groups.size(), 3);
        QVERIFY(view.groupList.isEmpty());
    }

    // A broker that is shutting down answers ListGroups with an empty listing once its
    // coordinator has unloaded the offsets partitions (seen on Kafka 4.4 between the last
    // good listing and the first refused connection). The list must not blank out for it,
    // while a group really gone leaves after a few polls.
    void aGroupMissingFromAListingStaysUntilItIsEvicted() {
        lag::ManualClock clock;
        ClusterViewBuilder builder(clock);
        ClusterSnapshot snapshot;
        clock.advance(2s);
        snapshot.groups = {group(QStringLiteral("billing"), 5, 10)};
        QCOMPARE(observe(builder, snapshot).groups.size(), 1);
        const int evictAfter = monitor::GroupMonitor::Options().evictAfterAbsentPolls;
        for (int poll = 1; poll < evictAfter; ++poll) {
            clock.advance(2s);
            const ClusterSnapshot shown = observe(builder, ClusterSnapshot());
            QCOMPARE(shown.groups.size(), 1);
            QCOMPARE(shown.groups.first().groupId(), QStringLiteral("billing"));
            QCOMPARE(shown.groups.first().totalLag(), 5); // the last good poll's rows
        }
        clock.advance(2s);
        QVERIFY(observe(builder, ClusterSnapshot()).groups.isEmpty());
    }

    // A poll fed group by group (as MonitorSession feeds GroupInspector's groups) lets go of
    // each group's last rows as its new ones come, so two polls' rows are never held whole;
    // the groups it has not reached yet keep theirs, and only the end of the poll counts
    // the groups it missed as absent.
    void aPollFedGroupByGroupReplacesEachGroupsRowsAsTheyCome() {
        lag::ManualClock clock;
        ClusterViewBuilder builder(clock);
        clock.advance(2s);
        observeBillingAndOrders(builder);
        GroupSnapshot lastBilling = *builder.monitor().lastPoll(QStringLiteral("billing"));
        QVERIFY(!lastBilling.partitions.isDetached()); // the builder holds these rows too

        clock.advance(2s);
        const GroupSnapshot billing = group(QStringLiteral("billing"), 9, 12);
        builder.observePolledGroup(billing);
        QVERIFY(builder.monitor()
                    .lastPoll(QStringLiteral("billing"))
                    ->partitions.isSharedWith(billing.partitions));
        QVERIFY(lastBilling.partitions.isDetached()); // let go before the poll's end
        QCOMPARE(builder.monitor().lastPoll(QStringLiteral("orders"))->totalLag(), 3);

        builder.endPoll(true); // orders was missing from the poll: absent once, still listed
        const ClusterSnapshot shown = builder.view().cluster;
        QCOMPARE(shown.groups.size(), 2);
        QCOMPARE(shown.groups.at(0).totalLag(), 3);
        QCOMPARE(shown.groups.at(1).groupId(), QStringLiteral("orders"));
        QCOMPARE(shown.takenAt.toMSecsSinceEpoch(), clock.nowMs());
    }

    // A poll that fails part-way (a later slice of its groups unanswered) keeps the rows it
    // had, counts nobody absent and leaves the view's time at the last whole poll; the next
    // poll starts afresh rather than inheriting the failed one's time or groups.
    void aPollAbandonedPartWayKeepsItsRowsAndCountsNobodyAbsent() {
        lag::ManualClock clock;
        ClusterViewBuilder builder(clock);
        clock.advance(2s);
        observeBillingAndOrders(builder);
        const int64_t wholePollMs = clock.nowMs();

        clock.advance(2s);
        builder.observePolledGroup(group(QStringLiteral("billing"), 9, 12));
        builder.abandonPoll();
        ClusterSnapshot shown = builder.view().cluster;
        QCOMPARE(shown.takenAt.toMSecsSinceEpoch(), wholePollMs);
        QCOMPARE(shown.groups.size(), 2);
        QCOMPARE(shown.groups.at(0).totalLag(), 3); // billing's new rows are true: kept

        // billing was in the abandoned poll only: each whole poll after it that misses
        // billing counts it absent, so it goes after exactly evictAfterAbsentPolls of them.
        const int evictAfter = monitor::GroupMonitor::Options().evictAfterAbsentPolls;
        for (int poll = 1; poll <= evictAfter; ++poll) {
            clock.advance(2s);
            test::observeWholePoll(builder, {group(QStringLiteral("orders"), 10, 10)}, true);
            shown = builder.view().cluster;
            QCOMPARE(shown.takenAt.toMSecsSinceEpoch(), clock.nowMs());
            QCOMPARE(shown.groups.size(), poll < evictAfter ? 2 : 1);
        }
    }

    void aWatchedGroupsListVerdictIsItsDetailsVerdict() {
        lag::ManualClock clock;
        ClusterViewBuilder builder(clock);
        watchSlowAndPoll(clock, builder, 15,
                         [](int) { return group(QStringLiteral("other"), 0, 10); });
        const monitor::ClusterView view = builder.view();
        QCOMPARE(view.watched.size(), 1);
        const monitor::GroupMonitorSnapshot* detail = view.watchedGroup(QStringLiteral("slow"));
        QVERIFY(detail);
        QCOMPARE(detail->health.status, lag::GroupStatus::Warning);
        QCOMPARE(view.group(QStringLiteral("slow"))->trend->health, detail->health.status);
        QVERIFY(!detail->commits.isEmpty()); // watched: the detail's history is kept
        QVERIFY(!view.watchedGroup(QStringLiteral("other")));
    }

    // A consumption rate is shown in a group's detail only: the watched group keeps its
    // windows, the others none (a window per partition of every group was 160 MB at 100,000
    // groups), and a group no longer watched lets go of its own.
    void onlyWatchedGroupsKeepConsumptionRates() {
        lag::ManualClock clock;
        ClusterViewBuilder builder(clock);
        watchSlowAndPoll(clock, builder, 5, [](int poll) {
            return group(QStringLiteral("other"), 10 * poll, 10 + 10 * poll);
        });
        QCOMPARE(builder.monitor().footprint().consumptionRates, 1);
        const monitor::ClusterView view = builder.view();
        const monitor::GroupMonitorSnapshot* detail = view.watchedGroup(QStringLiteral("slow"));
        QVERIFY(detail);
        QVERIFY(detail->consumptionRate);
        QCOMPARE(*detail->consumptionRate, 30.0); // 60 offsets every 2 s

        builder.setWatchedGroups({}, monitor::GroupMonitor::HistorySource::Stream);
        QCOMPARE(builder.monitor().footprint().consumptionRates, 0);
        // The list's numbers do not need them: time lag comes from the log ends.
        clock.advance(2s);
        test::observeWholePoll(builder, {group(QStringLiteral("slow"), 1300, 1600)}, true);
        QVERIFY(builder.view().group(QStringLiteral("slow"))->trend->maxTimeLag.isKnown());
        QCOMPARE(builder.monitor().footprint().consumptionRates, 0);
    }

    // A group opened after the stream had read its history gets that history replayed for
    // it: the replay fills its commit history only; the numbers every group has (here, the
    // consumption the health window sees) still come from the stream alone.
    void aReplayFeedsOnlyTheWatchedGroupsDetail() {
        lag::ManualClock clock;
        ClusterViewBuilder builder(clock);
        monitor::GroupMonitor& monitor = builder.monitor();
        monitor.setStreamState(monitor::GroupMonitor::StreamState::Live);
        clock.advance(2s);
        test::observeWholePoll(builder, {group(QStringLiteral("late"), 40, 100)}, true);
        builder.setWatchedGroups({QStringLiteral("late")},
                                 monitor::GroupMonitor::HistorySource::Replay);
        offsetstopic::OffsetCommit commit;
        commit.group = QStringLiteral("late");
        commit.topicPartition = {QStringLiteral("orders"), 0};
        commit.offset = 40;
        commit.commitTimestamp = clock.nowMs();
        monitor.observeRecord(commit); // the stream's copy: not history for the detail
        QVERIFY(builder.view().watchedGroup(QStringLiteral("late"))->commits.isEmpty());
        monitor.observeReplayedRecord(commit);
        const monitor::ClusterView view = builder.view();
        QCOMPARE(view.watchedGroup(QStringLiteral("late"))->commits.size(), 1);
        QCOMPARE(view.watchedGroup(QStringLiteral("late"))->commits.first().offset, 40);
        // The replay waits to be complete before the lag is rebuilt.
        QVERIFY(monitor.groupsAwaitingLagBackfill().isEmpty());
        monitor.setReplayComplete(QStringLiteral("late"));
        QCOMPARE(monitor.groupsAwaitingLagBackfill(), QStringList{QStringLiteral("late")});
    }
};

QTEST_GUILESS_MAIN(TestClusterViewBuilder)
#include "TestClusterViewBuilder.moc"
