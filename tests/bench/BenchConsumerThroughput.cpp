// Throughput of ConsumerSession against a plain librdkafka poll loop and `kcat -C -e`, on
// the same 1,000,000 x 100-byte messages in the same run. The plain loop uses the
// session's librdkafka properties, both are timed from their first message to their last,
// and a run counts only when it delivered every message of every partition once, in
// order. Prints figures and ratios; the goal is at least 0.9x the plain loop. Not
// pass/fail.

#include "../engine/EngineTestSupport.h"
#include "TestBroker.h"

#include "consumer/ConsumerSession.h"

#include <librdkafka/rdkafka.h>

#include <QElapsedTimer>
#include <QTest>

using namespace groupscope;
using namespace groupscope::consumer;
using kafka::TopicPartition;

namespace {
constexpr int partitionCount = 4;
constexpr int messageCount = 1'000'000;
// Producing and reading a million messages three times takes longer than Qt Test's
// default five minutes per function on a busy two-core machine.
const bool longerTimeout = qputenv("QTEST_FUNCTION_TIMEOUT", "1700000");

// The librdkafka properties ConsumerSession sets (ConsumerSession::create): the plain loop
// runs with the same ones, so that both fetch and account for offsets the same way. The
// defaults differ in what each message costs (the plain loop would store an offset per
// message and commit every five seconds).
const QList<QPair<QByteArray, QByteArray>> sessionProperties{
    {"client.id", "groupscope-consumer"},  {"enable.auto.commit", "false"},
    {"enable.auto.offset.store", "false"}, {"auto.offset.reset", "error"},
    {"enable.partition.eof", "false"},     {"partition.assignment.strategy", "range"},
};

// Counts what a reader delivered and checks it is the whole topic once: per partition,
// offsets from the log start to the log end, in order, each exactly once. A run counts
// only when complete, so neither side can look fast by stopping early or by counting a
// repeated message.
class ReadToEnd {
public:
    explicit ReadToEnd(std::map<int32_t, int64_t> logEnd)
        : m_logEnd(std::move(logEnd)) {
        for (const auto& [partition, end] : m_logEnd)
            m_next[partition] = 0;
    }
    void add(int32_t partition, int64_t offset) {
        if (!m_sinceFirst.isValid())
            m_sinceFirst.start();
        int64_t& next = m_next[partition];
        if (offset != next)
            m_inOrder = false;
        next = offset + 1;
        ++m_delivered;
    }
    bool reachedEnd() const {
        for (const auto& [partition, end] : m_logEnd)
            if (m_next.at(partition) < end)
                return false;
        return true;
    }
    bool complete() const {
        return m_inOrder && reachedEnd() && m_delivered == int64_t(messageCount);
    }
    // From the first message delivered until now (call it when the last one arrived).
    double secondsSinceFirst() const { return m_sinceFirst.nsecsElapsed() / 1e9; }

private:
    std::map<int32_t, int64_t> m_logEnd;
    std::map<int32_t, int64_t> m_next;
    int64_t m_delivered = 0;
    bool m_inOrder = true;
    QElapsedTimer m_sinceFirst;
};
} // namespace

class BenchConsumerThroughput : public QObject {
    Q_OBJECT

private slots:
    void throughput();

private:
    double plainLoopSeconds(const QString& topic);
    double sessionSeconds(const QString& topic);
    double kcatSeconds(const QString& topic);

    std::map<int32_t, int64_t> m_logEnd;
};

// Both start from absolute offsets and are timed the same way: from the first message the
// application gets until it holds the last message of every partition. The earlier
// version assigned the plain loop the logical BEGINNING, for which librdkafka 2.0.2 looks
// the offset up per partition and starts some partitions about half a second late, while
// the session resolves offsets itself; on a run of a few tenths of a second that start,
// not the reading, made the plain loop look 3-4x slower than the session.
double BenchConsumerThroughput::plainLoopSeconds(const QString& topic) {
    kafka::ConfHandle conf(rd_kafka_conf_new());
    char reason[512];
    rd_kafka_conf_set(conf.get(), "bootstrap.servers",
                      test::bootstrapServers().toUtf8().constData(), reason, sizeof reason);
    for (const auto& [key, value] : sessionProperties)
        rd_kafka_conf_set(conf.get(), key.constData(), value.constData(), reason, sizeof reason);
    // The consumer poll needs a group.id even without joining a group.
    rd_kafka_conf_set(conf.get(), "group.id",
                      test::uniqueName(QStringLiteral("bench-plain")).toUtf8().constData(), reason,
                      sizeof reason);
    kafka::KafkaHandle consumer(rd_kafka_new(RD_KAFKA_CONSUMER, conf.get(), reason, sizeof reason));
    if (!consumer)
        return -1;
    (void)conf.release();
    rd_kafka_poll_set_consumer(consumer.get());
    kafka::TopicPartitionListHandle list(rd_kafka_topic_partition_list_new(partitionCount));
    for (int p = 0; p < partitionCount; ++p)
        rd_kafka_topic_partition_list_add(list.get(), topic.toUtf8().constData(), p)->offset =
            RD_KAFKA_OFFSET_BEGINNING;
    // Absolute offsets, as the session assigns them (its resolver makes this request).
    if (rd_kafka_offsets_for_times(consumer.get(), list.get(), 10000) != RD_KAFKA_RESP_ERR_NO_ERROR)
        return -1;
    ReadToEnd reader(m_logEnd);
    QElapsedTimer timer;
    timer.start();
    kafka::ErrorHandle(rd_kafka_incremental_assign(consumer.get(), list.get()));
    while (!reader.reachedEnd() && timer.elapsed() < 300'000) {
        kafka::MessageHandle message(rd_kafka_consumer_poll(consumer.get(), 100));
        if (message && !message->err)
            reader.add(message->partition, message->offset);
    }
    const double seconds = reader.secondsSinceFirst();
    rd_kafka_consumer_close(consumer.get());
    return reader.complete() ? seconds : -1;
}

