// Targets given as partition id + offset, as timestamps, and as earliest/latest resolve to
// the same offsets that Kafka's own kafka-consumer-groups resolves (real broker: the mock
// cluster cannot look offsets up by timestamp). Delivery then starts at those offsets.

#include "EngineTestSupport.h"
#include "TestBroker.h"

#include "consumer/ConsumerSession.h"

#include <QDateTime>
#include <QTest>

using namespace groupscope;
using namespace groupscope::consumer;
using groupscope::test::DeliveryLog;
using groupscope::test::TestProducer;
using kafka::TopicPartition;

namespace {
constexpr int partitionCount = 3;
constexpr int perPartition = 100;
} // namespace

class TestRepositionByTimestamp : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void resolvesLikeKafkasTool_data();
    void resolvesLikeKafkasTool();

private:
    // NEW-OFFSET per partition from `kafka-consumer-groups --reset-offsets ... --dry-run`.
    QMap<int, int64_t> kafkaToolOffsets(const QStringList& resetArguments);
    int64_t timestampOf(int partition, int index) const {
        return m_baseTimestamp + index * 1000 + partition * 7;
    }

    QString m_topic;
    QString m_group;
    int64_t m_baseTimestamp = 0;
    std::unique_ptr<ConsumerSession> m_session;
};

void TestRepositionByTimestamp::initTestCase() {
    QString why;
    const QString bootstrap = test::bootstrapServers(&why);
    if (bootstrap.isEmpty())
        QSKIP(qPrintable(why));
    m_topic = test::uniqueName(QStringLiteral("bytime"));
    m_group = test::uniqueName(QStringLiteral("group"));
    QVERIFY(test::createTopic(m_topic, partitionCount));
    auto producer = TestProducer::createFor(bootstrap);
    QVERIFY(producer);
    // Whole seconds apart and a little shifted per partition, an hour in the past.
    m_baseTimestamp = (QDateTime::currentMSecsSinceEpoch() / 1000 - 3600) * 1000;
    for (int p = 0; p < partitionCount; ++p)
        QVERIFY(producer->produce(m_topic, p, perPartition,
                                  [&](int index) { return timestampOf(p, index); }));

    // A session that uses the group for commits but never joins it: Kafka's tool only
    // resets groups without active members.
    ConsumerSessionOptions options;
    options.profile = test::brokerProfile();
    options.groupId = m_group;
    options.bufferCapacity = 1000;
    auto created = ConsumerSession::create(options);
    QVERIFY(created);
    m_session = std::move(created.value());
    QMap<TopicPartition, RepositionTarget> start;
    for (int p = 0; p < partitionCount; ++p)
        start.insert({m_topic, p}, RepositionTarget::earliest());
    QVERIFY(m_session->assign(start));
}

QMap<int, int64_t> TestRepositionByTimestamp::kafkaToolOffsets(const QStringList& resetArguments) {
    const auto result = test::kafkaConsumerGroups(
        QStringList{QStringLiteral("--reset-offsets"), QStringLiteral("--group"), m_group,
                    QStringLiteral("--topic"), m_topic, QStringLiteral("--dry-run")} +
        resetArguments);
    QMap<int, int64_t> offsets;
    if (!result.ok())
        qWarning("kafka-consumer-groups failed: %s", result.err.constData());
    // Rows are GROUP TOPIC PARTITION NEW-OFFSET; read the two columns after each topic.
    const QList<QByteArray> words = result.out.simplified().split(' ');
    for (qsizetype i = 0; i + 2 < words.size(); ++i)
        if (words[i] == m_topic.toUtf8())
            offsets.insert(words[i + 1].toInt(), words[i + 2].toLongLong());
    if (offsets.isEmpty())
        qWarning("no offsets in the output of kafka-consumer-groups: %s", result.out.constData());
    return offsets;
}

void TestRepositionByTimestamp::resolvesLikeKafkasTool_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<qint64>("value");
    // Between messages, exactly on a message, before everything, after everything.
    QTest::newRow("timestamp between messages") << QStringLiteral("timestamp") << qint64(50'003);
    QTest::newRow("timestamp on a message") << QStringLiteral("timestamp") << qint64(20'007);
    QTest::newRow("timestamp before all") << QStringLiteral("timestamp") << qint64(-500'000);
    QTest::newRow("timestamp after all") << QStringLiteral("timestamp") << qint64(500'000);
    QTest::newRow("partition id + offset") << QStringLiteral("offset") << qint64(42);
    QTest::newRow("earliest") << QStringLiteral("earliest") << qint64(0);
    QTest::newRow("latest") << QStringLiteral("latest") << qint64(0);
}

void TestRepositionByTimestamp::resolvesLikeKafkasTool() {
    QFETCH(QString, kind);
    QFETCH(qint64, value);
    RepositionTarget target;
    QStringList toolArguments;
    if (kind == u"timestamp") {
        const int64_t timestamp = m_baseTimestamp + value;
        target = RepositionTarget::timestamp(timestamp);
        toolArguments = {QStringLiteral("--to-datetime"),
                         QDateTime::fromMSecsSinceEpoch(timestamp, Qt::UTC)
                             .toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz"))};
    } else if (kind == u"offset") {
        target = RepositionTarget::offset(value);
        toolArguments = {QStringLiteral("--to-offset"), QString::number(value)};
    } else if (kind == u"earliest") {
        target = RepositionTarget::earliest();
        toolArguments = {QStringLiteral("--to-earliest")};
    } else {
        target = RepositionTarget::latest();
        toolArguments = {QStringLiteral("--to-latest")};
    }

    RepositionRequest request;
    for (int p = 0; p < partitionCount; ++p)
        request.targets.insert({m_topic, p}, target);
    auto outcomes = m_session->reposition(request);
    QVERIFY(outcomes);
    const QMap<int, int64_t> expected = kafkaToolOffsets(toolArguments);
    QCOMPARE(expected.size(), partitionCount);
    for (const RepositionOutcome& outcome : outcomes.value()) {
        QVERIFY2(outcome.ok(), qPrintable(outcome.error.toString()));
        QCOMPARE(outcome.newPosition, expected.value(outcome.topicPartition.partition));
        QCOMPARE(m_session->position(outcome.topicPartition), outcome.newPosition);
    }
    // Delivery starts at the resolved offset, and its timestamp is the first one at or
    // after the target.
    DeliveryLog log;
    QVERIFY(test::drainUntil(*m_session, log, [&] {
        for (int p = 0; p < partitionCount; ++p)
            if (int64_t(log.count({m_topic, p})) < perPartition - expected.value(p))
                return false;
        return true;
    }));
    for (int p = 0; p < partitionCount; ++p) {
        const TopicPartition partition{m_topic, p};
        if (expected.value(p) < perPartition)
            QVERIFY(test::isContiguousRange(log.offsets(partition), expected.value(p),
                                            perPartition - 1));
        else
            QVERIFY(log.offsets(partition).empty());
    }
}

QTEST_GUILESS_MAIN(TestRepositionByTimestamp)
#include "TestRepositionByTimestamp.moc"
