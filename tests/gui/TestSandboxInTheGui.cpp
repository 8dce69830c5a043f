// The GUI against the sandbox workload on the real broker, as a user meets it: the group
// browser lists the four sandbox groups with the lag Kafka's own tool reports, and opening
// `shipping` shows its generations appearing on the rebalance timeline as members come
// and go; `archive`'s offsets edited in the table (by offset and by date-time) survive
// refreshes, and applying them commits exactly the previewed offsets, as an independent
// client (python3-kafka) reads them back.

#include "TestBroker.h"

#include "dialogs/ApplyConfirmDialog.h"
#include "models/GroupListModel.h"
#include "models/OffsetEditModel.h"
#include "sandbox/SandboxWorkload.h"
#include "widgets/GroupDetailWidget.h"

#include "widgets/OffsetResetPanel.h"
#include "windows/MainWindow.h"
#include <QTabWidget>

#include <QApplication>
#include <QDateTime>
#include <QPushButton>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace groupscope;
using groupscope::ui::GroupListModel;
using groupscope::ui::MainWindow;
using groupscope::ui::OffsetEditModel;
using namespace std::chrono_literals;

namespace {

qlonglong listedLag(const MainWindow& window, const QString& group) {
    const int row = window.groupListModel()->rowOf(group);
    if (row < 0)
        return -1;
    return window.groupListModel()
        ->index(row, GroupListModel::TotalLagColumn)
        .data(GroupListModel::SortRole)
        .toLongLong();
}

// The row of the offsets table for a partition, or nullptr.
const ui::OffsetEditRow* offsetRow(const OffsetEditModel& model, const QString& topic,
                                   int partition) {
    const int row = model.rowOfKey({topic, partition});
    return row < 0 ? nullptr : &model.rowAt(row);
}

} // namespace

