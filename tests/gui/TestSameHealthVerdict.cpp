// The group list and the open group's detail show one health verdict, from one live
// pipeline, on a group whose verdict used to differ between the two: a consumer that keeps
// committing the same offset while messages wait (stuck on a message, say). The offsets
// topic shows each of those commits, so Burrow's rules call it a stall (ERR); polls only
// ever see the offset unchanged, i.e. one commit, which is not enough to judge, so the
// list's poll-only verdict was OK while the detail (fed by the topic) said ERR.

#include "TestBroker.h"

#include "models/GroupListModel.h"
#include "widgets/GroupDetailWidget.h"
#include "windows/MainWindow.h"

#include <QApplication>
#include <QProcess>
#include <QTest>

using namespace groupscope;
using groupscope::ui::GroupListModel;
using groupscope::ui::MainWindow;

namespace {

QString listedHealth(const MainWindow& window, const QString& group) {
    const int row = window.groupListModel()->rowOf(group);
    if (row < 0)
        return {};
    return window.groupListModel()->index(row, GroupListModel::HealthColumn).data().toString();
}

} // namespace

class TestSameHealthVerdict : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { SKIP_WITHOUT_TEST_BROKER(); }

    void aStalledConsumerHasOneVerdictInTheListAndTheDetail() {
        const QString topic = test::uniqueName(QStringLiteral("verdict-orders"));
        const QString group = test::uniqueName(QStringLiteral("verdict-stuck"));
        QVERIFY(test::createTopic(topic, 1));
        QVERIFY(test::produce(topic, 100, 0));
        // Commits offset 10 again and again, 90 messages behind, until its stdin closes; more
        // than a second apart, as Burrow's window keeps one commit per second at most.
        QProcess stuck;
        stuck.start(QStringLiteral("/usr/bin/python3"),
                    {QStringLiteral("-c"), QStringLiteral(R"(
import select, sys, time
from kafka import KafkaConsumer, TopicPartition
from kafka.structs import OffsetAndMetadata
c = KafkaConsumer(bootstrap_servers='%1', group_id='%2', enable_auto_commit=False)
while True:
    c.commit({TopicPartition('%3', 0): OffsetAndMetadata(10, None)})
    readable, _, _ = select.select([sys.stdin], [], [], 1.5)
    if readable and not sys.stdin.readline():
        break
c.close()
)")
                                               .arg(test::bootstrapServers(), group, topic)});
        QVERIFY(stuck.waitForStarted(10000));

        MainWindow window;
        window.setRefreshInterval(std::chrono::milliseconds(300));
        window.connectTo(test::brokerProfile());
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.groupListModel()->rowOf(group) >= 0, 60000);
        // Opened once the stream is under way: the group's history is replayed for it.
        window.openGroup(group);
        ui::GroupDetailWidget* detail = window.groupDetail();
        QTRY_VERIFY_WITH_TIMEOUT(detail->monitorSnapshot().group == group, 60000);
        // The stall needs two commits in the window.
        QTRY_COMPARE_WITH_TIMEOUT(detail->monitorSnapshot().health.status, lag::GroupStatus::Error,
                                  90000);
        const QString verdict = lag::groupStatusName(lag::GroupStatus::Error);
        QTRY_COMPARE_WITH_TIMEOUT(listedHealth(window, group), verdict, 30000);
        // Refresh after refresh, the two show the same verdict.
        for (int check = 0; check < 5; ++check) {
            const qint64 seenAt = detail->monitorSnapshot().takenAtMs;
            QTRY_VERIFY_WITH_TIMEOUT(detail->monitorSnapshot().takenAtMs > seenAt, 30000);
            const QString shown = lag::groupStatusName(detail->monitorSnapshot().health.status);
            QCOMPARE(listedHealth(window, group), shown);
            QVERIFY2(detail->headerText().contains(QStringLiteral("health ") + shown),
                     qPrintable(detail->headerText()));
        }
        QCOMPARE(listedHealth(window, group), verdict);
        const int row = window.groupListModel()->rowOf(group);
        const QString reason = window.groupListModel()
                                   ->index(row, GroupListModel::HealthColumn)
                                   .data(Qt::ToolTipRole)
                                   .toString();
        QVERIFY2(reason.startsWith(topic + QStringLiteral(":0 is ")), qPrintable(reason));

        stuck.closeWriteChannel();
        QVERIFY(stuck.waitForFinished(30000));
    }
};

QTEST_MAIN(TestSameHealthVerdict)
#include "TestSameHealthVerdict.moc"
