// Throughput of ConsumerSession against a plain librdkafka poll loop and `kcat -C -e`, on
// the same 1,000,000 x 100-byte messages in the same run. Prints figures and ratios; the
// goal is at least 0.9x the plain loop. Not pass/fail.

#include "../engine/EngineTestSupport.h"
#include "TestBroker.h"

#include "consumer/ConsumerSession.h"

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
} // namespace

class BenchConsumerThroughput : public QObject {
    Q_OBJECT

private slots:
    void throughput();

private:
    double plainLoopSeconds(const QString& topic);
    double sessionSeconds(const QString& topic);
    double kcatSeconds(const QString& topic);
};

double BenchConsumerThroughput::plainLoopSeconds(const QString& topic) {
    kafka::ConfHandle conf(rd_kafka_conf_new());
    char reason[512];
    rd_kafka_conf_set(conf.get(), "bootstrap.servers",
                      test::bootstrapServers().toUtf8().constData(), reason, sizeof reason);
    rd_kafka_conf_set(conf.get(), "enable.partition.eof", "false", reason, sizeof reason);
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
    QElapsedTimer timer;
    timer.start();
    rd_kafka_assign(consumer.get(), list.get());
    int received = 0;
    while (received < messageCount && timer.elapsed() < 300'000) {
        kafka::MessageHandle message(rd_kafka_consumer_poll(consumer.get(), 100));
        if (message && !message->err)
            ++received;
    }
    const double seconds = timer.nsecsElapsed() / 1e9;
    rd_kafka_consumer_close(consumer.get());
    return received == messageCount ? seconds : -1;
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
    QElapsedTimer timer;
    timer.start();
    if (!session.assign(targets))
        return -1;
    size_t received = 0;
    while (received < size_t(messageCount) && timer.elapsed() < 300'000) {
        session.waitForMessages(std::chrono::milliseconds(100));
        received += session.takeAll(10'000).size();
    }
    const double seconds = timer.nsecsElapsed() / 1e9;
    return received == size_t(messageCount) ? seconds : -1;
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
    QString why;
    if (test::bootstrapServers(&why).isEmpty())
        QSKIP(qPrintable(why));
    const QString topic = test::uniqueName(QStringLiteral("bench-throughput"));
    QVERIFY(test::createTopic(topic, partitionCount));
    auto producer = test::TestProducer::createFor(test::bootstrapServers());
    QVERIFY(producer);
    for (int p = 0; p < partitionCount; ++p)
        QVERIFY(producer->produce(
            topic, p, messageCount / partitionCount, [](int) { return 0; }, 100));

    // Each client twice, alternating, best run counted: the machine is shared.
    double plain = 1e9, session = 1e9, kcat = 1e9;
    for (int round = 0; round < 2; ++round) {
        const double plainRun = plainLoopSeconds(topic);
        const double sessionRun = sessionSeconds(topic);
        const double kcatRun = kcatSeconds(topic);
        QVERIFY(plainRun > 0 && sessionRun > 0 && kcatRun > 0);
        plain = std::min(plain, plainRun);
        session = std::min(session, sessionRun);
        kcat = std::min(kcat, kcatRun);
    }
    auto rate = [](double seconds) { return messageCount / seconds; };
    qInfo("1,000,000 x 100 B over %d partitions (best of 2):", partitionCount);
    qInfo("  plain librdkafka poll loop: %.2f s, %.0f msg/s", plain, rate(plain));
    qInfo("  ConsumerSession:            %.2f s, %.0f msg/s (%.2fx the plain loop)", session,
          rate(session), plain / session);
    qInfo("  kcat -C -e:                 %.2f s, %.0f msg/s (%.2fx the plain loop)", kcat,
          rate(kcat), plain / kcat);
}

QTEST_GUILESS_MAIN(BenchConsumerThroughput)
#include "BenchConsumerThroughput.moc"