class TestSandboxInTheGui : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        SKIP_WITHOUT_TEST_BROKER();
        // The audit log and settings of this run stay in temporary places.
        QVERIFY(m_dataDir.isValid());
        qputenv("GROUPSCOPE_DATA_DIR", m_dataDir.path().toUtf8());
        qputenv("GROUPSCOPE_NO_KEYCHAIN", "1");
        QStandardPaths::setTestModeEnabled(true);
        sandbox::SandboxOptions options;
        options.namePrefix = test::uniqueName(QStringLiteral("gui-sandbox")) + u'-';
        options.rebalanceInterval = 4s;
        options.rateScale = 0.5;
        auto started = sandbox::SandboxWorkload::start(test::brokerProfile(), options);
        QVERIFY2(started.ok(), started ? "" : qPrintable(started.error().toString()));
        m_workload = std::move(started).value();
        m_window = std::make_unique<MainWindow>();
        m_window->setRefreshInterval(500ms);
        m_window->resize(1400, 900);
        m_window->show();
        m_window->connectTo(test::brokerProfile());
    }

    void cleanupTestCase() {
        m_window.reset();
        if (m_workload)
            m_workload->stop();
    }

    void theBrowserListsTheSandboxGroupsWithTheLagKafkaReports() {
        const sandbox::SandboxLayout& layout = m_workload->layout();
        QTRY_VERIFY_WITH_TIMEOUT(
            std::all_of(layout.groupNames().cbegin(), layout.groupNames().cend(),
                        [&](const QString& group) {
                            return m_window->groupListModel()->rowOf(group) >= 0;
                        }),
            90000);
        // The archive's commits stand still while its topics grow, so its lag only rises:
        // a correct list shows a lag between what Kafka's tool reports before and after.
        const QString archive = layout.archive.name;
        QTRY_VERIFY_WITH_TIMEOUT(test::lagReportedByKafka(archive) >= 0, 60000);
        const qlonglong before = test::lagReportedByKafka(archive);
        QTRY_VERIFY_WITH_TIMEOUT(listedLag(*m_window, archive) >= before, 30000);
        const qlonglong shown = listedLag(*m_window, archive);
        const qlonglong after = test::lagReportedByKafka(archive);
        qInfo("archive lag: kafka-consumer-groups %lld, then the list %lld, then the tool %lld",
              before, shown, after);
        QVERIFY2(shown <= after, qPrintable(QStringLiteral("%1 > %2").arg(shown).arg(after)));
    }

    void openingShippingShowsGenerationsAppearingOnTheTimeline() {
        const QString shipping = m_workload->layout().shipping.name;
        m_window->openGroup(shipping);
        const ui::GroupDetailWidget* detail = m_window->groupDetail();
        QTRY_COMPARE_WITH_TIMEOUT(detail->monitorSnapshot().group, shipping, 60000);
        // The sandbox changes shipping's members every 4 s: new generations must keep
        // arriving while the group is open, each with its members and partition owners.
        QTRY_VERIFY_WITH_TIMEOUT(!detail->monitorSnapshot().timeline.generations.isEmpty(), 60000);
        const int32_t first = detail->monitorSnapshot().timeline.generations.last().generationId;
        QTRY_VERIFY_WITH_TIMEOUT(
            detail->monitorSnapshot().timeline.generations.last().generationId >= first + 2, 60000);
        const timeline::GroupTimeline& timeline = detail->monitorSnapshot().timeline;
        QSet<int> memberCounts;
        for (const timeline::Generation& generation : timeline.generations) {
            if (generation.members.isEmpty())
                continue;
            memberCounts.insert(int(generation.members.size()));
            QVERIFY2(!generation.ownerByPartition.isEmpty(),
                     qPrintable(QString::number(generation.generationId)));
        }
        QVERIFY2(memberCounts.size() >= 2, "the generations should differ in their members");
        QVERIFY(!detail->monitorSnapshot().timelineApproximate());
    }

    void editingArchiveOffsetsAndApplyingCommitsThePreview() {
        const QString archive = m_workload->layout().archive.name;
        const QString topic = m_workload->layout().payments.name; // one of archive's topics
        m_window->openGroup(archive);
        // As a user would: the table is filled while it is on screen (OffsetResetPanel).
        m_window->groupDetail()->tabs()->setCurrentIndex(ui::GroupDetailWidget::OffsetsTab);
        ui::OffsetResetPanel* panel = m_window->groupDetail()->offsetPanel();
        OffsetEditModel* model = panel->model();
        // The sandbox commits archive's offsets once, in the middle of the logs.
        QTRY_VERIFY_WITH_TIMEOUT(offsetRow(*model, topic, 0) && offsetRow(*model, topic, 1) &&
                                     offsetRow(*model, topic, 0)->committedOffset > 1 &&
                                     offsetRow(*model, topic, 1)->committedOffset,
                                 60000);
        const QMap<int, qlonglong> before = test::committedOffsetsByKafka(archive, topic);
        QVERIFY(before.size() >= 2);

        // Partition 0 by offset, half-way back to where its log starts; partition 1 by a
        // date-time 20 s ago, written in UTC with a zone as a user would type it.
        const ui::OffsetEditRow& first = *offsetRow(*model, topic, 0);
        const qint64 byOffset = (first.logStartOffset + *first.committedOffset) / 2;
        const qint64 whenMs = QDateTime::currentMSecsSinceEpoch() - 20'000;
        const QString when = QDateTime::fromMSecsSinceEpoch(whenMs, Qt::UTC)
                                 .toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzzZ"));
        const int row0 = model->rowOfKey({topic, 0});
        const int row1 = model->rowOfKey({topic, 1});
        QVERIFY(model->setData(model->index(row0, OffsetEditModel::ModeColumn),
                               int(offsets::ResetMode::ToOffset)));
        QVERIFY2(model->setData(model->index(row0, OffsetEditModel::ValueColumn),
                                QString::number(byOffset)),
                 qPrintable(model->lastRefusal()));
        QVERIFY(model->setData(model->index(row1, OffsetEditModel::ModeColumn),
                               int(offsets::ResetMode::ToDatetime)));
        QVERIFY2(model->setData(model->index(row1, OffsetEditModel::ValueColumn), when),
                 qPrintable(model->lastRefusal()));

        // The sandbox keeps producing: wait until refreshes have moved the log end, then
        // the edits must still be there.
        const int64_t logEndAtEdit = offsetRow(*model, topic, 1)->logEndOffset;
        QTRY_VERIFY_WITH_TIMEOUT(offsetRow(*model, topic, 1)->logEndOffset > logEndAtEdit, 30000);
        QCOMPARE(offsetRow(*model, topic, 0)->spec.mode, offsets::ResetMode::ToOffset);
        QCOMPARE(offsetRow(*model, topic, 0)->valueText, QString::number(byOffset));
        QCOMPARE(offsetRow(*model, topic, 1)->spec.mode, offsets::ResetMode::ToDatetime);
        QCOMPARE(offsetRow(*model, topic, 1)->valueText, when);

        // The preview: the offset as typed; the date-time where Kafka's own time index
        // puts it (python3-kafka's offsets_for_times is the oracle).
        QTRY_VERIFY_WITH_TIMEOUT(model->previewIsCurrent() && model->plan().rows.size() == 2,
                                 30000);
        const qlonglong byTime = test::offsetForTimestamp(topic, 1, whenMs);
        QVERIFY(byTime >= 0);
        QCOMPARE(offsetRow(*model, topic, 0)->newOffset, std::optional<int64_t>(byOffset));
        QCOMPARE(offsetRow(*model, topic, 1)->newOffset, std::optional<int64_t>(byTime));

        QTRY_VERIFY2_WITH_TIMEOUT(panel->applyButton()->isEnabled(),
                                  qPrintable(panel->applyBlockReason()), 10000);
        ui::ApplyConfirmDialog::setNextAnswer(true);
        panel->applyButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!panel->lastResults().isEmpty(), 30000);
        for (const QString& line : panel->lastResults())
            QVERIFY2(line.endsWith(QStringLiteral(" ok")), qPrintable(line));
        QMap<int, qlonglong> expected = before;
        expected[0] = byOffset;
        expected[1] = byTime;
        QCOMPARE(test::committedOffsetsByKafka(archive, topic), expected);
    }

private:
    QTemporaryDir m_dataDir;
    std::unique_ptr<sandbox::SandboxWorkload> m_workload;
    std::unique_ptr<MainWindow> m_window;
};

QTEST_MAIN(TestSandboxInTheGui)
#include "TestSandboxInTheGui.moc"
