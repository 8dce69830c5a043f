// Latency of one reposition (lock, pause, flush, resolve, seek, resume, unlock) of 1, 100
// and 1,000 partitions on the local broker: median and p99. Not pass/fail.

#include "../engine/EngineTestSupport.h"
#include "TestBroker.h"

#include "consumer/ConsumerSession.h"

#include <QElapsedTimer>
#include <QTest>

#include <algorithm>

using namespace groupscope;
using namespace groupscope::consumer;
using kafka::TopicPartition;

class BenchConsumerReposition : public QObject {
    Q_OBJECT

private slots:
    void latency_data();
    void latency();
};

void BenchConsumerReposition::latency_data() {
    QTest::addColumn<int>("partitions");
    QTest::addColumn<int>("rounds");
    QTest::newRow("1 partition") << 1 << 200;
    QTest::newRow("100 partitions") << 100 << 100;
    QTest::newRow("1000 partitions") << 1000 << 10;
}

void BenchConsumerReposition::latency() {
    QFETCH(int, partitions);
    QFETCH(int, rounds);
    SKIP_WITHOUT_TEST_BROKER();
    const QString topic = test::uniqueName(QStringLiteral("bench-reposition"));
    QVERIFY(test::createTopic(topic, partitions));
    auto producer = test::TestProducer::createFor(test::bootstrapServers());
    QVERIFY(producer);
    for (int p = 0; p < partitions; ++p)
        QVERIFY(producer->produce(topic, p, 20));

    ConsumerSessionOptions options;
    options.profile = test::brokerProfile();
    options.bufferCapacity = 50;
    options.operationTimeout = std::chrono::seconds(60);
    auto created = ConsumerSession::create(options);
    QVERIFY(created);
    ConsumerSession& session = *created.value();
    QMap<TopicPartition, RepositionTarget> targets;
    for (int p = 0; p < partitions; ++p)
        targets.insert({topic, p}, RepositionTarget::earliest());
    QVERIFY(session.assign(targets));
    QVERIFY(test::waitFor(
        [&] { return session.statistics().messagesReceived >= uint64_t(partitions) * 20; },
        std::chrono::seconds(120)));

    for (const bool byTimestamp : {false, true}) {
        std::vector<double> milliseconds;
        for (int round = 0; round < rounds; ++round) {
            RepositionRequest request;
            for (int p = 0; p < partitions; ++p)
                request.targets.insert({topic, p}, byTimestamp
                                                       ? RepositionTarget::timestamp(1000)
                                                       : RepositionTarget::offset(round % 20));
            QElapsedTimer timer;
            timer.start();
            auto outcomes = session.reposition(request);
            milliseconds.push_back(timer.nsecsElapsed() / 1e6);
            QVERIFY(outcomes);
            QVERIFY2(outcomes.value().first().ok(),
                     qPrintable(outcomes.value().first().error.toString()));
            session.takeAll(100'000);
        }
        std::sort(milliseconds.begin(), milliseconds.end());
        const double median = milliseconds[milliseconds.size() / 2];
        const double p99 = milliseconds[std::min(milliseconds.size() - 1,
                                                 size_t(double(milliseconds.size()) * 0.99))];
        qInfo("reposition of %4d partitions to %-9s: median %8.2f ms, p99 %8.2f ms (%d runs)",
              partitions, byTimestamp ? "timestamp" : "offset", median, p99, rounds);
    }
}

QTEST_GUILESS_MAIN(BenchConsumerReposition)
#include "BenchConsumerReposition.moc"
