// AlertDecider: which changes of a watched group raise an alert. Baselines (the first
// refresh, the first verdict), worsening only, de-duplication, and each kind of alert.

#include "alerts/AlertDecider.h"

#include <QTest>

#include <algorithm>

using namespace groupscope;
using alerts::Alert;
using alerts::AlertDecider;
using alerts::AlertKind;
using monitor::GroupSnapshot;

namespace {

const QString orders = QStringLiteral("orders-app");
const QString billing = QStringLiteral("billing");

GroupSnapshot group(const QString& id, lag::GroupStatus lagHealth,
                    lag::PartitionStatus worst = lag::PartitionStatus::Ok, int members = 1,
                    int64_t lag = 10) {
    GroupSnapshot snapshot;
    snapshot.description.groupId = id;
    snapshot.description.state = members > 0 ? kafka::GroupState::Stable : kafka::GroupState::Empty;
    for (int i = 0; i < members; ++i) {
        kafka::MemberDescription member;
        member.memberId = QStringLiteral("m-%1").arg(i);
        snapshot.description.members.append(member);
    }
    monitor::PartitionSnapshot partition;
    partition.topicPartition = {QStringLiteral("orders"), 0};
    partition.committedOffset = 100;
    partition.logEndOffset = 100 + lag;
    partition.lag = lag;
    snapshot.partitions.append(partition);
    snapshot.trend.edit().lagHealth = lagHealth;
    snapshot.trend.edit().health = lagHealth;
    snapshot.trend.edit().worstPartition = worst;
    return snapshot;
}

// A refresh's group list rows (sorted by id, as the list's are), made from the snapshots as
// the pipeline makes them.
QList<monitor::GroupSummary> cluster(QList<GroupSnapshot> groups) {
    std::sort(groups.begin(), groups.end(), [](const GroupSnapshot& a, const GroupSnapshot& b) {
        return a.groupId() < b.groupId();
    });
    return monitor::summariesOf(groups);
}

const QSet<QString> watchingOrders{orders};
const QSet<QString> watchingBoth{orders, billing};

// A refresh of two groups, billing and orders, with these verdicts.
QList<monitor::GroupSummary> billingAndOrders(lag::GroupStatus billingHealth,
                                              lag::GroupStatus ordersHealth) {
    return cluster({group(billing, billingHealth), group(orders, ordersHealth)});
}

} // namespace

class TestAlertDecider : public QObject {
    Q_OBJECT

private slots:
    void theFirstRefreshIsABaselineEvenForAGroupInTrouble() {
        AlertDecider decider;
        const auto first = decider.observe(
            cluster({group(orders, lag::GroupStatus::Error, lag::PartitionStatus::Stall)}),
            watchingOrders, 1000);
        QVERIFY(first.isEmpty());
        const auto second = decider.observe(
            cluster({group(orders, lag::GroupStatus::Error, lag::PartitionStatus::Stall)}),
            watchingOrders, 3000);
        QVERIFY(second.isEmpty());
    }

    void aVerdictGettingWorseAlertsFromAndTo() {
        AlertDecider decider;
        decider.observe(cluster({group(orders, lag::GroupStatus::Ok)}), watchingOrders, 1000);
        GroupSnapshot stalled = group(orders, lag::GroupStatus::Error, lag::PartitionStatus::Stall);
        stalled.trend.edit().healthReason = QStringLiteral("orders-0: committing the same offset");
        const QList<Alert> alerts = decider.observe(cluster({stalled}), watchingOrders, 3000);
        QCOMPARE(alerts.size(), 1);
        QCOMPARE(alerts.first().kind, AlertKind::Health);
        QCOMPARE(alerts.first().group, orders);
        QCOMPARE(alerts.first().from, QStringLiteral("OK"));
        QCOMPARE(alerts.first().to, QStringLiteral("ERR (STALL)"));
        QCOMPARE(alerts.first().atMs, 3000);
        QCOMPARE(alerts.first().detail, stalled.trend->healthReason);
        QCOMPARE(alerts.first().title(),
                 QStringLiteral("orders-app \u2014 health: OK \u2192 ERR (STALL)"));
    }

