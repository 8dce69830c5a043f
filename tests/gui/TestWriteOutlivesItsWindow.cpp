// A write's life in the GUI beyond the panel that asked for it, on the real broker with a
// python3-kafka member keeping the group active so that the write waits for it to empty:
//   - switching connection while the write waits stops it before anything is sent: the
//     panel and the status line say nothing was written, the broker (read by Kafka's tool)
//     is unchanged, and the next write goes through;
//   - switching connection while the write is on its way (held back by the test bed's
//     FaultyProxy) lets it complete: its outcome is shown and journaled, the broker has it;
//   - a write to a watched group that a consumer overwrites soon after raises an alert;
//   - History shows the connected cluster's entries, a page at a time, and every
//     cluster's when asked;
//   - closing the window while the write waits asks; "Close When Done" hides the window,
//     the write lands once the member leaves, its outcome is notified, then it closes.

#include "BrokerWindow.h"
#include "FaultyProxy.h"

#include "controllers/AlertController.h"
#include "controllers/ResetController.h"
#include "dialogs/ApplyConfirmDialog.h"
#include "models/OffsetEditModel.h"
#include "notifications/DesktopNotifier.h"
#include "offsets/WriteJournal.h"
#include "widgets/GroupDetailWidget.h"
#include "widgets/OffsetResetPanel.h"
#include "widgets/ResetHistoryPanel.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QDateTime>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>

using namespace groupscope;
using namespace std::chrono_literals;
using groupscope::ui::OffsetEditModel;

namespace {

class RecordingNotifier : public ui::DesktopNotifier {
public:
    explicit RecordingNotifier(QList<alerts::Alert>* shown)
        : m_shown(shown) {}
    void notify(const alerts::Alert& alert) override { m_shown->append(alert); }
    QString description() const override { return QStringLiteral("recording"); }

private:
    QList<alerts::Alert>* m_shown;
};

bool previewReady(ui::OffsetResetPanel* panel) {
    return panel->model()->previewIsCurrent() && panel->model()->hasEdits() &&
           panel->model()->plan().rows.size() == panel->model()->requests().size();
}

} // namespace

class TestWriteOutlivesItsWindow : public QObject {
    Q_OBJECT

    QTemporaryDir m_dataDir;

    // `group` (one partition of `topic`, committed at 8, with an active member) open in a
    // window whose Reset offsets tab plans partition 0 to offset 2, waiting for it to empty.
    std::unique_ptr<ui::MainWindow> windowWithArmedWrite(const QString& topic,
                                                         const QString& group) {
        auto window = test::brokerWindow();
        window->openGroup(group);
        window->groupDetail()->tabs()->setCurrentIndex(ui::GroupDetailWidget::OffsetsTab);
        window->show();
        ui::OffsetResetPanel* panel = window->groupDetail()->offsetPanel();
        OffsetEditModel* model = panel->model();
        if (!QTest::qWaitFor([&] { return model->rowOfKey({topic, 0}) >= 0; }, 30000))
            return {};
        model->setSpec({model->rowOfKey({topic, 0})}, offsets::ResetMode::ToOffset,
                       QStringLiteral("2"));
        // Apply refuses for the member's sake: the window has seen it. Arming the write
        // before that would let it go through at once, with nothing left to wait for.
        if (!QTest::qWaitFor(
                [&] {
                    return previewReady(panel) &&
                           panel->applyBlockReason().contains(QStringLiteral("active member"));
                },
                60000))
            return {};
        panel->waitForEmptyBox()->setChecked(true);
        ui::ApplyConfirmDialog::setNextAnswer(true);
        panel->applyButton()->click();
        if (!QTest::qWaitFor([&] { return window->resetController()->isApplying(); }, 10000))
            return {};
        return window;
    }

private slots:
    void initTestCase() {
        SKIP_WITHOUT_TEST_BROKER();
        QVERIFY(m_dataDir.isValid());
        test::keepGuiSettingsApart(m_dataDir.path());
    }

