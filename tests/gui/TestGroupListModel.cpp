// GroupListModel and GroupFilterProxyModel fed with synthetic ClusterSnapshots: refreshes
// are applied as diffs (dataChanged on changed cells, inserted and removed rows, never a
// reset), selection survives, sorting is numeric (time lags by duration), the filter matches groups
// and topics.

#include "models/BackgroundSortPool.h"
#include "models/GroupFilterProxyModel.h"
#include "models/GroupListModel.h"

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>

#include <atomic>
#include <limits>

#if defined(Q_OS_LINUX)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

using namespace groupscope;
using groupscope::ui::GroupFilterProxyModel;
using groupscope::ui::GroupListModel;

namespace {

// A group with `members` members and one committed partition per entry of `lags`.
monitor::GroupSnapshot group(const QString& id, kafka::GroupState state, int members,
                             QList<int64_t> lags, const QString& topic = QStringLiteral("orders")) {
    monitor::GroupSnapshot snapshot;
    snapshot.description.groupId = id;
    snapshot.description.state = state;
    for (int i = 0; i < members; ++i) {
        kafka::MemberDescription member;
        member.memberId = QStringLiteral("member-%1").arg(i);
        snapshot.description.members.append(member);
    }
    for (int partition = 0; partition < lags.size(); ++partition) {
        monitor::PartitionSnapshot row;
        row.topicPartition = {topic, partition};
        row.committedOffset = 100;
        row.logEndOffset = 100 + lags[partition];
        row.lag = lags[partition];
        snapshot.partitions.append(row);
    }
    return snapshot;
}

monitor::ClusterSnapshot cluster(QList<monitor::GroupSnapshot> groups) {
    monitor::ClusterSnapshot snapshot;
    snapshot.takenAt = QDateTime::currentDateTimeUtc();
    snapshot.groups = std::move(groups);
    return snapshot;
}

using kafka::GroupState;

monitor::ClusterSnapshot threeGroups() {
    return cluster({group(QStringLiteral("alpha"), GroupState::Stable, 2, {5, 7}),
                    group(QStringLiteral("bravo"), GroupState::Empty, 0, {1200}),
                    group(QStringLiteral("charlie"), GroupState::Stable, 1, {900})});
}

QStringList strings(std::initializer_list<const char*> items) {
    QStringList list;
    for (const char* item : items)
        list.append(QString::fromUtf8(item));
    return list;
}

QStringList column(const QAbstractItemModel& model, int column) {
    QStringList values;
    for (int row = 0; row < model.rowCount(); ++row)
        values.append(model.index(row, column).data().toString());
    return values;
}

// What MainWindow hands the model: the snapshot's summaries (ClusterView::groupList).
void showIn(GroupListModel& model, const monitor::ClusterSnapshot& snapshot) {
    model.applySummaries(monitor::summariesOf(snapshot.groups));
}

// `count` groups g000000, g000001, ... of one partition each, group i at lag i % 1000,
// except the groups of `bumped`, at their lag there.
monitor::ClusterSnapshot numberedGroups(int count, const QMap<int, int64_t>& bumped = {},
                                        int left = -1) {
    QList<monitor::GroupSnapshot> groups;
    groups.reserve(count);
    for (int i = 0; i < count; ++i)
        if (i != left)
            groups.append(group(QStringLiteral("g%1").arg(i, 6, 10, QChar(u'0')),
                                GroupState::Stable, 1, {bumped.value(i, i % 1000)}));
    return cluster(std::move(groups));
}

// Lets every re-sort on a pool thread finish and be applied.
void settleBackgroundSorts() {
    QThreadPool& sorts = ui::BackgroundSortPool::threads();
    do {
        sorts.waitForDone();
        QCoreApplication::sendPostedEvents();
    } while (sorts.activeThreadCount() > 0);
}

QString groupShownFirst(const QAbstractItemModel& proxy) {
    return proxy.index(0, GroupListModel::GroupColumn).data().toString();
}

} // namespace

