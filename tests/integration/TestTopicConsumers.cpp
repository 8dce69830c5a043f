// groupscope-cli describe --topic on the real broker: the groups that read a topic, each
// with its partitions of it and its lag on it, equal to what Kafka's own
// kafka-consumer-groups --describe says of each group's partitions of that topic.
#include "TestBroker.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace groupscope;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");

// The sum of the LAG Kafka's tool prints for `group` on `topic`, and the partitions.
QPair<qlonglong, int> kafkaLagOn(const QString& group, const QString& topic) {
    const auto rows = test::describedByKafka(group);
    qlonglong lag = 0;
    int partitions = 0;
    for (const test::KafkaDescribeRow& row : rows.value_or(QList<test::KafkaDescribeRow>{}))
        if (row.topic == topic) {
            ++partitions;
            lag += row.lag.value_or(0);
        }
    return {lag, partitions};
}

} // namespace

class TestTopicConsumers : public QObject {
    Q_OBJECT

    test::ProcessResult groupscope(const QStringList& arguments) {
        return test::run(
            cliPath, QStringList{QStringLiteral("--bootstrap-server"), test::bootstrapServers()} +
                         arguments);
    }

private slots:
    void initTestCase() {
        QString why;
        if (test::bootstrapServers(&why).isEmpty())
            QFAIL(qPrintable(why));
    }

    void describeTopicListsItsGroupsWithKafkasLag() {
        const QString topic = test::uniqueName(QStringLiteral("read-by-two"));
        const QString other = test::uniqueName(QStringLiteral("read-by-one"));
        QVERIFY(test::createTopic(topic, 3));
        QVERIFY(test::createTopic(other, 1));
        QVERIFY(test::produce(topic, 60));
        QVERIFY(test::produce(other, 5));
        const QString whole = test::uniqueName(QStringLiteral("whole"));
        const QString part = test::uniqueName(QStringLiteral("part"));
        QVERIFY(test::commitOffsets(whole, topic, {1, 2, 3}));
        QVERIFY(test::commitOffsets(whole, other, {1}));
        QVERIFY(test::commitOffsets(part, topic, {4}));

        const auto result = groupscope({QStringLiteral("describe"), QStringLiteral("--topic"),
                                        topic, QStringLiteral("--json")});
        QVERIFY2(result.ok(), result.err.constData());
        QMap<QString, QJsonObject> byGroup;
        for (const QJsonValue& value : QJsonDocument::fromJson(result.out).array())
            byGroup.insert(value[QStringLiteral("group")].toString(), value.toObject());
        QCOMPARE(byGroup.keys(), (QStringList{part, whole}));
        for (const QString& group : {whole, part}) {
            const QJsonObject row = byGroup.value(group);
            const auto [lag, partitions] = kafkaLagOn(group, topic);
            QCOMPARE(row[QStringLiteral("topic")].toString(), topic);
            QCOMPARE(row[QStringLiteral("topicPartitions")].toInt(), 3);
            QCOMPARE(row[QStringLiteral("partitions")].toInt(), partitions);
            QCOMPARE(row[QStringLiteral("lag")].toInteger(), lag);
            QCOMPARE(row[QStringLiteral("logSize")].toInteger(), qint64(60));
        }
        QCOMPARE(byGroup.value(part)[QStringLiteral("partitions")].toInt(), 1);

        // The text table has the same rows.
        const auto text =
            groupscope({QStringLiteral("describe"), QStringLiteral("--topic"), topic});
        QVERIFY2(text.ok(), text.err.constData());
        QVERIFY(text.out.startsWith("TOPIC"));
        QCOMPARE(text.out.count('\n'), 3);
    }

    void unknownTopicSaysSo() {
        const QString nothing = test::uniqueName(QStringLiteral("unread"));
        const auto result =
            groupscope({QStringLiteral("describe"), QStringLiteral("--topic"), nothing});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains(nothing.toUtf8()), result.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestTopicConsumers)
#include "TestTopicConsumers.moc"
