#include "monitor/GroupInspector.h"

#include <QTest>

using namespace groupscope;
using kafka::TopicPartition;

namespace {
kafka::LogOffsets logOffsets(const QString& topic, int partition, int64_t start, int64_t end) {
    kafka::LogOffsets offsets;
    offsets.topicPartition = {topic, partition};
    offsets.logStartOffset = start;
    offsets.logEndOffset = end;
    return offsets;
}
} // namespace

class TestGroupSnapshot : public QObject {
    Q_OBJECT
private slots:
    void rowsAreAssignedPlusCommittedPartitions() {
        kafka::GroupDescription description;
        description.groupId = QStringLiteral("g");
        description.state = kafka::GroupState::Stable;
        kafka::MemberDescription member;
        member.memberId = QStringLiteral("m-1");
        member.clientId = QStringLiteral("c-1");
        member.host = QStringLiteral("/127.0.0.1");
        member.assignment = {{QStringLiteral("b"), 0}, {QStringLiteral("a"), 1}};
        description.members = {member};
        const QList<kafka::CommittedOffset> committed = {
            {{QStringLiteral("a"), 1}, 5, QStringLiteral("meta")},
            {{QStringLiteral("a"), 0}, 50, {}}, // committed, not assigned; above log end
        };
        QHash<TopicPartition, kafka::LogOffsets> logs;
        for (const auto& offsets :
             {logOffsets(QStringLiteral("a"), 0, 0, 40), logOffsets(QStringLiteral("a"), 1, 2, 9),
              logOffsets(QStringLiteral("b"), 0, 0, 7)})
            logs.insert(offsets.topicPartition, offsets);

        const auto snapshot = monitor::assembleGroupSnapshot(description, committed, logs);
        QCOMPARE(snapshot.partitions.size(), 3);
        // sorted by topic then partition
        QCOMPARE(snapshot.partitions[0].topicPartition, (TopicPartition{QStringLiteral("a"), 0}));
        QCOMPARE(snapshot.partitions[1].topicPartition, (TopicPartition{QStringLiteral("a"), 1}));
        QCOMPARE(snapshot.partitions[2].topicPartition, (TopicPartition{QStringLiteral("b"), 0}));
        // a truncated log gives negative lag, as Kafka's tool prints it
        QCOMPARE(snapshot.partitions[0].lag, std::optional<int64_t>(-10));
        QVERIFY(snapshot.partitions[0].memberId().isEmpty());
        QCOMPARE(snapshot.partitions[1].lag, std::optional<int64_t>(4));
        QCOMPARE(snapshot.partitions[1].memberId(), QStringLiteral("m-1"));
        QCOMPARE(snapshot.partitions[1].commitMetadata.get(), QStringLiteral("meta"));
        QCOMPARE(snapshot.partitions[1].logStartOffset, int64_t(2));
        // assigned, never committed: no lag
        QVERIFY(!snapshot.partitions[2].committedOffset.has_value());
        QVERIFY(!snapshot.partitions[2].lag.has_value());
        QCOMPARE(snapshot.partitions[2].clientId(), QStringLiteral("c-1"));
        QCOMPARE(snapshot.totalLag(), int64_t(-6));
        QCOMPARE(snapshot.topics(), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
        QVERIFY(snapshot.exists());
    }

    void deadGroupWithoutCommitsDoesNotExist() {
        kafka::GroupDescription description;
        description.groupId = QStringLiteral("ghost");
        description.state = kafka::GroupState::Dead;
        const auto snapshot = monitor::assembleGroupSnapshot(description, {}, {});
        QVERIFY(!snapshot.exists());
        QCOMPARE(snapshot.totalLag(), int64_t(0));
    }

    void stateNamesRoundTrip() {
        for (auto state :
             {kafka::GroupState::Stable, kafka::GroupState::Empty, kafka::GroupState::Dead,
              kafka::GroupState::PreparingRebalance, kafka::GroupState::CompletingRebalance})
            QCOMPARE(kafka::groupStateFromName(kafka::groupStateName(state)), state);
        QCOMPARE(kafka::groupStateFromName(QStringLiteral("bogus")), kafka::GroupState::Unknown);
    }

    void aPartitionTrendGivesBackWhatItWasMadeOf() {
        const lag::TimeLag estimated{lag::TimeLag::Status::Estimated, 12.75, true};
        const monitor::PartitionTrend stalled(estimated, lag::PartitionStatus::Stall);
        QCOMPARE(stalled.timeLag().status, lag::TimeLag::Status::Estimated);
        QCOMPARE(stalled.timeLag().seconds, 12.75);
        QVERIFY(stalled.timeLag().extrapolated);
        QCOMPARE(stalled.health(), std::optional(lag::PartitionStatus::Stall));

        const monitor::PartitionTrend unjudged(
            lag::TimeLag{lag::TimeLag::Status::AtLeast, 3600, false}, std::nullopt);
        QCOMPARE(unjudged.timeLag().status, lag::TimeLag::Status::AtLeast);
        QVERIFY(!unjudged.timeLag().extrapolated);
        QVERIFY(!unjudged.health());
        // Ok is the enum's first value: it must not read as "no verdict".
        QCOMPARE(monitor::PartitionTrend({}, lag::PartitionStatus::Ok).health(),
                 std::optional(lag::PartitionStatus::Ok));

        const monitor::PartitionTrend none;
        QCOMPARE(none.timeLag().status, lag::TimeLag::Status::Unknown);
        QVERIFY(!none.health());
    }
};

QTEST_GUILESS_MAIN(TestGroupSnapshot)
#include "TestGroupSnapshot.moc"
