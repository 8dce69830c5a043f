// Resets through the GUI against the real broker: edit offsets in the table (by offset,
// shift and date-time), check the preview, apply through the confirmation hook, then read
// the committed offsets back with an independent client (python3-kafka's admin client)
// and compare with the preview; undo restores the exact offsets; a live member disables
// Apply and is named; a read-only profile cannot apply or undo.

#include "BrokerWindow.h"

#include "controllers/ResetController.h"
#include "dialogs/ApplyConfirmDialog.h"
#include "models/GroupListModel.h"
#include "models/MemberTableModel.h"
#include "models/OffsetEditModel.h"
#include "models/PartitionTableModel.h"
#include "offsets/ResetSpec.h"
#include "widgets/GroupDetailWidget.h"

#include "widgets/OffsetResetPanel.h"
#include "widgets/ResetHistoryPanel.h"
#include "windows/MainWindow.h"
#include <QTabWidget>

#include <QApplication>
#include <QCheckBox>
#include <QDateTime>
#include <QProcess>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

#include <memory>

using namespace groupscope;
using groupscope::ui::OffsetEditModel;

namespace {

// Produces `count` records to partition 0 with timestamps base, base+1s, base+2s, ...
bool produceWithTimestamps(const QString& topic, int count, qint64 baseMs) {
    const auto result = test::runPython(QStringLiteral(R"(
from kafka import KafkaProducer
producer = KafkaProducer(bootstrap_servers=BOOTSTRAP, acks='all', retries=100, retry_backoff_ms=200)
sent = [producer.send('%1', value=b'record-%d' % i, partition=0, timestamp_ms=%3 + i * 1000) for i in range(%2)]
for future in sent:
    future.get(timeout=60)  # a failed send raises here instead of vanishing
producer.close()
)")
                                            .arg(topic)
                                            .arg(count)
                                            .arg(baseMs));
    if (!result.ok())
        qWarning("produce failed: %s", result.err.constData());
    return result.ok();
}

const char* const memberScript = R"(
import select, sys
from kafka import KafkaConsumer
topic, group, client = sys.argv[1], sys.argv[2], sys.argv[3]
c = KafkaConsumer(topic, bootstrap_servers=BOOTSTRAP, group_id=group, client_id=client,
                  enable_auto_commit=False, auto_offset_reset='earliest')
while True:
    c.poll(timeout_ms=200, max_records=1)
    readable, _, _ = select.select([sys.stdin], [], [], 0)
    if readable and not sys.stdin.readline():
        break
c.close()
)";

std::unique_ptr<ui::MainWindow> openWindow(const QString& group, bool readOnly = false) {
    auto window = test::brokerWindow(readOnly);
    window->openGroup(group);
    // As a user would: the table is filled while it is on screen (OffsetResetPanel).
    window->groupDetail()->tabs()->setCurrentIndex(ui::GroupDetailWidget::OffsetsTab);
    window->show();
    return window;
}

const ui::OffsetEditRow* rowOf(OffsetEditModel* model, const QString& topic, int partition) {
    const int row = model->rowOfKey({topic, partition});
    return row < 0 ? nullptr : &model->rowAt(row);
}

bool previewReady(ui::OffsetResetPanel* panel) {
    return panel->model()->previewIsCurrent() && panel->model()->hasEdits() &&
           panel->model()->plan().rows.size() == panel->model()->requests().size();
}

} // namespace

class TestOffsetReset : public QObject {
    Q_OBJECT

    QTemporaryDir m_dataDir;

private slots:
    void initTestCase() {
        SKIP_WITHOUT_TEST_BROKER();
        QVERIFY(m_dataDir.isValid());
        // The audit log and settings of this run stay in temporary places.
        test::keepGuiSettingsApart(m_dataDir.path());
    }