    void theFirstVerdictIsABaselineToo() {
        AlertDecider decider;
        decider.observe(cluster({group(orders, lag::GroupStatus::NotFound)}), watchingOrders, 0);
        QVERIFY(
            decider.observe(cluster({group(orders, lag::GroupStatus::Warning)}), watchingOrders, 1)
                .isEmpty());
        const auto worse = decider.observe(
            cluster({group(orders, lag::GroupStatus::Error, lag::PartitionStatus::Stop)}),
            watchingOrders, 2);
        QCOMPARE(worse.size(), 1);
        QCOMPARE(worse.first().from, QStringLiteral("WARN"));
        QCOMPARE(worse.first().to, QStringLiteral("ERR (STOP)"));
    }

    void recoveryIsQuietAndAnotherErrorKindAlerts() {
        AlertDecider decider;
        decider.observe(
            cluster({group(orders, lag::GroupStatus::Error, lag::PartitionStatus::Stop)}),
            watchingOrders, 0);
        const auto otherError = decider.observe(
            cluster({group(orders, lag::GroupStatus::Error, lag::PartitionStatus::Stall)}),
            watchingOrders, 1);
        QCOMPARE(otherError.size(), 1);
        QCOMPARE(otherError.first().to, QStringLiteral("ERR (STALL)"));
        QVERIFY(
            decider.observe(cluster({group(orders, lag::GroupStatus::Warning)}), watchingOrders, 2)
                .isEmpty());
        QVERIFY(decider.observe(cluster({group(orders, lag::GroupStatus::Ok)}), watchingOrders, 3)
                    .isEmpty());
    }