double BenchConsumerThroughput::sessionSeconds(const QString& topic) {
    ConsumerSessionOptions options;
    options.profile = test::brokerProfile();
    auto created = ConsumerSession::create(options);
    if (!created)
        return -1;
    ConsumerSession& session = *created.value();
    QMap<TopicPartition, RepositionTarget> targets;
    for (int p = 0; p < partitionCount; ++p)
        targets.insert({topic, p}, RepositionTarget::earliest());
    ReadToEnd reader(m_logEnd);
    QElapsedTimer timer;
    timer.start();
    if (!session.assign(targets))
        return -1;
    while (!reader.reachedEnd() && timer.elapsed() < 300'000) {
        session.waitForMessages(std::chrono::milliseconds(100));
        for (const ConsumedMessage& message : session.takeAll(10'000))
            reader.add(message.partition(), message.offset());
    }
    const double seconds = reader.secondsSinceFirst();
    return reader.complete() ? seconds : -1;
}

double BenchConsumerThroughput::kcatSeconds(const QString& topic) {
    QElapsedTimer timer;
    timer.start();
    const auto result = test::run(
        QStringLiteral("sh"),
        {QStringLiteral("-c"), QStringLiteral("kcat -C -b %1 -t %2 -o beginning -e -q > /dev/null")
                                   .arg(test::bootstrapServers(), topic)},
        {}, std::chrono::seconds(300));
    return result.ok() ? timer.nsecsElapsed() / 1e9 : -1;
}

void BenchConsumerThroughput::throughput() {
    Q_UNUSED(longerTimeout);
    SKIP_WITHOUT_TEST_BROKER();
    const QString topic = test::uniqueName(QStringLiteral("bench-throughput"));
    QVERIFY(test::createTopic(topic, partitionCount));
    auto producer = test::TestProducer::createFor(test::bootstrapServers());
    QVERIFY(producer);
    for (int p = 0; p < partitionCount; ++p) {
        QVERIFY(producer->produce(
            topic, p, messageCount / partitionCount, [](int) { return 0; }, 100));
        int64_t low = 0, high = 0;
        QCOMPARE(rd_kafka_query_watermark_offsets(producer->handle(), topic.toUtf8().constData(), p,
                                                  &low, &high, 10000),
                 RD_KAFKA_RESP_ERR_NO_ERROR);
        QCOMPARE(low, 0);
        m_logEnd[p] = high;
    }

    // Each client three times, alternating, best run counted: the machine is shared, and a
    // run of a few tenths of a second varies a lot.
    double plain = 1e9, session = 1e9, kcat = 1e9;
    for (int round = 0; round < 3; ++round) {
        const double plainRun = plainLoopSeconds(topic);
        const double sessionRun = sessionSeconds(topic);
        const double kcatRun = kcatSeconds(topic);
        QVERIFY(plainRun > 0 && sessionRun > 0 && kcatRun > 0);
        plain = std::min(plain, plainRun);
        session = std::min(session, sessionRun);
        kcat = std::min(kcat, kcatRun);
    }
    auto rate = [](double seconds) { return messageCount / seconds; };
    qInfo("1,000,000 x 100 B over %d partitions (best of 3):", partitionCount);
    qInfo("  plain librdkafka poll loop: %.2f s, %.0f msg/s", plain, rate(plain));
    qInfo("  ConsumerSession:            %.2f s, %.0f msg/s (%.2fx the plain loop)", session,
          rate(session), plain / session);
    qInfo("  kcat -C -e:                 %.2f s, %.0f msg/s (whole process, its start included;"
          " a reference, not a like-for-like ratio)",
          kcat, rate(kcat));
}

QTEST_GUILESS_MAIN(BenchConsumerThroughput)
#include "BenchConsumerThroughput.moc"