class TestGroupListModel : public QObject {
    Q_OBJECT

private slots:
    void showsOneRowPerGroupWithItsFigures() {
        GroupListModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        showIn(model, threeGroups());
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(column(model, GroupListModel::GroupColumn),
                 strings({"alpha", "bravo", "charlie"}));
        QCOMPARE(column(model, GroupListModel::StateColumn),
                 strings({"Stable", "Empty", "Stable"}));
        QCOMPARE(column(model, GroupListModel::MembersColumn), strings({"2", "0", "1"}));
        QCOMPARE(model.index(0, GroupListModel::TotalLagColumn).data(GroupListModel::SortRole),
                 QVariant(qlonglong(12)));
        QCOMPARE(model.index(1, GroupListModel::TotalLagColumn).data(GroupListModel::SortRole),
                 QVariant(qlonglong(1200)));
        const auto alignment = model.index(0, GroupListModel::TotalLagColumn)
                                   .data(Qt::TextAlignmentRole)
                                   .value<Qt::Alignment>();
        QVERIFY(alignment & Qt::AlignRight);
    }

    void groupWithoutCommitsHasNoLagRatherThanZero() {
        GroupListModel model;
        showIn(model, cluster({group(QStringLiteral("fresh"), GroupState::Stable, 1, {})}));
        QCOMPARE(model.index(0, GroupListModel::TotalLagColumn).data(GroupListModel::SortRole),
                 QVariant(qlonglong(-1)));
        QVERIFY(model.index(0, GroupListModel::TotalLagColumn).data().toString() !=
                QLatin1String("0"));
    }

    void unchangedRefreshEmitsNothing() {
        GroupListModel model;
        showIn(model, threeGroups());
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy layout(&model, &QAbstractItemModel::layoutChanged);
        showIn(model, threeGroups());
        QCOMPARE(changed.count() + inserted.count() + removed.count() + reset.count() +
                     layout.count(),
                 0);
    }

    void changedCellsGetDataChangedAndNothingElse() {
        GroupListModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        showIn(model, threeGroups());
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);

        auto next = threeGroups();
        next.groups[1] = group(QStringLiteral("bravo"), GroupState::Empty, 0, {1500}); // lag only
        next.groups[2] = group(QStringLiteral("charlie"), GroupState::PreparingRebalance, 3, {900});
        showIn(model, next);

