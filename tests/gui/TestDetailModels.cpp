// The group detail's models and the offsets table without a broker: diff updates keep
// unchanged cells quiet, QAbstractItemModelTester checks every model, and a refresh never
// touches a user's edit or the editor that is open on it.

#include "delegates/ResetValueDelegate.h"
#include "models/GroupFilterProxyModel.h"
#include "models/GroupListModel.h"
#include "models/MemberTableModel.h"
#include "models/OffsetEditModel.h"
#include "models/PartitionTableModel.h"
#include "models/TableText.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDateTime>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace groupscope;
using groupscope::ui::MemberTableModel;
using groupscope::ui::OffsetEditModel;
using groupscope::ui::PartitionTableModel;

namespace {

monitor::PartitionSnapshot partition(const QString& topic, int number, int64_t committed,
                                     int64_t logEnd, const QString& clientId = {}) {
    monitor::PartitionSnapshot snapshot;
    snapshot.topicPartition = {topic, number};
    snapshot.committedOffset = committed;
    snapshot.logStartOffset = 0;
    snapshot.logEndOffset = logEnd;
    snapshot.lag = logEnd - committed;
    snapshot.owner = monitor::PartitionOwner({}, clientId, {});
    return snapshot;
}

monitor::GroupSnapshot group(const QString& id, const QList<monitor::PartitionSnapshot>& partitions,
                             kafka::GroupState state = kafka::GroupState::Empty) {
    monitor::GroupSnapshot snapshot;
    snapshot.description.groupId = id;
    snapshot.description.state = state;
    snapshot.description.protocolType = QStringLiteral("consumer");
    snapshot.description.partitionAssignor = QStringLiteral("range");
    snapshot.partitions = partitions;
    return snapshot;
}

kafka::MemberDescription member(const QString& id, const QString& clientId,
                                QList<kafka::TopicPartition> assignment) {
    kafka::MemberDescription description;
    description.memberId = id;
    description.clientId = clientId;
    description.host = QStringLiteral("/10.0.0.1");
    description.assignment = std::move(assignment);
    return description;
}

// Group "g": orders-0 committed at 5 of 10 (lag 5), orders-1 caught up at 7.
monitor::GroupSnapshot twoOrdersPartitions() {
    return group(QStringLiteral("g"), {partition(QStringLiteral("orders"), 0, 5, 10),
                                       partition(QStringLiteral("orders"), 1, 7, 7)});
}

} // namespace

