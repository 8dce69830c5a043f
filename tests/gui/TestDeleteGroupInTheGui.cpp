// Deleting a group from the group list against the real broker: the confirmation names
// the cluster and the group with its commits, "Cancel" changes nothing, "Delete" deletes
// it (Kafka's own tool no longer lists it), the History tab opens on the deletion's entry,
// and its Undo commits the offsets again, read back by python3-kafka.

#include "BrokerWindow.h"

#include "controllers/ResetController.h"
#include "dialogs/ApplyConfirmDialog.h"
#include "dialogs/DeleteGroupsConfirm.h"
#include "models/GroupFilterProxyModel.h"
#include "models/GroupListModel.h"
#include "widgets/GroupDetailWidget.h"
#include "widgets/ResetHistoryPanel.h"
#include "windows/MainWindow.h"

#include <QAction>
#include <QItemSelectionModel>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace groupscope;

class TestDeleteGroupInTheGui : public QObject {
    Q_OBJECT

    QTemporaryDir m_dataDir;

    static bool listedByKafka(const QString& group) {
        const auto listed = test::kafkaConsumerGroups({QStringLiteral("--list")});
        return listed.ok() && QString::fromUtf8(listed.out).split(u'\n').contains(group);
    }

private slots:
    void initTestCase() {
        SKIP_WITHOUT_TEST_BROKER();
        QVERIFY(m_dataDir.isValid());
        test::keepGuiSettingsApart(m_dataDir.path());
    }

    void deleteWithConfirmationThenUndo() {
        const QString topic = test::uniqueName(QStringLiteral("gui-deleted"));
        const QString group = test::uniqueName(QStringLiteral("gui-stale"));
        QVERIFY(test::createTopic(topic, 2));
        QVERIFY(test::produce(topic, 20));
        QVERIFY(test::commitOffsets(group, topic, {4, 6}));
        const QMap<int, qlonglong> committed{{0, 4}, {1, 6}};

        auto window = test::brokerWindow();
        window->show();
        QTRY_VERIFY_WITH_TIMEOUT(window->groupListModel()->rowOf(group) >= 0, 30000);
        const auto select = [&] {
            const int row = window->groupListModel()->rowOf(group);
            const QModelIndex shown =
                window->groupProxyModel()->mapFromSource(window->groupListModel()->index(row, 0));
            window->groupView()->selectionModel()->setCurrentIndex(
                shown, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        };
        select();
        auto* deleteAction = window->findChild<QAction*>(QStringLiteral("deleteGroupAction"));
        QVERIFY(deleteAction && deleteAction->isEnabled());

        // Cancel: nothing changes.
        ui::DeleteGroupsConfirm::setNextAnswer(false);
        deleteAction->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!ui::DeleteGroupsConfirm::lastText().isEmpty(), 30000);
        const QString asked = ui::DeleteGroupsConfirm::lastText();
        QVERIFY2(asked.contains(test::bootstrapServers()) && asked.contains(group) &&
                     asked.contains(QStringLiteral("2 committed offset")),
                 qPrintable(asked));
        QVERIFY(!window->resetController()->isApplying());
        QVERIFY(listedByKafka(group));

        // Delete: Kafka's tool no longer lists it, the History tab has the entry.
        ui::DeleteGroupsConfirm::setNextAnswer(true);
        select();
        deleteAction->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!listedByKafka(group), 30000);
        QVERIFY(test::committedOffsetsByKafka(group, topic).isEmpty());
        ui::ResetHistoryPanel* history = window->groupDetail()->historyPanel();
        QTRY_COMPARE_WITH_TIMEOUT(window->groupDetail()->tabs()->currentIndex(),
                                  int(ui::GroupDetailWidget::HistoryTab), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(history->entries().size(), 1, 10000);
        QCOMPARE(history->entries().first().description, QStringLiteral("delete group"));
        QTRY_VERIFY_WITH_TIMEOUT(window->groupListModel()->rowOf(group) < 0, 30000);

        // Undo: the commits are back, and so is the group in the list.
        history->table()->selectRow(0);
        QTRY_VERIFY_WITH_TIMEOUT(history->undoButton()->isEnabled(), 10000);
        ui::ApplyConfirmDialog::setNextAnswer(true);
        history->undoButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(history->entries().size(), 2, 30000);
        QCOMPARE(test::committedOffsetsByKafka(group, topic), committed);
        QTRY_VERIFY_WITH_TIMEOUT(window->groupListModel()->rowOf(group) >= 0, 30000);
    }
};

QTEST_MAIN(TestDeleteGroupInTheGui)
#include "TestDeleteGroupInTheGui.moc"
