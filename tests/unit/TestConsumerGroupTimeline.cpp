// The timeline of a consumer-protocol (KIP-848) group from its records (key types 3-8), in
// the order Kafka's coordinator writes them: a member joins, another joins and a partition
// moves from the first to the second incrementally (revoked, then assigned), the first
// leaves, the second leaves, the group is deleted.

#include "offsetstopic/ConsumerGroupRecord.h"
#include "snapshot/GroupSnapshot.h"
#include "timeline/RebalanceTimeline.h"

#include <QTest>

using namespace groupscope;
using namespace groupscope::offsetstopic;
using groupscope::kafka::TopicPartition;
using groupscope::timeline::GroupTimeline;
using groupscope::timeline::OwnershipSpan;
using groupscope::timeline::RebalanceTimeline;

namespace {

const QString group = QStringLiteral("new-g");
const QString topicId = QStringLiteral("AbCdEfGhIjKlMnOpQrStUv");
const QString memberA = QStringLiteral("member-a");
const QString memberB = QStringLiteral("member-b");

ConsumerGroupRecord record(ConsumerGroupRecordType type, int64_t atMs, const QString& member = {}) {
    ConsumerGroupRecord result;
    result.type = type;
    result.group = group;
    result.memberId = member;
    result.recordTimestamp = atMs;
    return result;
}

ConsumerGroupRecord tombstone(ConsumerGroupRecordType type, int64_t atMs,
                              const QString& member = {}) {
    return record(type, atMs, member);
}

ConsumerGroupRecord memberMetadata(const QString& member, int64_t atMs) {
    ConsumerGroupRecord result = record(ConsumerGroupRecordType::MemberMetadata, atMs, member);
    ConsumerGroupMemberMetadataValue value;
    value.clientId = QStringLiteral("client-") + member;
    value.clientHost = QStringLiteral("/127.0.0.1");
    value.subscribedTopicNames = {QStringLiteral("orders")};
    value.serverAssignor = QStringLiteral("uniform");
    result.valueVersion = 0;
    result.value = value;
    return result;
}

ConsumerGroupRecord groupEpoch(int32_t epoch, int64_t atMs) {
    ConsumerGroupRecord result = record(ConsumerGroupRecordType::GroupEpoch, atMs);
    result.valueVersion = 0;
    result.value = ConsumerGroupEpochValue{epoch, std::nullopt};
    return result;
}

ConsumerGroupRecord targetMember(const QString& member, QList<int32_t> partitions, int64_t atMs) {
    ConsumerGroupRecord result =
        record(ConsumerGroupRecordType::TargetAssignmentMember, atMs, member);
    result.valueVersion = 0;
    result.value = ConsumerGroupTargetAssignmentMemberValue{{{topicId, partitions, {}}}, {}};
    return result;
}

ConsumerGroupRecord targetEpoch(int32_t epoch, int64_t atMs) {
    ConsumerGroupRecord result = record(ConsumerGroupRecordType::TargetAssignmentEpoch, atMs);
    result.valueVersion = 0;
    result.value = ConsumerGroupTargetAssignmentEpochValue{epoch, std::nullopt};
    return result;
}

ConsumerGroupRecord current(const QString& member, int32_t epoch, QList<int32_t> assigned,
                            QList<int32_t> pending, ConsumerMemberState state, int64_t atMs) {
    ConsumerGroupRecord result =
        record(ConsumerGroupRecordType::CurrentMemberAssignment, atMs, member);
    ConsumerGroupCurrentMemberAssignmentValue value;
    value.memberEpoch = epoch;
    value.previousMemberEpoch = epoch - 1;
    value.state = int8_t(state);
    if (!assigned.isEmpty())
        value.assignedPartitions = {{topicId, assigned, {}}};
    if (!pending.isEmpty())
        value.partitionsPendingRevocation = {{topicId, pending, {}}};
    result.valueVersion = 0;
    result.value = value;
    return result;
}

void leave(RebalanceTimeline& timeline, const QString& member, int32_t newEpoch, int64_t atMs) {
    timeline.observeConsumerGroupRecord(
        tombstone(ConsumerGroupRecordType::CurrentMemberAssignment, atMs, member));
    timeline.observeConsumerGroupRecord(
        tombstone(ConsumerGroupRecordType::TargetAssignmentMember, atMs, member));
    timeline.observeConsumerGroupRecord(
        tombstone(ConsumerGroupRecordType::MemberMetadata, atMs, member));
    timeline.observeConsumerGroupRecord(groupEpoch(newEpoch, atMs));
}

// A joins (epoch 1, owns 0-2); B joins (epoch 2): A revokes 2 at 2100 and releases it at
// 2500, B gets it at 2600; A leaves (epoch 3) and B takes everything; B leaves (epoch 4).
void playScenario(RebalanceTimeline& timeline) {
    const auto feed = [&](const ConsumerGroupRecord& r) { timeline.observeConsumerGroupRecord(r); };
    feed(memberMetadata(memberA, 1000));
    feed(groupEpoch(1, 1000));
    feed(targetMember(memberA, {0, 1, 2}, 1000));
    feed(targetEpoch(1, 1000));
    feed(current(memberA, 1, {0, 1, 2}, {}, ConsumerMemberState::Stable, 1000));

    feed(memberMetadata(memberB, 2000));
    feed(groupEpoch(2, 2000));
    feed(targetMember(memberA, {0, 1}, 2000));
    feed(targetMember(memberB, {2}, 2000));
    feed(targetEpoch(2, 2000));
    feed(current(memberB, 2, {}, {}, ConsumerMemberState::UnreleasedPartitions, 2000));
    feed(current(memberA, 1, {0, 1}, {2}, ConsumerMemberState::UnrevokedPartitions, 2100));
    feed(current(memberA, 2, {0, 1}, {}, ConsumerMemberState::Stable, 2500));
    feed(current(memberB, 2, {2}, {}, ConsumerMemberState::Stable, 2600));

    leave(timeline, memberA, 3, 3000);
    feed(targetMember(memberB, {0, 1, 2}, 3000));
    feed(targetEpoch(3, 3000));
    feed(current(memberB, 3, {0, 1, 2}, {}, ConsumerMemberState::Stable, 3000));

    leave(timeline, memberB, 4, 4000);
    feed(targetEpoch(4, 4000));
}

QList<OwnershipSpan> spansOf(const GroupTimeline& timeline, int32_t partition) {
    QList<OwnershipSpan> spans;
    for (const OwnershipSpan& span : timeline.ownership)
        if (span.partition.partition == partition)
            spans.append(span);
    return spans;
}

} // namespace