        QCOMPARE(reset.count(), 0);
        // bravo: total lag; charlie: state and members, adjacent cells in one signal.
        QCOMPARE(changed.count(), 2);
        QSet<QPair<int, int>> cells;
        for (const auto& arguments : changed) {
            const auto topLeft = arguments.at(0).toModelIndex();
            const auto bottomRight = arguments.at(1).toModelIndex();
            QCOMPARE(topLeft.row(), bottomRight.row());
            for (int c = topLeft.column(); c <= bottomRight.column(); ++c)
                cells.insert({topLeft.row(), c});
        }
        QCOMPARE(cells, (QSet<QPair<int, int>>{{1, GroupListModel::TotalLagColumn},
                                               {2, GroupListModel::StateColumn},
                                               {2, GroupListModel::MembersColumn}}));
        QCOMPARE(model.index(1, GroupListModel::TotalLagColumn).data(GroupListModel::SortRole),
                 QVariant(qlonglong(1500)));
        QCOMPARE(model.index(2, GroupListModel::StateColumn).data().toString(),
                 QStringLiteral("PreparingRebalance"));
    }

    void appearingAndVanishingGroupsAreInsertedAndRemoved() {
        GroupListModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        showIn(model, threeGroups());
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);

        // bravo leaves; aardvark (first) and delta, echo (last, one run) arrive.
        showIn(model, cluster({group(QStringLiteral("aardvark"), GroupState::Empty, 0, {1}),
                               group(QStringLiteral("alpha"), GroupState::Stable, 2, {5, 7}),
                               group(QStringLiteral("charlie"), GroupState::Stable, 1, {900}),
                               group(QStringLiteral("delta"), GroupState::Stable, 1, {2}),
                               group(QStringLiteral("echo"), GroupState::Stable, 1, {3})}));
        QCOMPARE(reset.count(), 0);
        QCOMPARE(removed.count(), 1);
        QCOMPARE(removed.at(0).at(1).toInt(), 1);
        QCOMPARE(removed.at(0).at(2).toInt(), 1);
        QCOMPARE(inserted.count(), 2);
        QCOMPARE(inserted.at(0).at(1).toInt(), 0);
        QCOMPARE(inserted.at(0).at(2).toInt(), 0);
        QCOMPARE(inserted.at(1).at(1).toInt(), 3);
        QCOMPARE(inserted.at(1).at(2).toInt(), 4);
        QCOMPARE(column(model, GroupListModel::GroupColumn),
                 strings({"aardvark", "alpha", "charlie", "delta", "echo"}));

        showIn(model, cluster({}));
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(reset.count(), 0);
    }

    void groupsThatDoNotExistAreNotListed() {
        GroupListModel model;
        showIn(model, cluster({group(QStringLiteral("gone"), GroupState::Dead, 0, {}),
                               group(QStringLiteral("here"), GroupState::Empty, 0, {4})}));
        QCOMPARE(column(model, GroupListModel::GroupColumn), strings({"here"}));
    }

    void selectionSurvivesRefreshesThroughTheSortedProxy() {
        GroupListModel model;
        GroupFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(GroupListModel::TotalLagColumn, Qt::DescendingOrder);
        showIn(model, threeGroups());
        QItemSelectionModel selection(&proxy);
        const auto charlie = proxy.match(proxy.index(0, 0), GroupListModel::GroupIdRole,
                                         QStringLiteral("charlie"), 1, Qt::MatchExactly);
        QCOMPARE(charlie.size(), 1);
        selection.select(charlie.first(),
                         QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);

        // charlie's lag now sorts it first, and a new group arrives before it.
        showIn(model, cluster({group(QStringLiteral("aardvark"), GroupState::Empty, 0, {1}),
                               group(QStringLiteral("alpha"), GroupState::Stable, 2, {5, 7}),
                               group(QStringLiteral("bravo"), GroupState::Empty, 0, {1200}),
                               group(QStringLiteral("charlie"), GroupState::Stable, 1, {5000})}));
        const auto selected = selection.selectedRows();
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.first().data(GroupListModel::GroupIdRole).toString(),
                 QStringLiteral("charlie"));
        QCOMPARE(selected.first().row(), 0);
    }

    void starsWatchedGroupsAndExplainsRebalancesInTheHealthTooltip() {
        GroupListModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        monitor::ClusterSnapshot snapshot = threeGroups();
        lag::RebalanceHealth& rebalance = snapshot.groups[1].trend.edit().rebalance;
        rebalance.rebalancing = true;
        rebalance.currentRebalanceSeconds = 52;
        rebalance.stuckRebalance = true;
        rebalance.rebalancesLast10Min = 2;
        rebalance.longestRebalanceSeconds = 52;
        rebalance.stuckAfterSeconds = 10;
        rebalance.stuckAfterSource = lag::StuckThresholdSource::GroupTimeouts;
        rebalance.joinedMembers = {QStringLiteral("worker-2")};
        snapshot.groups[1].trend.edit().health = lag::GroupStatus::Error;
        snapshot.groups[1].trend.edit().healthReason = rebalance.reason();
        showIn(model, snapshot);
        const QString id = snapshot.groups[1].groupId();
        const int row = model.rowOf(id);
        const QString tooltip =
            model.index(row, GroupListModel::HealthColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(tooltip.startsWith(QStringLiteral(
                     "rebalance stuck for 52 s (longer than the group's 10 s timeout)\n")),
                 qPrintable(tooltip));
        QVERIFY2(tooltip.contains(QStringLiteral("2 rebalances in 10 min, longest 52 s; cause: "
                                                 "member worker-2 joined")),
                 qPrintable(tooltip));

        QCOMPARE(model.index(row, GroupListModel::WatchColumn).data().toString(),
                 QStringLiteral("\u2606"));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setWatchedGroups({id});
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.first().at(0).toModelIndex(),
                 model.index(row, GroupListModel::WatchColumn));
        QCOMPARE(model.index(row, GroupListModel::WatchColumn).data().toString(),
                 QStringLiteral("\u2605"));
        QCOMPARE(model.index(row, 0).data(GroupListModel::WatchedRole).toBool(), true);
        // A refresh keeps the star.
        showIn(model, snapshot);
        QCOMPARE(model.index(row, GroupListModel::WatchColumn).data().toString(),
                 QStringLiteral("\u2605"));
    }

    void showsTimeLagHealthAndTheLagTrend() {
        GroupListModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        monitor::ClusterSnapshot snapshot = threeGroups();
        snapshot.groups[0].trend.edit().maxTimeLag = {lag::TimeLag::Status::Estimated, 200, false};
        snapshot.groups[0].trend.edit().health = lag::GroupStatus::Warning;
        snapshot.groups[0].trend.edit().healthReason = QStringLiteral("orders-1: lag grew");
        snapshot.groups[0].trend.edit().recentTotalLag = {5, 9, 12};
        snapshot.groups[1].trend.edit().maxTimeLag = {lag::TimeLag::Status::CaughtUp, 0, false};
        snapshot.groups[1].trend.edit().health = lag::GroupStatus::Ok;
        showIn(model, snapshot);

        QCOMPARE(column(model, GroupListModel::TimeLagColumn),
                 strings({"3m 20s", "0 s", "\u2013"}));
        QCOMPARE(column(model, GroupListModel::HealthColumn), strings({"WARN", "OK", "\u2013"}));
        QCOMPARE(model.index(0, GroupListModel::HealthColumn).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("orders-1: lag grew"));
        QCOMPARE(model.index(0, GroupListModel::LagTrendColumn)
                     .data(GroupListModel::LagTrendRole)
                     .value<monitor::LagSparkline>(),
                 monitor::LagSparkline({5, 9, 12}));
        // Unknown time lags sort below caught-up ones, caught-up below any delay.
        const auto timeLagKey = [&](int row) {
            return model.index(row, GroupListModel::TimeLagColumn)
                .data(GroupListModel::SortRole)
                .toDouble();
        };
        QVERIFY(timeLagKey(2) < timeLagKey(1));
        QVERIFY(timeLagKey(1) < timeLagKey(0));

        // A new sample changes the trend cell only.
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        snapshot.groups[0].trend.edit().recentTotalLag.append(15);
        showIn(model, snapshot);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().at(0).toModelIndex().column(),
                 int(GroupListModel::LagTrendColumn));
        QCOMPARE(changed.first().at(1).toModelIndex().column(),
                 int(GroupListModel::LagTrendColumn));
    }

    void sortsNumericallyNotAlphabetically() {
        GroupListModel model;
        GroupFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        showIn(model, cluster({group(QStringLiteral("a"), GroupState::Stable, 10, {900}),
                               group(QStringLiteral("b"), GroupState::Stable, 9, {1200}),
                               group(QStringLiteral("c"), GroupState::Stable, 100, {85}),
                               group(QStringLiteral("d"), GroupState::Stable, 2, {})}));
        proxy.sort(GroupListModel::TotalLagColumn, Qt::AscendingOrder);
        QCOMPARE(column(proxy, GroupListModel::GroupColumn), strings({"d", "c", "a", "b"}));
        proxy.sort(GroupListModel::MembersColumn, Qt::DescendingOrder);
        QCOMPARE(column(proxy, GroupListModel::GroupColumn), strings({"c", "a", "b", "d"}));
        proxy.sort(GroupListModel::GroupColumn, Qt::DescendingOrder);
        QCOMPARE(column(proxy, GroupListModel::GroupColumn), strings({"d", "c", "b", "a"}));
    }

    // The proxy sorts number columns on keys read once per row: ties keep the group order in
    // both directions, lags past a double's 53 bits keep every digit, and time lags keep
    // their fractions of a second.
    void sortKeysAreExactAndTiesKeepTheGroupOrder() {
        GroupListModel model;
        GroupFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        constexpr int64_t twoTo53 = int64_t(1) << 53; // 2^53 + 1 is no double
        monitor::ClusterSnapshot snapshot =
            cluster({group(QStringLiteral("a"), GroupState::Stable, 1, {twoTo53 + 1}),
                     group(QStringLiteral("b"), GroupState::Stable, 1, {7}),
                     group(QStringLiteral("c"), GroupState::Stable, 1, {twoTo53}),
                     group(QStringLiteral("d"), GroupState::Stable, 1, {7})});
        snapshot.groups[0].trend.edit().maxTimeLag = {lag::TimeLag::Status::Estimated, 90.5, false};
        snapshot.groups[1].trend.edit().maxTimeLag = {lag::TimeLag::Status::Estimated, 90.25,
                                                      false};
        snapshot.groups[2].trend.edit().maxTimeLag = {lag::TimeLag::Status::Estimated, 90.5, false};
        snapshot.groups[3].trend.edit().maxTimeLag = {lag::TimeLag::Status::Estimated, 90.75,
                                                      false};
        showIn(model, snapshot);
        proxy.sort(GroupListModel::TotalLagColumn, Qt::DescendingOrder);
        QCOMPARE(column(proxy, GroupListModel::GroupColumn), strings({"a", "c", "b", "d"}));
        proxy.sort(GroupListModel::TotalLagColumn, Qt::AscendingOrder);
        QCOMPARE(column(proxy, GroupListModel::GroupColumn), strings({"b", "d", "c", "a"}));
        proxy.sort(GroupListModel::TimeLagColumn, Qt::DescendingOrder);
        QCOMPARE(column(proxy, GroupListModel::GroupColumn), strings({"d", "a", "c", "b"}));
        proxy.sort(GroupListModel::TimeLagColumn, Qt::AscendingOrder);
        QCOMPARE(column(proxy, GroupListModel::GroupColumn), strings({"b", "a", "c", "d"}));
        // The members column is all ties: the group order, whichever way.
        proxy.sort(GroupListModel::MembersColumn, Qt::DescendingOrder);
        QCOMPARE(column(proxy, GroupListModel::GroupColumn), strings({"a", "b", "c", "d"}));
    }

    void sortsTimeLagByDurationAndGroupsCaseInsensitively() {
        GroupListModel model;
        GroupFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        monitor::ClusterSnapshot snapshot =
            cluster({group(QStringLiteral("Beta"), GroupState::Stable, 1, {5}),
                     group(QStringLiteral("alpha"), GroupState::Stable, 1, {5}),
                     group(QStringLiteral("gamma"), GroupState::Stable, 1, {5}),
                     group(QStringLiteral("delta"), GroupState::Stable, 1, {5})});
        // 90 s and 600 s: as text, "600" would sort before "90".
        snapshot.groups[0].trend.edit().maxTimeLag = {lag::TimeLag::Status::Estimated, 600, false};
        snapshot.groups[1].trend.edit().maxTimeLag = {lag::TimeLag::Status::Estimated, 90, false};
        snapshot.groups[2].trend.edit().maxTimeLag = {lag::TimeLag::Status::CaughtUp, 0, false};
        showIn(model, snapshot); // delta's time lag stays unknown
        proxy.sort(GroupListModel::TimeLagColumn, Qt::DescendingOrder);
        QCOMPARE(column(proxy, GroupListModel::GroupColumn),
                 strings({"Beta", "alpha", "gamma", "delta"}));
        proxy.sort(GroupListModel::GroupColumn, Qt::AscendingOrder);
        QCOMPARE(column(proxy, GroupListModel::GroupColumn),
                 strings({"alpha", "Beta", "delta", "gamma"}));
    }

    void filterMatchesGroupIdsAndTopicsCaseInsensitively() {
        GroupListModel model;
        GroupFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(GroupListModel::GroupColumn, Qt::AscendingOrder);
        showIn(model, cluster({group(QStringLiteral("billing"), GroupState::Stable, 1, {1},
                                     QStringLiteral("payments")),
                               group(QStringLiteral("fraud"), GroupState::Stable, 1, {1},
                                     QStringLiteral("Payments-EU")),
                               group(QStringLiteral("search"), GroupState::Stable, 1, {1},
                                     QStringLiteral("orders"))}));
        proxy.setFilterText(QStringLiteral("PAYMENTS"));
        QCOMPARE(column(proxy, GroupListModel::GroupColumn), strings({"billing", "fraud"}));
        proxy.setFilterText(QStringLiteral(" sea "));
        QCOMPARE(column(proxy, GroupListModel::GroupColumn), strings({"search"}));
        proxy.setFilterText({});
        QCOMPARE(proxy.rowCount(), 3);
    }

    // The re-sort's threads weigh less with the scheduler than the GUI thread.
    void theSortPoolRunsBelowTheGuiThread() {
#if defined(Q_OS_LINUX)
        const auto niceOfThisThread = [] {
            return getpriority(PRIO_PROCESS, id_t(syscall(SYS_gettid)));
        };
        const int guiNice = niceOfThisThread(); // 0 unless the test runs under nice(1)
        std::atomic<int> nice = -100;
        ui::BackgroundSortPool::start([&] { nice = niceOfThisThread(); });
        QVERIFY(ui::BackgroundSortPool::threads().waitForDone(10'000));
        QCOMPARE(nice.load(), std::min(guiNice + ui::BackgroundSortPool::niceSteps,
                                       ui::BackgroundSortPool::highestNice));
        QCOMPARE(niceOfThisThread(), guiNice);
#else
        QSKIP("a thread's own nice value is Linux's");
#endif
    }

    // A long list's refresh is re-sorted on a pool thread: the refresh leaves the last order
    // on the GUI thread, the new one follows with the selection on its group, and a sort
    // overtaken by a change of the source's rows is never applied.
    void aLongListIsResortedOnAPoolThreadAfterARefresh() {
        GroupListModel model;
        GroupFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const int count = int(GroupFilterProxyModel::backgroundSortRows) + 1000;
        showIn(model, numberedGroups(count));
        proxy.sort(GroupListModel::TotalLagColumn, Qt::DescendingOrder);
        QCOMPARE(groupShownFirst(proxy), QStringLiteral("g000999")); // lag 999, the first of it
        QItemSelectionModel selection(&proxy);
        const auto g500 = proxy.match(proxy.index(0, 0), GroupListModel::GroupIdRole,
                                      QStringLiteral("g000500"), 1, Qt::MatchExactly);
        QCOMPARE(g500.size(), 1);
        selection.select(g500.first(),
                         QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);

        // The view hears of a refresh once, when its new order is taken: a layout change
        // when the order moved, the changed cells when it stayed; never both.
        QSignalSpy cellsChanged(&proxy, &QAbstractItemModel::dataChanged);
        QSignalSpy layoutChanged(&proxy, &QAbstractItemModel::layoutChanged);
        showIn(model, numberedGroups(count, {{500, 1'000'000}}));
        QCOMPARE(groupShownFirst(proxy), QStringLiteral("g000999"));
        QCOMPARE(proxy.index(0, GroupListModel::TotalLagColumn).data(GroupListModel::SortRole),
                 QVariant(qlonglong(999))); // the refreshed value, in the last order
        QCOMPARE(cellsChanged.size(), 0);
        settleBackgroundSorts();
        QCOMPARE(groupShownFirst(proxy), QStringLiteral("g000500"));
        QCOMPARE(selection.selectedRows().size(), 1);
        QCOMPARE(selection.selectedRows().first().row(), 0);
        QCOMPARE(layoutChanged.size(), 1);
        QCOMPARE(cellsChanged.size(), 0);
        // g000500's lag grows and it stays first: the same order, its cells only.
        showIn(model, numberedGroups(count, {{500, 1'500'000}}));
        QCOMPARE(cellsChanged.size(), 0);
        settleBackgroundSorts();
        QCOMPARE(layoutChanged.size(), 1);
        QCOMPARE(cellsChanged.size(), 1);
        QCOMPARE(cellsChanged.first().at(0).value<QModelIndex>().row(), 0);
        QCOMPARE(proxy.index(0, GroupListModel::TotalLagColumn).data(GroupListModel::SortRole),
                 QVariant(qlonglong(1'500'000)));

        // A refresh starts a sort on a pool thread; before it is applied, a group vanishes.
        showIn(model, numberedGroups(count, {{500, 1'000'000}, {700, 2'000'000}}));
        showIn(model, numberedGroups(count, {{500, 1'000'000}, {700, 3'000'000}}, 1));
        QCOMPARE(groupShownFirst(proxy), QStringLiteral("g000700")); // sorted at once
        settleBackgroundSorts();
        QCOMPARE(proxy.rowCount(), count - 1);
        QCOMPARE(groupShownFirst(proxy), QStringLiteral("g000700"));
        qlonglong previous = std::numeric_limits<qlonglong>::max();
        for (int row = 0; row < proxy.rowCount(); ++row) {
            const qlonglong lag = proxy.index(row, GroupListModel::TotalLagColumn)
                                      .data(GroupListModel::SortRole)
                                      .toLongLong();
            QVERIFY2(lag <= previous, qPrintable(QStringLiteral("row %1").arg(row)));
            previous = lag;
        }
        QCOMPARE(selection.selectedRows().first().data(GroupListModel::GroupIdRole).toString(),
                 QStringLiteral("g000500"));
    }

    // By group id, a long list's refresh cannot change the order: its cells are signalled
    // at once and nothing is re-sorted.
    void aLongListByGroupIdIsNotResortedAfterARefresh() {
        GroupListModel model;
        GroupFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        const int count = int(GroupFilterProxyModel::backgroundSortRows) + 1000;
        showIn(model, numberedGroups(count));
        proxy.sort(GroupListModel::GroupColumn, Qt::DescendingOrder);
        QCOMPARE(groupShownFirst(proxy), QStringLiteral("g%1").arg(count - 1, 6, 10, QChar(u'0')));
        QSignalSpy cellsChanged(&proxy, &QAbstractItemModel::dataChanged);
        QSignalSpy layoutChanged(&proxy, &QAbstractItemModel::layoutChanged);
        showIn(model, numberedGroups(count, {{500, 1'000'000}}));
        QCOMPARE(cellsChanged.size(), 1);
        QCOMPARE(cellsChanged.first().at(0).value<QModelIndex>().row(), count - 1 - 500);
        settleBackgroundSorts();
        QCOMPARE(layoutChanged.size(), 0);
        QCOMPARE(cellsChanged.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestGroupListModel)
#include "TestGroupListModel.moc"
