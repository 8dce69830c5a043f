// The Records tab and the stuck consumer, on the real broker with python3-kafka clients:
//   - a partition's records around the group's commit, the commit marked, JSON values shown
//     indented in the detail;
//   - a consumer that fails on one record and commits the same offset over and over while
//     records keep arriving is named in the stuck banner (STALL, with its offset); its link
//     shows that record; "Skip This Record" puts offset + 1 into the Reset offsets table,
//     which applies it through the usual confirmation; Kafka's tool reads it back;
//   - a record larger than the fetch size (1 MiB per partition) and the value cut (at 1 MiB)
//     is shown, said to be cut, and read whole on request.

#include "BrokerWindow.h"

#include "controllers/ResetController.h"
#include "dialogs/ApplyConfirmDialog.h"
#include "models/GroupListModel.h"
#include "models/OffsetEditModel.h"
#include "models/PartitionTableModel.h"
#include "widgets/GroupDetailWidget.h"
#include "widgets/OffsetResetPanel.h"
#include "widgets/RecordsPanel.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace groupscope;

namespace {

bool produceOrders(const QString& topic, int from, int count) {
    const auto result = test::runPython(QStringLiteral(R"(
from kafka import KafkaProducer
p = KafkaProducer(bootstrap_servers=BOOTSTRAP, acks='all')
for n in range(%2, %2 + %3):
    p.send('%1', key=b'key-%d' % n, value=b'{"id":%d,"name":"order-%d"}' % (n, n),
           partition=0).get(timeout=60)
p.close()
)")
                                            .arg(topic)
                                            .arg(from)
                                            .arg(count));
    return result.ok();
}

bool pageShown(ui::RecordsPanel* panel) {
    return !panel->isLoading() && !panel->records().isEmpty();
}

} // namespace

class TestRecordsTab : public QObject {
    Q_OBJECT

    QTemporaryDir m_dataDir;

private slots:
    void initTestCase() {
        SKIP_WITHOUT_TEST_BROKER();
        QVERIFY(m_dataDir.isValid());
        test::keepGuiSettingsApart(m_dataDir.path());
    }