class TestConsumerGroupTimeline : public QObject {
    Q_OBJECT

private slots:
    void anEpochPerJoinAndLeave() {
        RebalanceTimeline timeline;
        playScenario(timeline);
        const GroupTimeline result = timeline.timeline(group);
        QCOMPARE(result.protocol, timeline::GroupProtocol::Consumer);
        QCOMPARE(result.generations.size(), 4);
        const QList<int32_t> epochs = {1, 2, 3, 4};
        const QList<QStringList> joined = {{memberA}, {memberB}, {}, {}};
        const QList<QStringList> left = {{}, {}, {memberA}, {memberB}};
        const QList<int64_t> starts = {1000, 2000, 3000, 4000};
        for (int i = 0; i < 4; ++i) {
            const timeline::Generation& epoch = result.generations[i];
            QCOMPARE(epoch.generationId, epochs[i]);
            QCOMPARE(epoch.protocolType, QStringLiteral("consumer"));
            QCOMPARE(epoch.startMs, starts[i]);
            QCOMPARE(epoch.joinedMemberIds, joined[i]);
            QCOMPARE(epoch.leftMemberIds, left[i]);
            QCOMPARE(epoch.endMs.has_value(), i < 3);
        }
        QCOMPARE(result.generations[0].protocol, QStringLiteral("uniform"));
        QCOMPARE(result.generations[1].members.size(), 2);
        QCOMPARE(result.generations[1].members[1].clientId, QStringLiteral("client-member-b"));
        QVERIFY(result.generations[3].members.isEmpty());
    }

