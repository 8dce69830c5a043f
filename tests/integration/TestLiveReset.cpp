// A reset of a group whose only member is Groupscope's own ConsumerSession goes through
// that session's reposition engine: committed offsets (read back by python3-kafka) and the
// next delivered messages both land on the plan, where Kafka would refuse an Admin API
// write for an active group.
#include "TestBroker.h"

#include "consumer/ConsumerSession.h"
#include "kafka/AdminClient.h"
#include "offsets/ResetApplier.h"
#include "offsets/ResetPlanner.h"

#include <QTemporaryDir>
#include <QTest>

using namespace groupscope;

class TestLiveReset : public QObject {
    Q_OBJECT
private slots:
    void resetsItsOwnGroupThroughTheEngine() {
        QString why;
        if (test::bootstrapServers(&why).isEmpty())
            QFAIL(qPrintable(why));
        QTemporaryDir dataDir;
        const QString topic = test::uniqueName(QStringLiteral("live-reset"));
        const QString group = test::uniqueName(QStringLiteral("live-reset-group"));
        QVERIFY(test::createTopic(topic, 3));
        for (int partition = 0; partition < 3; ++partition)
            QVERIFY(test::produce(topic, 20, partition));

        consumer::ConsumerSessionOptions options;
        options.profile = test::brokerProfile();
        options.groupId = group;
        auto session = consumer::ConsumerSession::create(options);
        QVERIFY(session.ok());
        QVERIFY(session.value()->subscribe({topic}).ok());
        QVERIFY(test::waitFor([&] { return session.value()->assignment().size() == 3; },
                              std::chrono::seconds(60)));
        // Consume everything and commit, so the group sits at the log end (20).
        int taken = 0;
        QVERIFY(test::waitFor([&] {
            session.value()->waitForMessages(std::chrono::milliseconds(100));
            taken += int(session.value()->takeAll(1000).size());
            return taken == 60;
        }));
        QVERIFY(session.value()->commit().ok());

        auto admin = kafka::AdminClient::create(test::brokerProfile());
        QVERIFY(admin.ok());
        offsets::ResetPlanner planner(*admin.value());
        auto requests =
            planner.expandScope({group}, {false, {topic}}, offsets::ResetSpec::toOffset(5));
        QVERIFY(requests.ok());
        auto plan = planner.plan(requests.value());
        QVERIFY(plan.ok());
        QCOMPARE(plan.value().rows.size(), 3);

        offsets::AuditLog audit(dataDir.filePath(QStringLiteral("audit.jsonl")));
        offsets::ResetApplier applier(*admin.value(), audit);
        // Without the session the group is active and the reset is refused.
        auto refused = applier.apply(plan.value(), {});
        QVERIFY(refused.ok());
        QVERIFY(!refused.value().first().refusal.isEmpty());

        offsets::ApplyOptions live;
        live.liveSession = session.value().get();
        auto applied = applier.apply(plan.value(), live);
        QVERIFY(applied.ok());
        const auto& result = applied.value().first();
        QVERIFY2(result.refusal.isEmpty(), qPrintable(result.refusal));
        QCOMPARE(result.failedPartitions(), 0);
        for (const auto& partition : result.partitions) {
            QCOMPARE(partition.before, std::optional<int64_t>(20));
            QCOMPARE(partition.after, std::optional<int64_t>(5));
        }
        QVERIFY(!result.auditId.isEmpty());

        // The independent reader sees the new commits...
        const auto readBack = test::runPython(QStringLiteral(R"(
from kafka.admin import KafkaAdminClient
admin = KafkaAdminClient(bootstrap_servers=BOOTSTRAP)
print(sorted(om.offset for om in admin.list_consumer_group_offsets('%1').values()))
admin.close()
)")
                                                  .arg(group));
        QCOMPARE(readBack.out.trimmed(), QByteArray("[5, 5, 5]"));
        // ...and the session delivers from the target on.
        for (int partition = 0; partition < 3; ++partition) {
            std::vector<consumer::ConsumedMessage> next;
            QVERIFY(test::waitFor([&] {
                session.value()->waitForMessages(std::chrono::milliseconds(100));
                next = session.value()->take({topic, partition}, 1);
                return !next.empty();
            }));
            QCOMPARE(next.front().offset(), int64_t(5));
        }
    }
};

QTEST_GUILESS_MAIN(TestLiveReset)
#include "TestLiveReset.moc"