class TestDetailModels : public QObject {
    Q_OBJECT

private slots:
    void partitionModelUpdatesOnlyChangedCells() {
        PartitionTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.applySnapshot(twoOrdersPartitions());
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, PartitionTableModel::LagColumn).data().toString(),
                 QStringLiteral("5"));
        QCOMPARE(model.index(0, PartitionTableModel::LagColumn)
                     .data(PartitionTableModel::MaxLagRole)
                     .toLongLong(),
                 5);

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        // Partition 1's log grows: its log end and lag change, nothing else.
        model.applySnapshot(
            group(QStringLiteral("g"), {partition(QStringLiteral("orders"), 0, 5, 10),
                                        partition(QStringLiteral("orders"), 1, 7, 9)}));
        QCOMPARE(resets.count(), 0);
        QCOMPARE(changed.count(), 1);
        const QModelIndex from = changed.first().at(0).toModelIndex();
        const QModelIndex to = changed.first().at(1).toModelIndex();
        QCOMPARE(from.row(), 1);
        QCOMPARE(to.row(), 1);
        QCOMPARE(from.column(), int(PartitionTableModel::LogEndColumn));
        QCOMPARE(to.column(), int(PartitionTableModel::LagColumn));

        // A new partition is inserted, a vanished one removed; a bigger lag repaints the bars.
        model.applySnapshot(
            group(QStringLiteral("g"), {partition(QStringLiteral("orders"), 1, 7, 9),
                                        partition(QStringLiteral("payments"), 0, 1, 100)}));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(1, PartitionTableModel::TopicColumn).data().toString(),
                 QStringLiteral("payments"));
        QCOMPARE(model.index(0, PartitionTableModel::LagColumn)
                     .data(PartitionTableModel::MaxLagRole)
                     .toLongLong(),
                 99);
    }

    void partitionModelShowsTheLiveMonitorsTimeLagAndLastCommit() {
        PartitionTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.applySnapshot(twoOrdersPartitions());
        QCOMPARE(model.index(0, PartitionTableModel::TimeLagColumn).data().toString(),
                 QStringLiteral("\u2013"));

        monitor::GroupMonitorSnapshot live;
        live.group = QStringLiteral("g");
        monitor::MonitoredPartition lagging;
        lagging.topicPartition = {QStringLiteral("orders"), 0};
        lagging.timeLag = {lag::TimeLag::Status::Estimated, 200, false};
        live.partitions = {lagging};
        const int64_t committedAt =
            QDateTime(QDate(2026, 11, 29), QTime(21, 0, 5)).toMSecsSinceEpoch();
        live.commits = {{{QStringLiteral("orders"), 1}, 7, committedAt - 60000, {}, false},
                        {{QStringLiteral("orders"), 1}, 7, committedAt, {}, false}};
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.applySnapshot(twoOrdersPartitions(), &live);
        QCOMPARE(model.index(0, PartitionTableModel::TimeLagColumn).data().toString(),
                 QStringLiteral("3m 20s"));
        QCOMPARE(model.index(1, PartitionTableModel::LastCommitColumn).data().toString(),
                 QStringLiteral("2026-11-29 21:00:05"));
        QCOMPARE(changed.count(), 2); // exactly the two cells that changed
        // The same again changes nothing.
        model.applySnapshot(twoOrdersPartitions(), &live);
        QCOMPARE(changed.count(), 2);
    }

    void memberModelListsAssignments() {
        MemberTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.applyMembers(
            {member(QStringLiteral("m-2"), QStringLiteral("billing-2"),
                    {{QStringLiteral("orders"), 1}}),
             member(QStringLiteral("m-1"), QStringLiteral("billing-1"),
                    {{QStringLiteral("orders"), 2}, {QStringLiteral("orders"), 0}})});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, MemberTableModel::ClientIdColumn).data().toString(),
                 QStringLiteral("billing-1"));
        QCOMPARE(model.index(0, MemberTableModel::AssignmentColumn).data().toString(),
                 QStringLiteral("orders: 0, 2"));
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        model.applyMembers({member(QStringLiteral("m-1"), QStringLiteral("billing-1"),
                                   {{QStringLiteral("orders"), 0}})});
        QCOMPARE(removed.count(), 1);
        QCOMPARE(model.rowCount(), 1);
    }

    void memberModelShowsAConsumerProtocolMembersReconciliation() {
        MemberTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        kafka::MemberDescription moving =
            member(QStringLiteral("m-1"), QStringLiteral("new-1"),
                   {{QStringLiteral("orders"), 0}, {QStringLiteral("orders"), 3}});
        moving.targetAssignment = QList<kafka::TopicPartition>{{QStringLiteral("orders"), 0},
                                                               {QStringLiteral("orders"), 4}};
        kafka::MemberDescription settled =
            member(QStringLiteral("m-2"), QStringLiteral("new-2"), {{QStringLiteral("orders"), 1}});
        settled.targetAssignment = settled.assignment;
        const kafka::MemberDescription classic =
            member(QStringLiteral("m-3"), QStringLiteral("old-3"), {{QStringLiteral("orders"), 2}});
        model.applyMembers({moving, settled, classic});
        const auto cell = [&](int row, int column) {
            return model.index(row, column).data().toString();
        };
        QCOMPARE(cell(0, MemberTableModel::TargetColumn), QStringLiteral("orders: 0, 4"));
        QCOMPARE(cell(0, MemberTableModel::ReconciliationColumn),
                 QStringLiteral("reconciling: revokes orders: 3; receives orders: 4"));
        QVERIFY(model.index(0, MemberTableModel::ReconciliationColumn)
                    .data(Qt::ForegroundRole)
                    .isValid());
        QCOMPARE(cell(1, MemberTableModel::ReconciliationColumn), QStringLiteral("done"));
        QCOMPARE(cell(2, MemberTableModel::TargetColumn), ui::tableText::none());

        // The member converges: the row says so on the next refresh.
        moving.assignment = *moving.targetAssignment;
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.applyMembers({moving, settled, classic});
        QCOMPARE(cell(0, MemberTableModel::ReconciliationColumn), QStringLiteral("done"));
        QVERIFY(changed.count() >= 1);
    }

    void memberModelShowsEpochsAndStreamsTasks() {
        MemberTableModel model;
        kafka::MemberDescription catchingUp =
            member(QStringLiteral("m-1"), QStringLiteral("c1"), {});
        catchingUp.memberEpoch = 4;
        catchingUp.targetEpoch = 5;
        catchingUp.tasks =
            kafka::StreamsTasks{{{QStringLiteral("0"), {0, 1}}}, {{QStringLiteral("1"), {2}}}, {}};
        catchingUp.targetTasks = kafka::StreamsTasks{{{QStringLiteral("0"), {0}}}, {}, {}};
        const kafka::MemberDescription classic =
            member(QStringLiteral("m-2"), QStringLiteral("c2"), {{QStringLiteral("orders"), 2}});
        model.applyMembers({catchingUp, classic});
        const auto cell = [&](int row, int column) {
            return model.index(row, column).data().toString();
        };
        QCOMPARE(cell(0, MemberTableModel::EpochColumn), QStringLiteral("4 \u2192 5"));
        QCOMPARE(cell(0, MemberTableModel::AssignmentColumn),
                 QStringLiteral("active 0_0, 0_1; standby 1_2"));
        QCOMPARE(cell(0, MemberTableModel::TargetColumn), QStringLiteral("active 0_0"));
        QVERIFY(catchingUp.isReconciling());
        QVERIFY(cell(0, MemberTableModel::ReconciliationColumn).startsWith(u"reconciling"));
        QCOMPARE(cell(1, MemberTableModel::EpochColumn), ui::tableText::none());
    }

    void groupListHasProtocolColumnAndStateFilter() {
        ui::GroupListModel model;
        ui::GroupFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        monitor::ClusterSnapshot snapshot;
        snapshot.groups = {group(QStringLiteral("a"), {partition(QStringLiteral("t"), 0, 1, 2)},
                                 kafka::GroupState::Stable),
                           group(QStringLiteral("b"), {partition(QStringLiteral("t"), 0, 1, 2)},
                                 kafka::GroupState::Empty),
                           group(QStringLiteral("c"), {partition(QStringLiteral("t"), 0, 1, 2)},
                                 kafka::GroupState::PreparingRebalance)};
        model.applySummaries(monitor::summariesOf(snapshot.groups));
        QCOMPARE(model.index(0, ui::GroupListModel::ProtocolColumn).data().toString(),
                 QStringLiteral("consumer · range"));
        QCOMPARE(proxy.rowCount(), 3);
        proxy.setStateFilter(ui::GroupFilterProxyModel::StateFilter::Rebalancing);
        QCOMPARE(proxy.rowCount(), 1);
        QCOMPARE(proxy.index(0, ui::GroupListModel::GroupColumn).data().toString(),
                 QStringLiteral("c"));
        proxy.setStateFilter(ui::GroupFilterProxyModel::StateFilter::Empty);
        QCOMPARE(proxy.index(0, ui::GroupListModel::GroupColumn).data().toString(),
                 QStringLiteral("b"));
        proxy.setStateFilter(ui::GroupFilterProxyModel::StateFilter::All);
        QCOMPARE(proxy.rowCount(), 3);
    }

    void offsetModelRefusesBadValuesAndSaysWhy() {
        OffsetEditModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setGroup(QStringLiteral("g"));
        model.applySnapshot(
            group(QStringLiteral("g"), {partition(QStringLiteral("orders"), 0, 5, 10)}));
        const QModelIndex mode = model.index(0, OffsetEditModel::ModeColumn);
        const QModelIndex value = model.index(0, OffsetEditModel::ValueColumn);
        QVERIFY(!(model.flags(value) & Qt::ItemIsEditable)); // "current" takes no value
        QVERIFY(model.setData(mode, int(offsets::ResetMode::ToOffset)));
        QCOMPARE(value.data().toString(), QStringLiteral("5")); // starts at the committed offset
        QVERIFY(model.flags(value) & Qt::ItemIsEditable);
        QVERIFY(!model.setData(value, QStringLiteral("-3")));
        QVERIFY(!model.lastRefusal().isEmpty());
        QVERIFY(!model.setData(value, QStringLiteral("12x")));
        QVERIFY(!ui::ResetValueDelegate::problemWith(int(offsets::ResetMode::ToOffset),
                                                     QStringLiteral("99999999999999999999"))
                     .isEmpty());
        QCOMPARE(value.data().toString(), QStringLiteral("5"));
        QVERIFY(model.setData(mode, int(offsets::ResetMode::ToDatetime)));
        QVERIFY(!model.setData(value, QStringLiteral("yesterday")));
        QVERIFY(model.setData(value, QStringLiteral("2024-01-31T12:00:00+01:00")));
        QVERIFY(model.setData(mode, int(offsets::ResetMode::ByDuration)));
        QVERIFY(!model.setData(value, QStringLiteral("1 hour")));
        QVERIFY(model.setData(value, QStringLiteral("PT1H30M")));
        QVERIFY(model.setData(mode, int(offsets::ResetMode::ShiftBy)));
        QVERIFY(model.setData(value, QStringLiteral("-100")));
        QCOMPARE(model.requests().size(), 1);
        QCOMPARE(model.requests().first().spec.offset, -100);
    }

    void editsAndOpenEditorSurviveRefreshes() {
        OffsetEditModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setGroup(QStringLiteral("g"));
        model.applySnapshot(
            group(QStringLiteral("g"), {partition(QStringLiteral("orders"), 0, 5, 10),
                                        partition(QStringLiteral("orders"), 1, 3, 10)}));
        QVERIFY(model.setSpec({0}, offsets::ResetMode::ToOffset, QStringLiteral("2")));
        QVERIFY(model.setSpec({1}, offsets::ResetMode::ShiftBy, QStringLiteral("1")));

        QTableView view;
        view.setModel(&model);
        view.setItemDelegateForColumn(OffsetEditModel::ValueColumn,
                                      new ui::ResetValueDelegate(OffsetEditModel::ModeRole, &view));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QModelIndex value = model.index(1, OffsetEditModel::ValueColumn);
        view.setCurrentIndex(value);
        view.edit(value);
        auto* editor = view.findChild<QLineEdit*>(QStringLiteral("resetValueEditor"));
        QVERIFY(editor);
        editor->selectAll();
        QTest::keyClicks(editor, QStringLiteral("-4"));
        QCOMPARE(editor->text(), QStringLiteral("-4"));
        // Enter on bad input keeps the editor open and the old value.
        QTest::keyClicks(editor, QStringLiteral("x"));
        QTest::keyClick(editor, Qt::Key_Return);
        QCOMPARE(view.indexWidget(value), editor);
        QCOMPARE(model.index(1, OffsetEditModel::ValueColumn).data().toString(),
                 QStringLiteral("1"));
        QTest::keyClick(editor, Qt::Key_Backspace);

        // The log and the commits move on; partition 0 even vanishes from the snapshot.
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        model.applySnapshot(
            group(QStringLiteral("g"), {partition(QStringLiteral("orders"), 1, 4, 20)}));
        model.applySnapshot(
            group(QStringLiteral("g"), {partition(QStringLiteral("orders"), 1, 6, 30)}));
        QCOMPARE(resets.count(), 0);
        QCOMPARE(view.indexWidget(model.index(1, OffsetEditModel::ValueColumn)),
                 editor); // still open
        QCOMPARE(view.findChild<QLineEdit*>(QStringLiteral("resetValueEditor")), editor);
        QCOMPARE(editor->text(), QStringLiteral("-4")); // what the user typed is untouched
        QCOMPARE(model.rowCount(), 2);                  // the edited partition stays
        QCOMPARE(model.index(0, OffsetEditModel::ValueColumn).data().toString(),
                 QStringLiteral("2"));
        QCOMPARE(model.index(1, OffsetEditModel::CurrentColumn).data().toString(),
                 QStringLiteral("6"));
        QCOMPARE(model.index(1, OffsetEditModel::LogEndColumn).data().toString(),
                 QStringLiteral("30"));

        // Enter commits the typed shift.
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_COMPARE(model.index(1, OffsetEditModel::ValueColumn).data().toString(),
                     QStringLiteral("-4"));
    }

    void previewFillsFromAPlanOfTheSameEdits() {
        OffsetEditModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setGroup(QStringLiteral("g"));
        model.applySnapshot(
            group(QStringLiteral("g"), {partition(QStringLiteral("orders"), 0, 5, 10)}));
        QVERIFY(model.setSpec({0}, offsets::ResetMode::ToOffset, QStringLiteral("2")));
        const quint64 generation = model.generation();
        offsets::ResetPlan plan;
        offsets::PlanRow row;
        row.groupId = QStringLiteral("g");
        row.topicPartition = {QStringLiteral("orders"), 0};
        row.committedOffset = 5;
        row.newOffset = 2;
        plan.rows = {row};
        // A plan for older edits is ignored.
        QVERIFY(model.setSpec({0}, offsets::ResetMode::ToOffset, QStringLiteral("3")));
        model.applyPlan(plan, generation);
        QVERIFY(!model.previewIsCurrent());
        plan.rows.first().newOffset = 3;
        model.applyPlan(plan, model.generation());
        QVERIFY(model.previewIsCurrent());
        QCOMPARE(model.index(0, OffsetEditModel::NewOffsetColumn).data().toString(),
                 QStringLiteral("3"));
        QVERIFY(model.index(0, OffsetEditModel::DeltaColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("replays 2")));
    }
};

QTEST_MAIN(TestDetailModels)
#include "TestDetailModels.moc"