    void epochsCarryTheirTargetAssignment() {
        RebalanceTimeline timeline;
        timeline.addTopicNames({{topicId, QStringLiteral("orders")}});
        playScenario(timeline);
        const GroupTimeline result = timeline.timeline(group);
        const TopicPartition p0{QStringLiteral("orders"), 0};
        const TopicPartition p2{QStringLiteral("orders"), 2};
        QCOMPARE(result.generations[0].ownerByPartition.value(p2), memberA);
        QCOMPARE(result.generations[1].ownerByPartition.value(p0), memberA);
        QCOMPARE(result.generations[1].ownerByPartition.value(p2), memberB);
        QCOMPARE(result.generations[2].ownerByPartition.value(p0), memberB);
        QVERIFY(result.generations[3].ownerByPartition.isEmpty());
        QCOMPARE(result.targetAssignments.size(), 4);
        QCOMPARE(result.targetAssignments[1].assignmentEpoch, 2);
        QCOMPARE(result.targetAssignments[1].ownerByPartition.value(p2), memberB);
        QVERIFY(result.unresolvedTopicIds.isEmpty());
    }

    // The point of the protocol: partition 2 moves from A to B without a group-wide stop.
    // A keeps 0 and 1 throughout, is told to revoke 2 at 2100, releases it at 2500, and B
    // owns it from 2600.
    void aPartitionMovesIncrementally() {
        RebalanceTimeline timeline;
        timeline.addTopicNames({{topicId, QStringLiteral("orders")}});
        playScenario(timeline);
        const GroupTimeline result = timeline.timeline(group);
        const QList<OwnershipSpan> moved = spansOf(result, 2);
        QCOMPARE(moved.size(), 2);
        QCOMPARE(moved[0].partition, (TopicPartition{QStringLiteral("orders"), 2}));
        QCOMPARE(moved[0].ownerId, memberA);
        QCOMPARE(moved[0].startMs, int64_t(1000));
        QCOMPARE(moved[0].revocationStartMs.value_or(-1), int64_t(2100));
        QCOMPARE(moved[0].endMs.value_or(-1), int64_t(2500));
        QCOMPARE(moved[1].ownerId, memberB);
        QCOMPARE(moved[1].startMs, int64_t(2600));
        QCOMPARE(moved[1].endMs.value_or(-1), int64_t(4000));
        QVERIFY(!moved[1].revocationStartMs);

        const QList<OwnershipSpan> kept = spansOf(result, 0);
        QCOMPARE(kept.size(), 2);
        QCOMPARE(kept[0].ownerId, memberA);
        QCOMPARE(kept[0].endMs.value_or(-1), int64_t(3000)); // until A left
        QVERIFY(!kept[0].revocationStartMs);
        QCOMPARE(kept[1].ownerId, memberB);
        QCOMPARE(kept[1].startMs, int64_t(3000));

        QCOMPARE(timeline.ownerAt(group, {QStringLiteral("orders"), 2}, 2550), QString());
        QCOMPARE(timeline.ownerAt(group, {QStringLiteral("orders"), 2}, 2300), memberA);
        QCOMPARE(timeline.ownerAt(group, {QStringLiteral("orders"), 2}, 2700), memberB);
    }

    void reconciliationStepsConvergeOnTheTarget() {
        RebalanceTimeline timeline;
        timeline.addTopicNames({{topicId, QStringLiteral("orders")}});
        playScenario(timeline);
        const GroupTimeline result = timeline.timeline(group);
        QList<timeline::ReconciliationStep> stepsOfA;
        for (const timeline::ReconciliationStep& step : result.reconciliation)
            if (step.memberId == memberA)
                stepsOfA.append(step);
        QCOMPARE(stepsOfA.size(), 3);
        QVERIFY(stepsOfA[0].reachedTarget());
        QCOMPARE(stepsOfA[1].memberState, QStringLiteral("UnrevokedPartitions"));
        QCOMPARE(stepsOfA[1].memberEpoch, 1);
        QCOMPARE(stepsOfA[1].targetEpoch, 2);
        QCOMPARE(stepsOfA[1].pendingRevocation,
                 QList<TopicPartition>({{QStringLiteral("orders"), 2}}));
        QVERIFY(!stepsOfA[1].reachedTarget());
        QCOMPARE(stepsOfA[2].memberEpoch, 2);
        QVERIFY(stepsOfA[2].reachedTarget());
    }

