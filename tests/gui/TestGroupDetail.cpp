// The group browser and detail against the real broker: Enter on a group opens its
// detail, the Partitions tab shows the offsets Kafka has, refreshes keep the selection in
// the detail table, Ctrl+C copies selected rows as TSV, and the state filter works from
// its combo.

#include "TestBroker.h"

#include "models/GroupFilterProxyModel.h"
#include "models/GroupListModel.h"
#include "models/PartitionTableModel.h"
#include "widgets/GroupDetailWidget.h"
#include "windows/MainWindow.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

using namespace groupscope;
using groupscope::ui::GroupListModel;
using groupscope::ui::PartitionTableModel;

class TestGroupDetail : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        SKIP_WITHOUT_TEST_BROKER();
        QStandardPaths::setTestModeEnabled(true);
    }

    void enterOpensTheGroupAndRefreshesKeepTheSelection() {
        const QString topic = test::uniqueName(QStringLiteral("detail-orders"));
        const QString group = test::uniqueName(QStringLiteral("detail-billing"));
        QVERIFY(test::createTopic(topic, 3));
        for (int partition = 0; partition < 3; ++partition)
            QVERIFY(test::produce(topic, 10, partition));
        QVERIFY(test::commitOffsets(group, topic, {2, 5, 10}, QStringLiteral("meta-")));

        ui::MainWindow window;
        window.setRefreshInterval(std::chrono::milliseconds(300));
        window.connectTo(test::brokerProfile());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ui::GroupDetailWidget* detail = window.groupDetail();
        QAbstractItemModelTester partitionTester(
            detail->partitionModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY_WITH_TIMEOUT(window.groupListModel()->rowOf(group) >= 0, 30000);

        // Select the group by keyboard and press Enter.
        QTableView* list = window.groupView();
        const QModelIndex shown = window.groupProxyModel()->mapFromSource(
            window.groupListModel()->index(window.groupListModel()->rowOf(group), 0));
        list->setFocus();
        list->selectionModel()->setCurrentIndex(shown, QItemSelectionModel::ClearAndSelect |
                                                           QItemSelectionModel::Rows);
        QTest::keyClick(list, Qt::Key_Return);
        QCOMPARE(detail->groupId(), group);
        QTRY_COMPARE_WITH_TIMEOUT(detail->partitionModel()->rowCount(), 3, 30000);
        PartitionTableModel* partitions = detail->partitionModel();
        QCOMPARE(partitions->index(1, PartitionTableModel::CommittedColumn).data().toString(),
                 QStringLiteral("5"));
        QCOMPARE(partitions->index(1, PartitionTableModel::LagColumn).data().toString(),
                 QStringLiteral("5"));
        QCOMPARE(partitions->index(1, PartitionTableModel::MetadataColumn).data().toString(),
                 QStringLiteral("meta-1"));
        QVERIFY(detail->headerText().contains(group));
        QVERIFY(detail->headerText().contains(QStringLiteral("Empty")));

        // Select a partition row; the lag grows; the row updates in place and stays selected.
        QTableView* view = detail->partitionView();
        view->selectRow(1);
        QSignalSpy resets(partitions, &QAbstractItemModel::modelReset);
        QVERIFY(test::produce(topic, 4, 1));
        QTRY_COMPARE_WITH_TIMEOUT(
            partitions->index(1, PartitionTableModel::LagColumn).data().toString(),
            QStringLiteral("9"), 30000);
        QCOMPARE(resets.count(), 0);
        QCOMPARE(view->selectionModel()->selectedRows().size(), 1);
        QCOMPARE(view->selectionModel()->selectedRows().first().row(), 1);

        // Ctrl+C copies the selected rows as TSV with a header line.
        QApplication::clipboard()->clear();
        view->setFocus();
        QTest::keySequence(view, QKeySequence::Copy);
        const QStringList lines =
            QApplication::clipboard()->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines.at(0).startsWith(QStringLiteral("Topic\tPartition\tCommitted")));
        QVERIFY2(lines.at(1).startsWith(topic + QStringLiteral("\t1\t5\t0\t14\t9")),
                 qPrintable(lines.at(1)));

        // The state filter combo: the group is Empty, so "Stable" hides it.
        auto* states = window.findChild<QComboBox*>(QStringLiteral("stateFilterCombo"));
        QVERIFY(states);
        states->setCurrentIndex(states->findText(QStringLiteral("Stable")));
        for (int row = 0; row < window.groupProxyModel()->rowCount(); ++row)
            QVERIFY(window.groupProxyModel()
                        ->index(row, 0)
                        .data(GroupListModel::GroupIdRole)
                        .toString() != group);
        states->setCurrentIndex(states->findText(QStringLiteral("Empty")));
        QVERIFY(window.groupProxyModel()
                    ->mapFromSource(
                        window.groupListModel()->index(window.groupListModel()->rowOf(group), 0))
                    .isValid());
        QCOMPARE(
            window.groupListModel()
                ->index(window.groupListModel()->rowOf(group), GroupListModel::ProtocolColumn)
                .data()
                .toString(),
            QStringLiteral("simple (offsets only)")); // committed without ever joining: no protocol
    }
};

QTEST_MAIN(TestGroupDetail)
#include "TestGroupDetail.moc"