    void applyByOffsetAndShiftThenUndo() {
        const QString topic = test::uniqueName(QStringLiteral("reset-orders"));
        const QString group = test::uniqueName(QStringLiteral("reset-billing"));
        QVERIFY(test::createTopic(topic, 2));
        QVERIFY(test::produce(topic, 20, 0));
        QVERIFY(test::produce(topic, 20, 1));
        QVERIFY(test::commitOffsets(group, topic, {10, 15}));

        auto window = openWindow(group);
        ui::OffsetResetPanel* panel = window->groupDetail()->offsetPanel();
        OffsetEditModel* model = panel->model();
        QTRY_VERIFY2_WITH_TIMEOUT(rowOf(model, topic, 1) &&
                                      rowOf(model, topic, 1)->committedOffset == 15,
                                  qPrintable(window->groupDetail()->headerText() +
                                             QStringLiteral(" rows %1 groups %2 status %3")
                                                 .arg(model->rowCount())
                                                 .arg(window->groupListModel()->rowCount())
                                                 .arg(window->connectionStatusText())),
                                  30000);
        QCOMPARE(window->groupDetail()->partitionModel()->rowCount(), 2);

        // Partition 0 to offset 3 through the Mode and Value cells; partition 1 shifted by -5.
        const int row0 = model->rowOfKey({topic, 0});
        QVERIFY(model->setData(model->index(row0, OffsetEditModel::ModeColumn),
                               int(offsets::ResetMode::ToOffset)));
        QVERIFY(
            model->setData(model->index(row0, OffsetEditModel::ValueColumn), QStringLiteral("3")));
        QVERIFY(model->setSpec({model->rowOfKey({topic, 1})}, offsets::ResetMode::ShiftBy,
                               QStringLiteral("-5")));
        QTRY_VERIFY_WITH_TIMEOUT(previewReady(panel), 30000);
        QCOMPARE(rowOf(model, topic, 0)->newOffset, std::optional<int64_t>(3));
        QCOMPARE(rowOf(model, topic, 1)->newOffset, std::optional<int64_t>(10));
        QCOMPARE(model->plan().messagesReplayed(), 12);
        QTRY_VERIFY2_WITH_TIMEOUT(panel->applyButton()->isEnabled(),
                                  qPrintable(panel->applyBlockReason()), 10000);

        // The confirmation is answered "no" first: nothing changes.
        ui::ApplyConfirmDialog::setNextAnswer(false);
        panel->applyButton()->click();
        // The confirmation follows a look for consumers that still commit (python3-kafka's
        // commit of the set-up, moments ago, is named in it).
        QTRY_VERIFY_WITH_TIMEOUT(
            ui::ApplyConfirmDialog::lastSummary().contains(QStringLiteral("replays 12")), 30000);
        QVERIFY(!window->resetController()->isApplying());
        QCOMPARE(test::committedOffsetsByKafka(group, topic),
                 (QMap<int, qlonglong>{{0, 10}, {1, 15}}));

        ui::ApplyConfirmDialog::setNextAnswer(true);
        panel->applyButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!panel->lastResults().isEmpty(), 30000);
        QCOMPARE(panel->lastResults().size(), 2);
        for (const QString& line : panel->lastResults())
            QVERIFY2(line.endsWith(QStringLiteral(" ok")), qPrintable(line));
        QCOMPARE(test::committedOffsetsByKafka(group, topic),
                 (QMap<int, qlonglong>{{0, 3}, {1, 10}}));
        // The live view follows: the table shows the new commits, the edits are done.
        QTRY_VERIFY_WITH_TIMEOUT(rowOf(model, topic, 0)->committedOffset == 3, 30000);
        QVERIFY(!model->hasEdits());