    // Records of one change share a timestamp: the states in between lasted no time.
    void statesFollowTheCoordinator() {
        RebalanceTimeline timeline;
        playScenario(timeline);
        timeline.observeConsumerGroupRecord(tombstone(ConsumerGroupRecordType::GroupEpoch, 5000));
        const GroupTimeline result = timeline.timeline(group);
        using kafka::GroupState;
        const QList<QPair<GroupState, int64_t>> expected = {{GroupState::Stable, 1000},
                                                            {GroupState::Reconciling, 2000},
                                                            {GroupState::Stable, 2600},
                                                            {GroupState::Empty, 4000},
                                                            {GroupState::Dead, 5000}};
        QCOMPARE(result.states.size(), expected.size());
        for (qsizetype i = 0; i < expected.size(); ++i) {
            QCOMPARE(result.states[i].state, expected[i].first);
            QCOMPARE(result.states[i].startMs, expected[i].second);
            QVERIFY(!result.states[i].approximate);
        }
        QVERIFY(result.deleted);
        QVERIFY(result.generations.last().endMs.has_value());
    }

    void topicIdsWithoutANameAreReported() {
        RebalanceTimeline timeline;
        playScenario(timeline);
        QCOMPARE(timeline.unresolvedTopicIds(), QStringList{topicId});
        const GroupTimeline before = timeline.timeline(group);
        QCOMPARE(before.unresolvedTopicIds, QStringList{topicId});
        QCOMPARE(before.ownership.first().partition.topic, topicId);
        timeline.addTopicNames({{topicId, QStringLiteral("orders")}});
        QVERIFY(timeline.unresolvedTopicIds().isEmpty());
        QCOMPARE(timeline.timeline(group).ownership.first().partition.topic,
                 QStringLiteral("orders"));
    }

    void partitionMetadataRecordsNameTopics() {
        RebalanceTimeline timeline;
        ConsumerGroupRecord metadata = record(ConsumerGroupRecordType::PartitionMetadata, 500);
        metadata.valueVersion = 0;
        metadata.value =
            ConsumerGroupPartitionMetadataValue{{{topicId, QStringLiteral("orders"), 3}}};
        timeline.observeConsumerGroupRecord(metadata);
        playScenario(timeline);
        QVERIFY(timeline.unresolvedTopicIds().isEmpty());
    }

    // Polls of a group whose records are read add nothing: the records have every state.
    void pollsLeaveAConsumerGroupAlone() {
        RebalanceTimeline timeline;
        playScenario(timeline);
        const int statesBefore = int(timeline.timeline(group).states.size());
        monitor::GroupSnapshot poll;
        poll.description.groupId = group;
        poll.description.state = kafka::GroupState::Unknown;
        timeline.observeSnapshot(poll, 9000);
        timeline.observeSnapshotState(poll, 9100);
        QCOMPARE(int(timeline.timeline(group).states.size()), statesBefore);
        QCOMPARE(timeline.timeline(group).generations.size(), 4);
    }

    void boundsKeepTheNewestSteps() {
        RebalanceTimeline::Options options;
        options.consumerGroups.maxReconciliationSteps = 3;
        options.consumerGroups.maxClosedOwnershipSpans = 2;
        RebalanceTimeline timeline(options);
        playScenario(timeline);
        const GroupTimeline result = timeline.timeline(group);
        QCOMPARE(result.reconciliation.size(), 3);
        QCOMPARE(result.reconciliation.last().memberId, memberB);
        int closed = 0;
        for (const OwnershipSpan& span : result.ownership)
            closed += span.endMs.has_value() ? 1 : 0;
        QCOMPARE(closed, 2);
    }
};

QTEST_GUILESS_MAIN(TestConsumerGroupTimeline)
#include "TestConsumerGroupTimeline.moc"