    void aFlappingVerdictAlertsOnceUntilTheRepeatTimePassed() {
        AlertDecider decider(AlertDecider::Options{60'000});
        int64_t now = 0;
        int raised = 0;
        for (int flap = 0; flap < 10; ++flap) {
            now += 2000;
            raised += int(
                decider.observe(cluster({group(orders, lag::GroupStatus::Ok)}), watchingOrders, now)
                    .size());
            now += 2000;
            raised += int(decider
                              .observe(cluster({group(orders, lag::GroupStatus::Warning)}),
                                       watchingOrders, now)
                              .size());
        }
        QCOMPARE(raised, 1);
        decider.observe(cluster({group(orders, lag::GroupStatus::Ok)}), watchingOrders,
                        now + 60'000);
        QCOMPARE(decider
                     .observe(cluster({group(orders, lag::GroupStatus::Warning)}), watchingOrders,
                              now + 62'000)
                     .size(),
                 1);
    }

    void onlyWatchedGroupsAlertAndWatchingAgainStartsWithABaseline() {
        AlertDecider decider;
        decider.observe(billingAndOrders(lag::GroupStatus::Ok, lag::GroupStatus::Ok),
                        watchingOrders, 0);
        const auto alerts = decider.observe(
            billingAndOrders(lag::GroupStatus::Warning, lag::GroupStatus::Ok), watchingOrders, 1);
        QVERIFY(alerts.isEmpty()); // billing is not watched
        // Unwatched for a refresh, then watched again: the next one is a baseline.
        decider.observe(cluster({group(orders, lag::GroupStatus::Ok)}), {}, 2);
        decider.observe(cluster({group(orders, lag::GroupStatus::Ok)}), watchingBoth, 3);
        QCOMPARE(
            decider.observe(cluster({group(orders, lag::GroupStatus::Warning)}), watchingBoth, 4)
                .size(),
            1);
    }

    void alertsOfOneRefreshComeInTheOrderOfTheirGroups() {
        AlertDecider decider;
        decider.observe(billingAndOrders(lag::GroupStatus::Ok, lag::GroupStatus::Ok), watchingBoth,
                        0);
        const auto alerts =
            decider.observe(billingAndOrders(lag::GroupStatus::Warning, lag::GroupStatus::Warning),
                            watchingBoth, 1);
        QCOMPARE(alerts.size(), 2);
        QCOMPARE(alerts.at(0).group, billing);
        QCOMPARE(alerts.at(1).group, orders);
    }

    void aStuckRebalanceAStormAndTheLastMemberLeavingAlert() {
        AlertDecider decider;
        decider.observe(cluster({group(orders, lag::GroupStatus::Ok, {}, 2)}), watchingOrders, 0);
        GroupSnapshot stuck = group(orders, lag::GroupStatus::Ok, {}, 2);
        stuck.trend.edit().rebalance.rebalancing = true;
        stuck.trend.edit().rebalance.stuckRebalance = true;
        stuck.trend.edit().rebalance.currentRebalanceSeconds = 52;
        stuck.trend.edit().rebalance.joinedMembers = {QStringLiteral("m-9")};
        stuck.trend.edit().rebalance.rebalancesLast10Min = 6;
        stuck.trend.edit().rebalance.rebalanceStorm = true;
        const QList<Alert> alerts = decider.observe(cluster({stuck}), watchingOrders, 1);
        QCOMPARE(alerts.size(), 2);
        QCOMPARE(alerts.at(0).kind, AlertKind::StuckRebalance);
        QCOMPARE(alerts.at(0).to, QStringLiteral("stuck for 52 s"));
        QVERIFY2(alerts.at(0).detail.contains(QStringLiteral("member m-9 joined")),
                 qPrintable(alerts.at(0).detail));
        QCOMPARE(alerts.at(1).kind, AlertKind::RebalanceStorm);
        QCOMPARE(alerts.at(1).to, QStringLiteral("6 in 10 min"));
        const QList<Alert> emptied = decider.observe(
            cluster({group(orders, lag::GroupStatus::Ok, {}, 0)}), watchingOrders, 2);
        QCOMPARE(emptied.size(), 1);
        QCOMPARE(emptied.first().kind, AlertKind::GroupEmptied);
        QCOMPARE(emptied.first().from, QStringLiteral("2 members"));
        QCOMPARE(emptied.first().to, QStringLiteral("empty"));
    }

    void lagThresholdsAlertWhenCrossedUpwardsOnly() {
        AlertDecider decider;
        alerts::AlertThresholds thresholds;
        thresholds.maxTotalLag = 1000;
        decider.setThresholds({{orders, thresholds}});
        decider.observe(cluster({group(orders, lag::GroupStatus::Ok, {}, 1, 900)}), watchingOrders,
                        0);
        const auto above = decider.observe(
            cluster({group(orders, lag::GroupStatus::Ok, {}, 1, 25'000)}), watchingOrders, 1);
        QCOMPARE(above.size(), 1);
        QCOMPARE(above.first().kind, AlertKind::LagAbove);
        QCOMPARE(above.first().from, QStringLiteral("900"));
        QCOMPARE(above.first().to, QStringLiteral("25,000"));
        QVERIFY(decider
                    .observe(cluster({group(orders, lag::GroupStatus::Ok, {}, 1, 30'000)}),
                             watchingOrders, 2)
                    .isEmpty());
        // Without a threshold lag alone never alerts.
        AlertDecider plain;
        plain.observe(cluster({group(orders, lag::GroupStatus::Ok, {}, 1, 0)}), watchingOrders, 0);
        QVERIFY(plain
                    .observe(cluster({group(orders, lag::GroupStatus::Ok, {}, 1, 1'000'000)}),
                             watchingOrders, 1)
                    .isEmpty());
    }

    void resetStartsEveryGroupWithABaseline() {
        AlertDecider decider;
        decider.observe(cluster({group(orders, lag::GroupStatus::Ok)}), watchingOrders, 0);
        decider.reset();
        QVERIFY(
            decider.observe(cluster({group(orders, lag::GroupStatus::Warning)}), watchingOrders, 1)
                .isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestAlertDecider)
#include "TestAlertDecider.moc"