        // History has the entry; Undo puts back exactly what was there.
        ui::ResetHistoryPanel* history = window->groupDetail()->historyPanel();
        QTRY_COMPARE_WITH_TIMEOUT(history->entries().size(), 1, 10000);
        history->table()->selectRow(0);
        QVERIFY(history->undoButton()->isEnabled());
        ui::ApplyConfirmDialog::setNextAnswer(true);
        history->undoButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(history->entries().size(), 2, 30000);
        QVERIFY2(history->statusText().startsWith(QStringLiteral("Undone")),
                 qPrintable(history->statusText()));
        QCOMPARE(test::committedOffsetsByKafka(group, topic),
                 (QMap<int, qlonglong>{{0, 10}, {1, 15}}));
    }

    // A consumer outside the group's membership (assign(), so the group stays Empty) keeps
    // committing while the user applies a shift: the first question names it; the write
    // finds the group moved since the plan and asks a second time with the plan resolved
    // again; what is written is relative to where the group stood at the write.
    void aGroupThatMovedSinceThePreviewIsAskedAboutAgain() {
        const QString topic = test::uniqueName(QStringLiteral("drift-orders"));
        const QString group = test::uniqueName(QStringLiteral("drift-billing"));
        QVERIFY(test::createTopic(topic, 1));
        QVERIFY(test::produce(topic, 400, 0));
        QVERIFY(test::commitOffsets(group, topic, {100}));

        auto window = openWindow(group);
        ui::OffsetResetPanel* panel = window->groupDetail()->offsetPanel();
        OffsetEditModel* model = panel->model();
        QTRY_VERIFY_WITH_TIMEOUT(
            rowOf(model, topic, 0) && rowOf(model, topic, 0)->committedOffset == 100, 30000);
        QVERIFY(model->setSpec({model->rowOfKey({topic, 0})}, offsets::ResetMode::ShiftBy,
                               QStringLiteral("-5")));
        QTRY_VERIFY_WITH_TIMEOUT(previewReady(panel), 30000);
        QCOMPARE(rowOf(model, topic, 0)->newOffset, std::optional<int64_t>(95));

        QProcess committer;
        committer.start(QStringLiteral("/usr/bin/python3"),
                        {QStringLiteral("-c"), QStringLiteral(R"(
import select, sys
from kafka import KafkaConsumer, TopicPartition
from kafka.structs import OffsetAndMetadata
c = KafkaConsumer(bootstrap_servers='%1', group_id='%2', enable_auto_commit=False)
tp = TopicPartition('%3', 0)
c.assign([tp])
offset = 110
while offset < 390:
    c.commit({tp: OffsetAndMetadata(offset, '')})
    print('committed', offset, flush=True)
    offset += 1
    ready, _, _ = select.select([sys.stdin], [], [], 0.05)
    if ready and not sys.stdin.readline():
        break
c.close()
)")
                                                   .arg(test::bootstrapServers(), group, topic)});
        QVERIFY(committer.waitForReadyRead(60000));

        ui::ApplyConfirmDialog::setNextAnswers({true, true});
        QTRY_VERIFY2_WITH_TIMEOUT(panel->applyButton()->isEnabled(),
                                  qPrintable(panel->applyBlockReason()), 10000);
        panel->applyButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!panel->lastResults().isEmpty(), 30000);
        committer.closeWriteChannel();
        QVERIFY(committer.waitForFinished(30000));

        const QStringList asked = ui::ApplyConfirmDialog::summariesAsked();
        QCOMPARE(asked.size(), 2);
        QVERIFY2(asked.at(0).contains(QStringLiteral("a consumer using assign()")),
                 qPrintable(asked.at(0)));
        QVERIFY2(asked.at(1).contains(QStringLiteral("moved since the preview")),
                 qPrintable(asked.at(1)));
        ui::ResetHistoryPanel* history = window->groupDetail()->historyPanel();
        QTRY_COMPARE_WITH_TIMEOUT(history->entries().size(), 1, 10000);
        const offsets::JournalPartition written = history->entries().first().partitions.first();
        QVERIFY(written.before && *written.before >= 110);
        QCOMPARE(written.planned, std::optional<int64_t>(*written.before - 5));
    }

    // The "group" mode copies another group's commits into the table's rows: the preview
    // shows them, apply writes them, python3-kafka reads them back.
    void copyOffsetsFromAnotherGroup() {
        const QString topic = test::uniqueName(QStringLiteral("copy-orders"));
        const QString source = test::uniqueName(QStringLiteral("copy-from"));
        const QString group = test::uniqueName(QStringLiteral("copy-into"));
        QVERIFY(test::createTopic(topic, 2));
        QVERIFY(test::produce(topic, 20, 0));
        QVERIFY(test::produce(topic, 20, 1));
        QVERIFY(test::commitOffsets(source, topic, {7, 9}));
        QVERIFY(test::commitOffsets(group, topic, {1, 1}));

        auto window = openWindow(group);
        ui::OffsetResetPanel* panel = window->groupDetail()->offsetPanel();
        OffsetEditModel* model = panel->model();
        QTRY_VERIFY_WITH_TIMEOUT(
            rowOf(model, topic, 1) && rowOf(model, topic, 1)->committedOffset == 1, 30000);
        QVERIFY2(model->setSpec({model->rowOfKey({topic, 0}), model->rowOfKey({topic, 1})},
                                offsets::ResetMode::ToGroup, source),
                 qPrintable(model->lastRefusal()));
        QTRY_VERIFY_WITH_TIMEOUT(previewReady(panel), 30000);
        QCOMPARE(rowOf(model, topic, 0)->newOffset, std::optional<int64_t>(7));
        QCOMPARE(rowOf(model, topic, 1)->newOffset, std::optional<int64_t>(9));
        QTRY_VERIFY2_WITH_TIMEOUT(panel->applyButton()->isEnabled(),
                                  qPrintable(panel->applyBlockReason()), 10000);
        ui::ApplyConfirmDialog::setNextAnswer(true);
        panel->applyButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!panel->lastResults().isEmpty(), 30000);
        QCOMPARE(test::committedOffsetsByKafka(group, topic),
                 (QMap<int, qlonglong>{{0, 7}, {1, 9}}));
    }

    void applyByDatetime() {
        const QString topic = test::uniqueName(QStringLiteral("reset-events"));
        const QString group = test::uniqueName(QStringLiteral("reset-analytics"));
        QVERIFY(test::createTopic(topic, 1));
        const qint64 base =
            QDateTime::currentMSecsSinceEpoch() - 3600 * 1000; // an hour ago, whole records
        QVERIFY(produceWithTimestamps(topic, 10, base));
        QVERIFY(test::commitOffsets(group, topic, {10}));

        auto window = openWindow(group);
        ui::OffsetResetPanel* panel = window->groupDetail()->offsetPanel();
        OffsetEditModel* model = panel->model();
        QTRY_VERIFY_WITH_TIMEOUT(
            rowOf(model, topic, 0) && rowOf(model, topic, 0)->committedOffset == 10, 30000);
        // Records 4.. are at or after base+4s: the reset lands on offset 4. Written with a
        // zone, as a user in Berlin would.
        const QString when = QDateTime::fromMSecsSinceEpoch(base + 4000, QTimeZone(3600))
                                 .toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz+01:00"));
        const int row = model->rowOfKey({topic, 0});
        QVERIFY(model->setData(model->index(row, OffsetEditModel::ModeColumn),
                               int(offsets::ResetMode::ToDatetime)));
        QVERIFY2(model->setData(model->index(row, OffsetEditModel::ValueColumn), when),
                 qPrintable(model->lastRefusal()));
        QTRY_VERIFY_WITH_TIMEOUT(previewReady(panel), 30000);
        QCOMPARE(rowOf(model, topic, 0)->newOffset, std::optional<int64_t>(4));
        QTRY_VERIFY2_WITH_TIMEOUT(panel->applyButton()->isEnabled(),
                                  qPrintable(panel->applyBlockReason()), 10000);
        ui::ApplyConfirmDialog::setNextAnswer(true);
        panel->applyButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!panel->lastResults().isEmpty(), 30000);
        QCOMPARE(test::committedOffsetsByKafka(group, topic), (QMap<int, qlonglong>{{0, 4}}));
    }

    void previewShowsTheRecordAtTheNewOffset() {
        const QString topic = test::uniqueName(QStringLiteral("reset-next"));
        const QString group = test::uniqueName(QStringLiteral("reset-next-group"));
        QVERIFY(test::createTopic(topic, 1));
        const qint64 base = QDateTime::currentMSecsSinceEpoch() - 3600 * 1000;
        QVERIFY(produceWithTimestamps(topic, 10, base));
        QVERIFY(test::commitOffsets(group, topic, {10}));

        auto window = openWindow(group);
        ui::OffsetResetPanel* panel = window->groupDetail()->offsetPanel();
        OffsetEditModel* model = panel->model();
        QTRY_VERIFY_WITH_TIMEOUT(
            rowOf(model, topic, 0) && rowOf(model, topic, 0)->committedOffset == 10, 30000);
        const int row = model->rowOfKey({topic, 0});
        const QModelIndex next = model->index(row, OffsetEditModel::NextRecordColumn);
        QVERIFY(next.data().toString().isEmpty()); // nothing edited, nothing to preview
        QVERIFY(model->setSpec({row}, offsets::ResetMode::ToOffset, QStringLiteral("6")));
        QTRY_VERIFY_WITH_TIMEOUT(previewReady(panel), 30000);
        // The record read next is record-6, written at base + 6 s.
        QTRY_VERIFY2_WITH_TIMEOUT(next.data().toString().endsWith(QStringLiteral("record-6")),
                                  qPrintable(next.data().toString()), 30000);
        QCOMPARE(rowOf(model, topic, 0)->nextRecord->offset, int64_t(6));
        QCOMPARE(rowOf(model, topic, 0)->nextRecord->timestampMs, base + 6000);
        QVERIFY(next.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Offset 6")));
        // At the log end there is nothing to read yet, and the column says so.
        QVERIFY(model->setSpec({row}, offsets::ResetMode::ToLatest, {}));
        QTRY_VERIFY2_WITH_TIMEOUT(next.data().toString().contains(QStringLiteral("log end")),
                                  qPrintable(next.data().toString()), 30000);
    }

    void liveMemberDisablesApplyAndIsNamed() {
        const QString topic = test::uniqueName(QStringLiteral("reset-live"));
        const QString group = test::uniqueName(QStringLiteral("reset-shipping"));
        const QString clientId = test::uniqueName(QStringLiteral("shipper"));
        QVERIFY(test::createTopic(topic, 1));
        QVERIFY(test::produce(topic, 5, 0));
        QVERIFY(test::commitOffsets(group, topic, {5}));

        QProcess member;
        member.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        const QString prelude = QStringLiteral("BOOTSTRAP = '%1'\n").arg(test::bootstrapServers());
        member.start(QStringLiteral("/usr/bin/python3"),
                     {QStringLiteral("-c"), prelude + QString::fromUtf8(memberScript), topic, group,
                      clientId});
        QVERIFY(member.waitForStarted(10000));

        auto window = openWindow(group);
        ui::OffsetResetPanel* panel = window->groupDetail()->offsetPanel();
        OffsetEditModel* model = panel->model();
        QTRY_VERIFY_WITH_TIMEOUT(window->groupDetail()->memberModel()->rowCount() == 1, 60000);
        QCOMPARE(window->groupDetail()
                     ->memberModel()
                     ->index(0, ui::MemberTableModel::ClientIdColumn)
                     .data()
                     .toString(),
                 clientId);
        QTRY_VERIFY_WITH_TIMEOUT(rowOf(model, topic, 0) != nullptr, 30000);
        QVERIFY(model->setSpec({model->rowOfKey({topic, 0})}, offsets::ResetMode::ToEarliest, {}));
        QTRY_VERIFY_WITH_TIMEOUT(previewReady(panel), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(panel->applyBlockReason().contains(clientId), 10000);
        QVERIFY(!panel->applyButton()->isEnabled());
        QVERIFY(panel->applyButton()->toolTip().contains(clientId));
        QVERIFY(panel->applyBlockReason().contains(QStringLiteral("active member")));
        // "Apply when the group becomes empty" makes Apply available again.
        panel->waitForEmptyBox()->setChecked(true);
        QVERIFY(panel->applyButton()->isEnabled());
        panel->waitForEmptyBox()->setChecked(false);

        member.closeWriteChannel(); // the script leaves the group and exits
        QVERIFY(member.waitForFinished(30000));
    }

    void readOnlyProfileCannotApplyOrUndo() {
        const QString topic = test::uniqueName(QStringLiteral("reset-ro"));
        const QString group = test::uniqueName(QStringLiteral("reset-archive"));
        QVERIFY(test::createTopic(topic, 1));
        QVERIFY(test::produce(topic, 8, 0));
        QVERIFY(test::commitOffsets(group, topic, {8}));

        auto window = openWindow(group, true);
        QVERIFY(window->isReadOnly());
        ui::OffsetResetPanel* panel = window->groupDetail()->offsetPanel();
        OffsetEditModel* model = panel->model();
        QTRY_VERIFY_WITH_TIMEOUT(rowOf(model, topic, 0) != nullptr, 30000);
        QVERIFY(model->setSpec({model->rowOfKey({topic, 0})}, offsets::ResetMode::ToOffset,
                               QStringLiteral("2")));
        QTRY_VERIFY_WITH_TIMEOUT(previewReady(panel), 30000);
        QCOMPARE(rowOf(model, topic, 0)->newOffset,
                 std::optional<int64_t>(2)); // preview still works
        QVERIFY(!panel->applyButton()->isEnabled());
        QVERIFY2(panel->applyButton()->toolTip().contains(QStringLiteral("read-only")),
                 qPrintable(panel->applyButton()->toolTip()));
        QVERIFY(!window->groupDetail()->historyPanel()->undoButton()->isEnabled());
        // Even a direct call is refused, and nothing reaches the broker.
        ui::ApplyConfirmDialog::setNextAnswer(true);
        panel->applyEdits();
        QVERIFY(!window->resetController()->isApplying());
        ui::ApplyConfirmDialog::setNextAnswer(std::nullopt);
        QCOMPARE(test::committedOffsetsByKafka(group, topic), (QMap<int, qlonglong>{{0, 8}}));
    }
};

QTEST_MAIN(TestOffsetReset)
#include "TestOffsetReset.moc"