    void switchingConnectionStopsAWriteNotSentYet() {
        const QString topic = test::uniqueName(QStringLiteral("switch-orders"));
        const QString group = test::uniqueName(QStringLiteral("switch-group"));
        QVERIFY(test::createTopic(topic, 1));
        QVERIFY(test::produce(topic, 8, 0));
        QVERIFY(test::commitOffsets(group, topic, {8}));
        test::PythonGroupMember member(topic, group, QStringLiteral("holder"));
        QVERIFY(member.waitUntilAssigned());
        auto window = windowWithArmedWrite(topic, group);
        QVERIFY(window);
        ui::ResetController* controller = window->resetController();
        ui::OffsetResetPanel* panel = window->groupDetail()->offsetPanel();
        QSignalSpy finished(controller, &ui::ResetController::writeFinished);

        ui::SavedConnection again = window->connection();
        window->connectTo(again); // the same cluster, a new connection: what matters is the switch
        QVERIFY(finished.wait(30000));
        const QString summary = finished.first().first().toString();
        QVERIFY2(summary.contains(QStringLiteral("nothing was written")), qPrintable(summary));
        QVERIFY(!controller->isApplying());
        QVERIFY2(panel->statusText().contains(QStringLiteral("Nothing changed")),
                 qPrintable(panel->statusText()));
        QCOMPARE(test::committedOffsetsByKafka(group, topic), (QMap<int, qlonglong>{{0, 8}}));

        // The next write goes through, on the new connection, once the member has left.
        QVERIFY(member.leave());
        OffsetEditModel* model = panel->model();
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOfKey({topic, 0}) >= 0, 30000);
        QVERIFY(model->setSpec({model->rowOfKey({topic, 0})}, offsets::ResetMode::ToOffset,
                               QStringLiteral("3")));
        QTRY_VERIFY_WITH_TIMEOUT(previewReady(panel), 30000);
        panel->waitForEmptyBox()->setChecked(false);
        QTRY_VERIFY2_WITH_TIMEOUT(panel->applyButton()->isEnabled(),
                                  qPrintable(panel->applyBlockReason()), 60000);
        // The member's last commit is minutes old at most: the confirmation may name it.
        ui::ApplyConfirmDialog::setNextAnswers({true, true});
        panel->applyButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!panel->lastResults().isEmpty(), 60000);
        QVERIFY2(panel->lastResults().first().endsWith(QStringLiteral("ok")),
                 qPrintable(panel->lastResults().join(u'\n')));
        QCOMPARE(test::committedOffsetsByKafka(group, topic), (QMap<int, qlonglong>{{0, 3}}));
    }

    void switchingConnectionLetsAWriteOnItsWayComplete() {
        const QString topic = test::uniqueName(QStringLiteral("switch-sent"));
        const QString group = test::uniqueName(QStringLiteral("switch-sent-group"));
        QVERIFY(test::createTopic(topic, 1));
        QVERIFY(test::produce(topic, 8, 0));
        QVERIFY(test::commitOffsets(group, topic, {8}));
        test::FaultyProxy proxy(test::bootstrapServers());
        QVERIFY(proxy.start());
        test::FaultyProxy::Fault hold;
        hold.mode = test::FaultyProxy::Mode::HoldRequest;
        hold.api = kafka::protocol::ApiKey::OffsetCommit;
        hold.delay = 600s;
        hold.times = 1;
        proxy.setFault(hold);

        ui::MainWindow window;
        ui::SavedConnection throughProxy;
        throughProxy.profile = test::brokerProfile();
        throughProxy.profile.bootstrapServers = proxy.address();
        throughProxy.refreshInterval = 500ms;
        window.connectTo(throughProxy);
        window.openGroup(group);
        window.groupDetail()->tabs()->setCurrentIndex(ui::GroupDetailWidget::OffsetsTab);
        window.show();
        ui::OffsetResetPanel* panel = window.groupDetail()->offsetPanel();
        OffsetEditModel* model = panel->model();
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOfKey({topic, 0}) >= 0, 30000);
        QVERIFY(model->setSpec({model->rowOfKey({topic, 0})}, offsets::ResetMode::ToOffset,
                               QStringLiteral("5")));
        QTRY_VERIFY_WITH_TIMEOUT(previewReady(panel), 30000);
        QTRY_VERIFY2_WITH_TIMEOUT(panel->applyButton()->isEnabled(),
                                  qPrintable(panel->applyBlockReason()), 30000);
        QSignalSpy finished(window.resetController(), &ui::ResetController::writeFinished);
        ui::ApplyConfirmDialog::setNextAnswer(true); // names the set-up commit: write anyway
        panel->applyButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(proxy.faultsApplied() == 1, 60000); // sent, held in the proxy

        window.connectTo(test::brokerProfile()); // straight to the broker now
        proxy.releaseHeldRequests();
        QVERIFY(finished.wait(60000));
        const QString summary = finished.first().first().toString();
        QVERIFY2(summary.contains(QStringLiteral("1 of 1 partition(s) written")),
                 qPrintable(summary));
        QVERIFY(!window.resetController()->isApplying());
        QCOMPARE(test::committedOffsetsByKafka(group, topic), (QMap<int, qlonglong>{{0, 5}}));
        offsets::WriteJournal journal;
        offsets::JournalQuery query;
        query.groupId = group;
        const auto entries = journal.entries(query);
        QVERIFY(entries && entries.value().size() == 1);
        QCOMPARE(entries.value().first().state, offsets::JournalState::Done);
        QCOMPARE(entries.value().first().partitions.first().after, std::optional<int64_t>(5));
    }

    void aWatchedGroupsWriteOverwrittenRaisesAnAlert() {
        const QString topic = test::uniqueName(QStringLiteral("overwritten-orders"));
        const QString group = test::uniqueName(QStringLiteral("overwritten-group"));
        QVERIFY(test::createTopic(topic, 1));
        QVERIFY(test::produce(topic, 200, 0));
        QProcess committer; // assign() only: the group stays Empty
        committer.start(QStringLiteral("/usr/bin/python3"),
                        {QStringLiteral("-c"), QStringLiteral(R"(
import select, sys
from kafka import KafkaConsumer, TopicPartition
from kafka.structs import OffsetAndMetadata
c = KafkaConsumer(bootstrap_servers='%1', group_id='%2', enable_auto_commit=False)
tp = TopicPartition('%3', 0)
c.assign([tp])
while True:
    c.commit({tp: OffsetAndMetadata(170, '')})
    print('committed', flush=True)
    ready, _, _ = select.select([sys.stdin], [], [], 0.5)
    if ready and not sys.stdin.readline():
        break
c.close()
)")
                                                   .arg(test::bootstrapServers(), group, topic)});
        QVERIFY(committer.waitForReadyRead(60000));

        auto window = test::brokerWindow();
        QList<alerts::Alert> notified;
        window->alertController()->setNotifier(std::make_unique<RecordingNotifier>(&notified));
        window->alertController()->setWatched(group, true);
        window->openGroup(group);
        window->groupDetail()->tabs()->setCurrentIndex(ui::GroupDetailWidget::OffsetsTab);
        window->show();
        ui::OffsetResetPanel* panel = window->groupDetail()->offsetPanel();
        OffsetEditModel* model = panel->model();
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOfKey({topic, 0}) >= 0, 30000);
        QVERIFY(model->setSpec({model->rowOfKey({topic, 0})}, offsets::ResetMode::ToOffset,
                               QStringLiteral("2")));
        QTRY_VERIFY_WITH_TIMEOUT(previewReady(panel), 30000);
        QTRY_VERIFY2_WITH_TIMEOUT(panel->applyButton()->isEnabled(),
                                  qPrintable(panel->applyBlockReason()), 30000);
        ui::ApplyConfirmDialog::setNextAnswer(true); // "Write anyway", with the committer named
        panel->applyButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!panel->lastResults().isEmpty(), 60000);
        const auto overwritten = [&] {
            return std::find_if(notified.cbegin(), notified.cend(), [](const alerts::Alert& a) {
                return a.kind == alerts::AlertKind::WriteOverwritten;
            });
        };
        QTRY_VERIFY_WITH_TIMEOUT(overwritten() != notified.cend(), 60000);
        QCOMPARE(overwritten()->group, group);
        QVERIFY2(overwritten()->to.contains(QStringLiteral(":0 170")),
                 qPrintable(overwritten()->title()));
        QVERIFY2(panel->statusText().contains(QStringLiteral("Overwritten")),
                 qPrintable(panel->statusText()));
        committer.closeWriteChannel();
        QVERIFY(committer.waitForFinished(30000));
    }

    void historyShowsThisClusterAPageAtATime() {
        const QString group = test::uniqueName(QStringLiteral("history-pages"));
        auto window = test::brokerWindow();
        window->openGroup(group);
        window->show();
        ui::ResetController* controller = window->resetController();
        QTRY_VERIFY_WITH_TIMEOUT(!controller->clusterId().isEmpty(), 30000);
        offsets::WriteJournal journal;
        QVERIFY(journal.open());
        const auto record = [&](const QString& clusterId) {
            offsets::JournalEntry entry;
            entry.id = offsets::WriteJournal::newEntryId();
            entry.time = QDateTime::currentDateTimeUtc();
            entry.cluster = test::bootstrapServers();
            entry.clusterId = clusterId;
            entry.groupId = group;
            entry.description = QStringLiteral("to-offset 1");
            return bool(journal.insert(entry));
        };
        for (int i = 0; i < 620; ++i)
            QVERIFY(record(controller->clusterId()));
        for (int i = 0; i < 3; ++i)
            QVERIFY(record(QStringLiteral("another-cluster")));

        ui::ResetHistoryPanel* history = window->groupDetail()->historyPanel();
        history->reload();
        QTRY_COMPARE_WITH_TIMEOUT(history->entries().size(), 500, 10000);
        QVERIFY(history->olderButton()->isVisibleTo(history));
        history->olderButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(history->entries().size(), 620, 10000);
        QVERIFY(!history->olderButton()->isVisibleTo(history));
        for (const offsets::JournalEntry& entry : history->entries())
            QCOMPARE(entry.clusterId, controller->clusterId());
        history->allClustersBox()->setChecked(true);
        QTRY_COMPARE_WITH_TIMEOUT(history->entries().size(), 500, 10000);
        const auto& page = history->entries();
        QCOMPARE(std::count_if(page.cbegin(), page.cend(),
                               [](const offsets::JournalEntry& entry) {
                                   return entry.clusterId == QStringLiteral("another-cluster");
                               }),
                 3);
    }

    void closingWhileAWriteWaitsAsksAndClosesWhenItIsDone() {
        const QString topic = test::uniqueName(QStringLiteral("close-orders"));
        const QString group = test::uniqueName(QStringLiteral("close-group"));
        QVERIFY(test::createTopic(topic, 1));
        QVERIFY(test::produce(topic, 8, 0));
        QVERIFY(test::commitOffsets(group, topic, {8}));
        test::PythonGroupMember member(topic, group, QStringLiteral("holder"));
        QVERIFY(member.waitUntilAssigned());
        auto window = windowWithArmedWrite(topic, group);
        QVERIFY(window);
        QList<alerts::Alert> notified;
        window->alertController()->setNotifier(std::make_unique<RecordingNotifier>(&notified));

        QString asked;
        QTimer::singleShot(0, this, [&asked] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box)
                return;
            asked = box->text();
            for (QAbstractButton* button : box->buttons())
                if (button->text() == QStringLiteral("Close When Done"))
                    button->click();
        });
        window->close();
        QVERIFY2(asked.contains(QStringLiteral("writing offsets")), qPrintable(asked));
        QVERIFY(!window->isVisible());
        QVERIFY(window->resetController()->isApplying());

        QVERIFY(member.leave());
        // Groups watched by the earlier functions may raise alerts of their own meanwhile.
        const auto writeFinished = [&] {
            return std::find_if(notified.cbegin(), notified.cend(), [](const alerts::Alert& a) {
                return a.kind == alerts::AlertKind::WriteFinished;
            });
        };
        QTRY_VERIFY_WITH_TIMEOUT(writeFinished() != notified.cend(), 90000);
        QVERIFY2(writeFinished()->detail.contains(QStringLiteral("1 of 1 partition(s) written")),
                 qPrintable(writeFinished()->detail));
        QVERIFY(!window->resetController()->isApplying());
        QCOMPARE(test::committedOffsetsByKafka(group, topic), (QMap<int, qlonglong>{{0, 2}}));
    }
};

QTEST_MAIN(TestWriteOutlivesItsWindow)
#include "TestWriteOutlivesItsWindow.moc"