    void recordsAroundTheCommitWithTheCommitMarked() {
        const QString topic = test::uniqueName(QStringLiteral("tab-orders"));
        const QString group = test::uniqueName(QStringLiteral("tab-group"));
        QVERIFY(test::createTopic(topic, 1));
        QVERIFY(produceOrders(topic, 0, 30));
        QVERIFY(test::commitOffsets(group, topic, {12}));

        auto window = test::brokerWindow();
        window->openGroup(group);
        window->show();
        ui::GroupDetailWidget* detail = window->groupDetail();
        QTRY_VERIFY_WITH_TIMEOUT(detail->partitionModel()->rowCount() == 1, 30000);
        detail->showRecordsAtCommit({topic, 0});
        QCOMPARE(detail->tabs()->currentIndex(), int(ui::GroupDetailWidget::RecordsTab));
        ui::RecordsPanel* panel = detail->recordsPanel();
        QTRY_VERIFY2_WITH_TIMEOUT(pageShown(panel), qPrintable(panel->statusText()), 30000);
        QCOMPARE(panel->records().size(), 20); // 10 before, 10 after
        QCOMPARE(panel->records().first().offset, 2);
        QCOMPARE(panel->anchor().committedOffset, std::optional<int64_t>(12));
        // The commit's row is selected and marked; the detail has its value indented.
        const int row = panel->table()->currentRow();
        QCOMPARE(panel->table()->item(row, 0)->text(), QStringLiteral("▶ 12"));
        const QString text = panel->detail()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("\"id\": 12")) &&
                     text.contains(QStringLiteral("Key: key-12")),
                 qPrintable(text));
    }

    void aValueOverOneMebibyteIsCutThenReadWhole() {
        const QString topic = test::uniqueName(QStringLiteral("tab-large"));
        constexpr int valueSize = 1'500'000;
        // Over librdkafka's 1 MiB fetch size per partition and the broker's default
        // record size: the topic allows 3 MB.
        const auto produced = test::runPython(QStringLiteral(R"(
from kafka import KafkaProducer
from kafka.admin import KafkaAdminClient, NewTopic
admin = KafkaAdminClient(bootstrap_servers=BOOTSTRAP)
admin.create_topics([NewTopic('%1', 1, 1, topic_configs={'max.message.bytes': '3000000'})])
admin.close()
p = KafkaProducer(bootstrap_servers=BOOTSTRAP, acks='all', max_request_size=3000000)
p.send('%1', key=b'small', value=b'before', partition=0).get(timeout=60)
p.send('%1', key=b'large', value=b'x' * (%2 - 7) + b'THE-END', partition=0).get(timeout=60)
p.send('%1', key=b'small', value=b'after', partition=0).get(timeout=60)
p.close()
)")
                                                  .arg(topic)
                                                  .arg(valueSize));
        QVERIFY2(produced.ok(), produced.err.constData());

        const QString group = test::uniqueName(QStringLiteral("tab-large-group"));
        QVERIFY(test::commitOffsets(group, topic, {0}));

        auto window = test::brokerWindow();
        window->openGroup(group);
        window->show();
        ui::GroupDetailWidget* detail = window->groupDetail();
        QTRY_VERIFY_WITH_TIMEOUT(detail->partitionModel()->rowCount() == 1, 30000);
        detail->showRecordsAtCommit({topic, 0});
        ui::RecordsPanel* panel = detail->recordsPanel();
        QTRY_VERIFY2_WITH_TIMEOUT(pageShown(panel), qPrintable(panel->statusText()), 30000);
        QCOMPARE(panel->records().size(), 3);
        const records::Record& cut = panel->records().at(1);
        QCOMPARE(cut.valueSize, qsizetype(valueSize));
        QCOMPARE(cut.value.size(), qsizetype(1024 * 1024));
        QCOMPARE(panel->records().at(2).value, QByteArray("after"));

        panel->table()->selectRow(1);
        auto* readWhole = panel->findChild<QPushButton*>(QStringLiteral("readWholeValue"));
        QVERIFY(readWhole);
        QVERIFY2(readWhole->isVisibleTo(panel),
                 qPrintable(QString::number(panel->table()->currentRow()) + u' ' +
                            panel->detail()->toPlainText().left(300)));
        QVERIFY2(panel->detail()->toPlainText().contains(QStringLiteral("cut")),
                 qPrintable(panel->detail()->toPlainText().left(300)));
        readWhole->click();
        QTRY_VERIFY2_WITH_TIMEOUT(!panel->records().at(1).valueCut(),
                                  qPrintable(panel->statusText()), 30000);
        QVERIFY(panel->records().at(1).value.endsWith("THE-END"));
        QVERIFY(panel->detail()->toPlainText().endsWith(QStringLiteral("THE-END")));
        QVERIFY(!readWhole->isVisibleTo(panel));
    }

    void aStuckConsumerIsNamedAndItsRecordSkipped() {
        const QString topic = test::uniqueName(QStringLiteral("tab-poison"));
        const QString group = test::uniqueName(QStringLiteral("tab-stuck"));
        QVERIFY(test::createTopic(topic, 1));
        QVERIFY(produceOrders(topic, 0, 20));
        // Fails on offset 7 and retries it for ever, committing 7 each time (as a consumer
        // that commits on a timer does); a producer thread keeps adding records, so the lag
        // grows.
        QProcess stuck;
        stuck.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        stuck.start(QStringLiteral("/usr/bin/python3"),
                    {QStringLiteral("-c"), QStringLiteral(R"(
import select, sys, threading, time
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.structs import OffsetAndMetadata
stop = threading.Event()
def produce():
    p = KafkaProducer(bootstrap_servers='%1')
    n = 20
    while not stop.is_set():
        p.send('%2', value=b'{"id":%d}' % n, partition=0)
        n += 1
        time.sleep(0.2)
    p.close()
threading.Thread(target=produce, daemon=True).start()
c = KafkaConsumer(bootstrap_servers='%1', group_id='%3', enable_auto_commit=False)
tp = TopicPartition('%2', 0)
c.assign([tp])
while True:
    c.commit({tp: OffsetAndMetadata(7, 'failed on 7')})  # the poison record: no progress
    print('committed 7', flush=True)
    ready, _, _ = select.select([sys.stdin], [], [], 0.5)
    if ready and not sys.stdin.readline():
        break
stop.set()
c.close()
)")
                                               .arg(test::bootstrapServers(), topic, group)});
        QVERIFY(stuck.waitForReadyRead(60000));

        auto window = test::brokerWindow();
        window->openGroup(group);
        window->show();
        ui::GroupDetailWidget* detail = window->groupDetail();
        QTRY_VERIFY2_WITH_TIMEOUT(detail->stuckBanner()->isVisible(),
                                  qPrintable(detail->headerText()), 90000);
        const QString banner = detail->stuckBanner()->text();
        QVERIFY2(banner.contains(topic + QStringLiteral(":0 is STALL at committed offset 7")),
                 qPrintable(banner));
        // The group list's health tooltip names it too.
        const auto healthTip = [&] {
            ui::GroupListModel* groups = window->groupListModel();
            return groups->index(groups->rowOf(group), ui::GroupListModel::HealthColumn)
                .data(Qt::ToolTipRole)
                .toString();
        };
        QTRY_VERIFY2_WITH_TIMEOUT(
            healthTip().startsWith(topic + QStringLiteral(":0 is STALL at committed offset 7: ")),
            qPrintable(healthTip()), 30000);

        emit detail->stuckBanner()->linkActivated(topic + QStringLiteral(":0"));
        ui::RecordsPanel* panel = detail->recordsPanel();
        QTRY_VERIFY2_WITH_TIMEOUT(pageShown(panel), qPrintable(panel->statusText()), 30000);
        QCOMPARE(panel->anchor().offset, 7);
        QVERIFY(panel->skipButton()->isEnabled()); // the commit's record is selected

        panel->skipButton()->click();
        QCOMPARE(detail->tabs()->currentIndex(), int(ui::GroupDetailWidget::OffsetsTab));
        ui::OffsetEditModel* model = detail->offsetPanel()->model();
        const int row = model->rowOfKey({topic, 0});
        QVERIFY(row >= 0);
        QTRY_COMPARE_WITH_TIMEOUT(model->rowAt(row).newOffset, std::optional<int64_t>(8), 30000);

        // The consumer stops (as one would before a skip); the usual apply writes 8.
        stuck.closeWriteChannel();
        QVERIFY(stuck.waitForFinished(30000));
        ui::ApplyConfirmDialog::setNextAnswers({true, true});
        QTRY_VERIFY2_WITH_TIMEOUT(detail->offsetPanel()->applyButton()->isEnabled(),
                                  qPrintable(detail->offsetPanel()->applyBlockReason()), 30000);
        detail->offsetPanel()->applyButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!detail->offsetPanel()->lastResults().isEmpty(), 60000);
        QCOMPARE(test::committedOffsetsByKafka(group, topic), (QMap<int, qlonglong>{{0, 8}}));
    }
};

QTEST_MAIN(TestRecordsTab)
#include "TestRecordsTab.moc"
