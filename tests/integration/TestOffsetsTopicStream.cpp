// OffsetsTopicStream on the real broker: commits made by an independent client
// (python3-kafka) come back decoded with their group, partition and offset; the history
// window starts where the timestamp says; an unreadable topic is reported with its reason;
// a small queue bounds memory without losing or reordering records; stop() is prompt.
#include "TestBroker.h"

#include "monitor/OffsetsTopicStream.h"

#include <QElapsedTimer>
#include <QTest>

#include <variant>

using namespace groupscope;
using monitor::OffsetsTopicStream;

namespace {

// Commits offsets 1..count on partition 0 of `topic` for `group`, one commit each.
bool commitSequence(const QString& group, const QString& topic, int count) {
    const auto result = test::runPython(QStringLiteral(R"(
from kafka import KafkaConsumer, TopicPartition
from kafka.structs import OffsetAndMetadata
c = KafkaConsumer(bootstrap_servers=BOOTSTRAP, group_id='%1', enable_auto_commit=False)
for offset in range(1, %3 + 1):
    c.commit({TopicPartition('%2', 0): OffsetAndMetadata(offset, 'n%d' % offset)})
c.close()
)")
                                            .arg(group, topic)
                                            .arg(count));
    if (!result.ok())
        qWarning("commit failed: %s", result.err.constData());
    return result.ok();
}

OffsetsTopicStream::Options optionsFor(const QString& group) {
    OffsetsTopicStream::Options options;
    options.profile = test::brokerProfile();
    options.groups = {group};
    return options;
}

// Takes records until `count` commits of the group arrived (or the deadline passed).
QList<offsetstopic::OffsetCommit> takeCommits(OffsetsTopicStream& stream, int count) {
    QList<offsetstopic::OffsetCommit> commits;
    test::waitFor(
        [&] {
            for (const auto& record : stream.take(3)) // small batches: the queue refills
                if (const auto* commit = std::get_if<offsetstopic::OffsetCommit>(&record.record))
                    commits.append(*commit);
            return commits.size() >= count;
        },
        std::chrono::seconds(60));
    return commits;
}

} // namespace

class TestOffsetsTopicStream : public QObject {
    Q_OBJECT

    QString m_topic;

private slots:
    void initTestCase() {
        QString why;
        if (test::bootstrapServers(&why).isEmpty())
            QFAIL(qPrintable(why));
        m_topic = test::uniqueName(QStringLiteral("streamed"));
        QVERIFY(test::createTopic(m_topic, 1));
    }

    void replaysHistoryThroughABoundedQueue() {
        const QString group = test::uniqueName(QStringLiteral("history"));
        QVERIFY(commitSequence(group, m_topic, 20));
        auto options = optionsFor(group);
        options.queueCapacity = 4; // far fewer than the records waiting
        OffsetsTopicStream stream(options);
        stream.start();
        const auto commits = takeCommits(stream, 20);
        QCOMPARE(commits.size(), 20);
        for (int i = 0; i < 20; ++i) {
            QCOMPARE(commits[i].group, group);
            QCOMPARE(commits[i].topicPartition, (kafka::TopicPartition{m_topic, 0}));
            QCOMPARE(commits[i].offset, int64_t(i + 1)); // in commit order
            QCOMPARE(commits[i].metadata, QStringLiteral("n%1").arg(i + 1));
            QVERIFY(commits[i].recordTimestamp > 0);
        }
        QVERIFY(test::waitFor([&] { return stream.status().caughtUp; }));
        const auto status = stream.status();
        QCOMPARE(status.state, OffsetsTopicStream::State::Reading);
        QVERIFY(status.partitions > 0);
        QCOMPARE(status.decodeErrors, int64_t(0));
        QElapsedTimer stopping;
        stopping.start();
        stream.stop();
        QVERIFY2(stopping.elapsed() < 5000, "stop() must not wait for anything slow");
    }

    void historyStartsAtTheWindow() {
        const QString group = test::uniqueName(QStringLiteral("window"));
        QVERIFY(commitSequence(group, m_topic, 3));
        // A window that opens after those commits: they are not replayed, new ones arrive.
        lag::ManualClock clock(QDateTime::currentMSecsSinceEpoch() + 1000);
        auto options = optionsFor(group);
        options.history = std::chrono::milliseconds(1);
        options.clock = &clock;
        OffsetsTopicStream stream(options);
        stream.start();
        QVERIFY(test::waitFor([&] { return stream.status().caughtUp; }));
        QVERIFY(stream.take().empty());
        QVERIFY(commitSequence(group, m_topic, 1));
        const auto commits = takeCommits(stream, 1);
        QCOMPARE(commits.size(), 1);
        QCOMPARE(commits.first().offset, int64_t(1));
    }

    void unreadableTopicIsReportedWithItsReason() {
        auto options = optionsFor(QStringLiteral("any"));
        options.topic = test::uniqueName(QStringLiteral("missing-offsets-topic"));
        options.retryInterval = std::chrono::milliseconds(200);
        OffsetsTopicStream stream(options);
        stream.start();
        QVERIFY(test::waitFor(
            [&] { return stream.status().state == OffsetsTopicStream::State::Unreadable; }));
        const auto status = stream.status();
        QVERIFY2(status.reason.contains(options.topic), qPrintable(status.reason));
        QVERIFY2(status.reason.contains(QStringLiteral("UNKNOWN_TOPIC_OR_PART")),
                 qPrintable(status.reason));
        QVERIFY(!status.caughtUp);
        QElapsedTimer stopping;
        stopping.start();
        stream.stop();
        QVERIFY2(stopping.elapsed() < 5000, "stop() during retries must be prompt");
        QCOMPARE(stream.status().state, OffsetsTopicStream::State::Stopped);
    }
};

QTEST_GUILESS_MAIN(TestOffsetsTopicStream)
#include "TestOffsetsTopicStream.moc"
