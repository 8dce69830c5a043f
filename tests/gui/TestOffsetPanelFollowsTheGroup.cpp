// The Reset offsets tab shows the group as it is now, whichever tab the user was on while
// refreshes arrived: a hidden table without edits catches up when it is shown, and one
// with edits keeps following the live log (its preview is planned against it). No broker:
// the refreshes are values handed to the group detail as the pipeline would.

#include "controllers/ResetController.h"
#include "models/OffsetEditModel.h"
#include "widgets/GroupDetailWidget.h"
#include "widgets/OffsetResetPanel.h"

#include <QApplication>
#include <QTabWidget>
#include <QTest>

using namespace groupscope;
using groupscope::ui::GroupDetailWidget;
using groupscope::ui::OffsetEditModel;

namespace {

const QString groupId = QStringLiteral("billing");
const QString topic = QStringLiteral("orders");

// The refresh in which billing has committed `committed` of `logEnd` on orders-0.
monitor::ClusterView refresh(int64_t committed, int64_t logEnd) {
    monitor::GroupSnapshot group;
    group.description.groupId = groupId;
    group.description.state = kafka::GroupState::Empty;
    monitor::PartitionSnapshot partition;
    partition.topicPartition = {topic, 0};
    partition.committedOffset = committed;
    partition.logStartOffset = 0;
    partition.logEndOffset = logEnd;
    partition.lag = logEnd - committed;
    group.partitions = {partition};
    monitor::ClusterView view;
    view.cluster.groups = {group};
    return view;
}

const ui::OffsetEditRow* orders0(const OffsetEditModel* model) {
    const int row = model->rowOfKey({topic, 0});
    return row < 0 ? nullptr : &model->rowAt(row);
}

} // namespace

class TestOffsetPanelFollowsTheGroup : public QObject {
    Q_OBJECT

private slots:
    void theTabShowsTheLatestRefreshWhenOpened() {
        ui::ResetController controller;
        GroupDetailWidget detail(&controller);
        detail.show();
        detail.openGroup(groupId);
        OffsetEditModel* model = detail.offsetPanel()->model();
        QCOMPARE(detail.tabs()->currentIndex(), int(GroupDetailWidget::PartitionsTab));

        detail.applyView(refresh(5, 10));
        detail.applyView(refresh(6, 12));
        detail.tabs()->setCurrentIndex(GroupDetailWidget::OffsetsTab);
        QVERIFY(orders0(model));
        QCOMPARE(orders0(model)->committedOffset, std::optional<int64_t>(6));
        QCOMPARE(orders0(model)->logEndOffset, 12);

        // On screen, each refresh shows at once.
        detail.applyView(refresh(7, 13));
        QCOMPARE(orders0(model)->committedOffset, std::optional<int64_t>(7));

        // Away and back: the refreshes in between are not lost.
        detail.tabs()->setCurrentIndex(GroupDetailWidget::PartitionsTab);
        detail.applyView(refresh(8, 14));
        detail.applyView(refresh(9, 15));
        detail.tabs()->setCurrentIndex(GroupDetailWidget::OffsetsTab);
        QCOMPARE(orders0(model)->committedOffset, std::optional<int64_t>(9));
        QCOMPARE(orders0(model)->logEndOffset, 15);
    }

    void aHiddenTableWithEditsKeepsFollowingTheLog() {
        ui::ResetController controller;
        GroupDetailWidget detail(&controller);
        detail.show();
        detail.openGroup(groupId);
        detail.tabs()->setCurrentIndex(GroupDetailWidget::OffsetsTab);
        detail.applyView(refresh(5, 10));
        OffsetEditModel* model = detail.offsetPanel()->model();
        QVERIFY(orders0(model));
        QVERIFY(model->setSpec({model->rowOfKey({topic, 0})}, offsets::ResetMode::ShiftBy,
                               QStringLiteral("-2")));
        QVERIFY(model->hasEdits());

        detail.tabs()->setCurrentIndex(GroupDetailWidget::LagTab);
        detail.applyView(refresh(5, 20));
        QCOMPARE(orders0(model)->logEndOffset, 20);
        QVERIFY(model->hasEdits()); // the edit is the user's, untouched by refreshes
    }
};

QTEST_MAIN(TestOffsetPanelFollowsTheGroup)
#include "TestOffsetPanelFollowsTheGroup.moc"
