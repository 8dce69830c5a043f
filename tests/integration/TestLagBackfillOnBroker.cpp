// The lag rebuilt from the offsets topic against the real broker: MonitorSession replays
// a commit, asks ListOffsets-by-timestamp for the past log ends, and the snapshot carries
// the trail. Records written after the commit make the lag grow during the trail, and
// records stamped after "now" make the log end at every past moment differ from today's,
// so the test sees that the rebuild uses the log end of each moment, in order.
#include "TestBroker.h"

#include "monitor/MonitorSession.h"

#include <QTest>

using namespace groupscope;
using monitor::MonitorSession;

namespace {

// `count` records on partition 0, stamped `firstOffsetMs` from now, one second apart.
bool produceStamped(const QString& topic, int count, qint64 firstOffsetMs) {
    const auto result = test::runPython(QStringLiteral(R"(
import time
from kafka import KafkaProducer
p = KafkaProducer(bootstrap_servers=BOOTSTRAP, acks='all', retries=100, retry_backoff_ms=200)
now = int(time.time() * 1000)
sent = [p.send('%1', value=b'x', partition=0, timestamp_ms=now + %3 + (i * 1000 if %3 else 0))
        for i in range(%2)]
p.flush()
for future in sent:  # a failed send is only reported through its future
    future.get(timeout=60)
p.close()
)")
                                            .arg(topic)
                                            .arg(count)
                                            .arg(firstOffsetMs));
    if (!result.ok())
        qWarning("producing failed: %s", result.err.constData());
    return result.ok();
}

bool commit(const QString& group, const QString& topic, int offset) {
    const auto result = test::runPython(QStringLiteral(R"(
from kafka import KafkaConsumer, TopicPartition
from kafka.structs import OffsetAndMetadata
c = KafkaConsumer(bootstrap_servers=BOOTSTRAP, group_id='%1', enable_auto_commit=False)
c.commit({TopicPartition('%2', 0): OffsetAndMetadata(%3, None)})
c.close()
)")
                                            .arg(group, topic)
                                            .arg(offset));
    if (!result.ok())
        qWarning("commit failed: %s", result.err.constData());
    return result.ok();
}

} // namespace

class TestLagBackfillOnBroker : public QObject {
    Q_OBJECT

private slots:
    void snapshotCarriesTheLagAtPastMoments() {
        QString why;
        if (test::bootstrapServers(&why).isEmpty())
            QFAIL(qPrintable(why));
        const QString topic = test::uniqueName(QStringLiteral("backfill-topic"));
        const QString group = test::uniqueName(QStringLiteral("backfill-group"));
        QVERIFY(test::createTopic(topic, 1));
        QVERIFY(produceStamped(topic, 100, -30 * 60'000)); // offsets 0-99, half an hour ago
        QVERIFY(commit(group, topic, 40));
        // Offsets 100-119 are written after the commit, stamped as they are written (within
        // a few milliseconds); offsets 120-169 carry times 20 minutes ahead. So the rebuilt
        // lag is 100 - 40 before the second batch and 120 - 40 after it, never more, while
        // the lag a poll sees now is 170 - 40.
        QVERIFY(produceStamped(topic, 20, 0));
        QVERIFY(produceStamped(topic, 50, 20 * 60'000));

        MonitorSession::Options options;
        options.profile = test::brokerProfile();
        options.groups = {group};
        options.monitor.lagBackfillStepMs = 100;
        auto created = MonitorSession::create(options);
        QVERIFY2(created, qPrintable(created ? QString() : created.error().toString()));
        std::unique_ptr<MonitorSession> session = std::move(created).value();
        QVERIFY(
            session->waitForHistory(std::chrono::steady_clock::now() + std::chrono::seconds(60)));
        // The rebuild happens in the first refresh after the replay, once.
        const auto polled = session->refresh();
        QVERIFY2(polled, qPrintable(polled ? QString() : polled.error().toString()));

        const monitor::GroupMonitorSnapshot snapshot = session->monitor().snapshot(group);
        QCOMPARE(snapshot.totalLag, int64_t(130));
        const lag::LagTrail& trail = snapshot.lagBackfill;
        QVERIFY2(!trail.isEmpty(), "no moment between the commit and the first poll");
        QVERIFY(std::is_sorted(trail.timesMs.cbegin(), trail.timesMs.cend()));
        QVERIFY(trail.timesMs.last() <= snapshot.takenAtMs);
        QCOMPARE(trail.topicLag.keys(), QStringList{topic});
        QCOMPARE(trail.topicLag[topic], trail.totalLag);
        // Python's start-up alone keeps each batch more than one 100 ms step apart.
        QCOMPARE(trail.totalLag.first(), int64_t(60));
        QCOMPARE(trail.totalLag.last(), int64_t(80));
        QVERIFY(std::is_sorted(trail.totalLag.cbegin(), trail.totalLag.cend()));
        QVERIFY(session->monitor().groupsAwaitingLagBackfill().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestLagBackfillOnBroker)
#include "TestLagBackfillOnBroker.moc"
