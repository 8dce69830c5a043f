// ClusterMonitor watching one group on the real broker: the group's full snapshots arrive
// on the caller's thread as values inside each ClusterView, with the exact timeline from the
// offsets topic; stop() ends the worker and nothing arrives after it.
#include "TestBroker.h"

#include "monitor/ClusterMonitor.h"

#include <QProcess>
#include <QSignalSpy>
#include <QTest>

using namespace groupscope;
using monitor::ClusterMonitor;
using monitor::ClusterView;
using monitor::GroupMonitorSnapshot;

namespace {

// librdkafka 2.0.2 crashes in ListConsumerGroupOffsets when a coordinator answers
// NOT_COORDINATOR (confluentinc/librdkafka#5040), which happens on a fresh broker while
// __consumer_offsets is being created and loaded. One commit by python3-kafka (which
// retries until the coordinator is ready) makes sure the topic is loaded before any poll.
bool offsetsTopicReady(const QString& topic) {
    const auto result =
        test::runPython(QStringLiteral(R"(
from kafka import KafkaConsumer, TopicPartition
from kafka.structs import OffsetAndMetadata
c = KafkaConsumer(bootstrap_servers=BOOTSTRAP, group_id='%1', enable_auto_commit=False)
c.commit({TopicPartition('%2', 0): OffsetAndMetadata(0, None)})
c.close()
)")
                            .arg(test::uniqueName(QStringLiteral("warm-up")), topic));
    if (!result.ok())
        qWarning("warm-up commit failed: %s", result.err.constData());
    return result.ok();
}

} // namespace

class TestClusterMonitorWatchedGroup : public QObject {
    Q_OBJECT

private slots:
    void deliversSnapshotsOnTheCallersThread() {
        QString why;
        if (test::bootstrapServers(&why).isEmpty())
            QFAIL(qPrintable(why));
        const QString topic = test::uniqueName(QStringLiteral("worker-topic"));
        const QString group = test::uniqueName(QStringLiteral("worker-group"));
        QVERIFY(test::createTopic(topic, 2));
        QVERIFY(test::produce(topic, 10));
        QVERIFY(offsetsTopicReady(topic));

        QProcess member;
        member.start(QStringLiteral("/usr/bin/python3"),
                     {QStringLiteral("-c"), QStringLiteral(R"(
import select, sys
from kafka import KafkaConsumer
c = KafkaConsumer('%1', bootstrap_servers='%2', group_id='%3', client_id='worker-member',
                  enable_auto_commit=True, auto_commit_interval_ms=200, auto_offset_reset='earliest')
while True:
    c.poll(timeout_ms=200)
    readable, _, _ = select.select([sys.stdin], [], [], 0)
    if readable and not sys.stdin.readline():
        break
c.close()
)")
                                                .arg(topic, test::bootstrapServers(), group)});
        QVERIFY(member.waitForStarted(10000));

        ClusterMonitor worker(test::brokerProfile());
        worker.setWatchedGroups({group});
        worker.setInterval(std::chrono::milliseconds(200));
        QSignalSpy snapshots(&worker, &ClusterMonitor::viewReady);
        QSignalSpy stopped(&worker, &ClusterMonitor::stopped);
        worker.start();

        GroupMonitorSnapshot latest;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                if (snapshots.isEmpty())
                    return false;
                const auto list = snapshots.last().first().value<ClusterView>().watched;
                if (list.size() != 1)
                    return false;
                latest = list.first();
                return latest.memberCount == 1 && latest.totalLag == 0 &&
                       latest.partitions.size() == 2 && !latest.timeline.generations.isEmpty() &&
                       !latest.commits.isEmpty(); // auto commits, read from the offsets topic
            }(),
            60000);
        QCOMPARE(latest.group, group);
        QVERIFY(!latest.timelineApproximate());
        QVERIFY(latest.timeline.generations.last().generationId >= 1);

        member.closeWriteChannel();
        QVERIFY(member.waitForFinished(30000));
        worker.stop();
        QTRY_COMPARE_WITH_TIMEOUT(stopped.size(), 1, 15000);
        const auto seen = snapshots.size();
        QTest::qWait(0); // queued deliveries from before stop() are dropped, not emitted
        QCOMPARE(snapshots.size(), seen);
    }
};

QTEST_GUILESS_MAIN(TestClusterMonitorWatchedGroup)
#include "TestClusterMonitorWatchedGroup.moc"
