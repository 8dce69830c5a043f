// The timelines of share (KIP-932) and streams (KIP-1071) groups from their records in
// __consumer_offsets, as the coordinator writes them: the consumer protocol's sequence
// (member metadata, group epoch, target assignment, each member's current assignment; a
// member leaving tombstones its records, then bumps the epoch) under their own record types.
// A share group's members share partitions; a streams group owns tasks.

#include "offsetstopic/ConsumerGroupRecord.h"
#include "timeline/RebalanceTimeline.h"

#include <QTest>

using namespace groupscope;
using namespace groupscope::offsetstopic;
using groupscope::kafka::GroupType;
using groupscope::kafka::TopicPartition;
using groupscope::timeline::GroupProtocol;
using groupscope::timeline::GroupTimeline;
using groupscope::timeline::RebalanceTimeline;

namespace {

const QString topicId = QStringLiteral("AbCdEfGhIjKlMnOpQrStUv");
const QString memberA = QStringLiteral("member-a");
const QString memberB = QStringLiteral("member-b");

// Builds one group's records in order, each a millisecond after the last.
class Records {
public:
    Records(GroupType type, QString group)
        : m_type(type)
        , m_group(std::move(group)) {}

    ConsumerGroupRecord memberJoins(const QString& member) {
        ConsumerGroupMemberMetadataValue value;
        value.clientId = QStringLiteral("client-") + member;
        value.clientHost = QStringLiteral("/127.0.0.1");
        return make(ConsumerGroupRecordType::MemberMetadata, member, value);
    }
    ConsumerGroupRecord epoch(int32_t epoch) {
        return make(ConsumerGroupRecordType::GroupEpoch, {},
                    ConsumerGroupEpochValue{epoch, int64_t(7)});
    }
    ConsumerGroupRecord target(const QString& member, const QList<int32_t>& partitions) {
        return make(ConsumerGroupRecordType::TargetAssignmentMember, member,
                    targetValue(partitions));
    }
    ConsumerGroupRecord targetEpoch(int32_t epoch) {
        return make(ConsumerGroupRecordType::TargetAssignmentEpoch, {},
                    ConsumerGroupTargetAssignmentEpochValue{epoch, std::nullopt});
    }
    ConsumerGroupRecord current(const QString& member, int32_t epoch,
                                const QList<int32_t>& partitions) {
        ConsumerGroupCurrentMemberAssignmentValue value;
        value.memberEpoch = epoch;
        value.previousMemberEpoch = epoch - 1;
        value.state = int8_t(ConsumerMemberState::Stable);
        if (m_type == GroupType::Streams)
            value.tasks.active = {{QStringLiteral("0"), partitions, {}}};
        else
            value.assignedPartitions = {{topicId, partitions, {}}};
        return make(ConsumerGroupRecordType::CurrentMemberAssignment, member, value);
    }
    ConsumerGroupRecord tombstone(ConsumerGroupRecordType type, const QString& member) {
        return make(type, member, std::monostate());
    }

    int64_t now() const { return m_atMs; }

private:
    ConsumerGroupTargetAssignmentMemberValue targetValue(const QList<int32_t>& partitions) const {
        ConsumerGroupTargetAssignmentMemberValue value;
        if (m_type == GroupType::Streams)
            value.tasks.active = {{QStringLiteral("0"), partitions, {}}};
        else
            value.topicPartitions = {{topicId, partitions, {}}};
        return value;
    }
    template <typename Value>
    ConsumerGroupRecord make(ConsumerGroupRecordType type, const QString& member, Value value) {
        ConsumerGroupRecord record;
        record.groupType = m_type;
        record.type = type;
        record.group = m_group;
        record.memberId = member;
        record.recordTimestamp = ++m_atMs;
        record.valueVersion = std::is_same_v<Value, std::monostate> ? -1 : 0;
        record.value = std::move(value);
        return record;
    }

    GroupType m_type;
    QString m_group;
    int64_t m_atMs = 1000;
};

// Two members join one after the other, then the first leaves.
void joinJoinLeave(RebalanceTimeline& timeline, Records& records, const QList<int32_t>& ofA,
                   const QList<int32_t>& ofBWithA, const QList<int32_t>& ofBAlone) {
    using Type = ConsumerGroupRecordType;
    for (const ConsumerGroupRecord& record :
         {records.memberJoins(memberA), records.epoch(1), records.target(memberA, {0, 1}),
          records.targetEpoch(1), records.current(memberA, 1, ofA), records.memberJoins(memberB),
          records.epoch(2), records.target(memberA, ofA), records.target(memberB, ofBWithA),
          records.targetEpoch(2), records.current(memberA, 2, ofA),
          records.current(memberB, 2, ofBWithA),
          records.tombstone(Type::CurrentMemberAssignment, memberA),
          records.tombstone(Type::TargetAssignmentMember, memberA),
          records.tombstone(Type::MemberMetadata, memberA), records.epoch(3),
          records.target(memberB, ofBAlone), records.targetEpoch(3),
          records.current(memberB, 3, ofBAlone)})
        timeline.observeConsumerGroupRecord(record);
}

} // namespace

class TestShareAndStreamsTimeline : public QObject {
    Q_OBJECT

private slots:
    void shareGroupMembersJoinAndLeaveSharingPartitions() {
        RebalanceTimeline timeline;
        timeline.addTopicNames({{topicId, QStringLiteral("orders")}});
        Records records(GroupType::Share, QStringLiteral("s1"));
        // Share groups share: both members get both partitions.
        joinJoinLeave(timeline, records, {0, 1}, {0, 1}, {0, 1});
        const GroupTimeline history = timeline.timeline(QStringLiteral("s1"));

        QCOMPARE(history.protocol, GroupProtocol::Share);
        QCOMPARE(history.generations.size(), 3);
        QCOMPARE(history.generations[0].protocolType, QStringLiteral("share"));
        QCOMPARE(history.generations[1].generationId, 2);
        QCOMPARE(history.generations[1].joinedMemberIds, QStringList{memberB});
        QCOMPARE(history.generations[2].leftMemberIds, QStringList{memberA});
        // Epoch 2's target: each partition shared by both members.
        QCOMPARE(history.generations[1].ownerByPartition.value({QStringLiteral("orders"), 0}),
                 memberA + QStringLiteral(", ") + memberB);
        QCOMPARE(history.generations[2].ownerByPartition.value({QStringLiteral("orders"), 1}),
                 memberB);
        QCOMPARE(history.states.last().state, kafka::GroupState::Stable);

        // Member epochs, in the order the members reached them.
        QList<int32_t> epochsOfB;
        for (const auto& step : history.reconciliation)
            if (step.memberId == memberB)
                epochsOfB.append(step.memberEpoch);
        QCOMPARE(epochsOfB, (QList<int32_t>{2, 3}));

        // Both owned partition 0 at once; A's ownership ended when it left.
        int open = 0;
        int closedOfA = 0;
        for (const auto& span : history.ownership) {
            if (span.partition != TopicPartition{QStringLiteral("orders"), 0})
                continue;
            open += span.endMs ? 0 : 1;
            closedOfA += span.ownerId == memberA && span.endMs ? 1 : 0;
        }
        QCOMPARE(open, 1);
        QCOMPARE(closedOfA, 1);
        QVERIFY(history.unresolvedTopicIds.isEmpty());
    }

    void streamsGroupOwnsTasks() {
        RebalanceTimeline timeline;
        Records records(GroupType::Streams, QStringLiteral("app"));
        // Active tasks 0_0 and 0_1 move from A alone to one each, then to B alone.
        joinJoinLeave(timeline, records, {0}, {1}, {0, 1});
        const GroupTimeline history = timeline.timeline(QStringLiteral("app"));

        QCOMPARE(history.protocol, GroupProtocol::Streams);
        QCOMPARE(history.generations.size(), 3);
        QCOMPARE(history.generations[0].protocolType, QStringLiteral("streams"));
        QCOMPARE(history.generations[1].joinedMemberIds, QStringList{memberB});
        QCOMPARE(history.generations[2].leftMemberIds, QStringList{memberA});
        // Tasks are named by subtopology: nothing to resolve.
        QCOMPARE(history.generations[1].ownerByPartition.value({QStringLiteral("0"), 1}), memberB);
        QCOMPARE(history.generations[2].ownerByPartition.value({QStringLiteral("0"), 0}), memberB);
        QVERIFY(history.unresolvedTopicIds.isEmpty());
        QVERIFY(timeline.unresolvedTopicIds().isEmpty());
        QCOMPARE(history.reconciliation.last().memberId, memberB);
        QCOMPARE(history.reconciliation.last().assigned,
                 (QList<TopicPartition>{{QStringLiteral("0"), 0}, {QStringLiteral("0"), 1}}));
        QCOMPARE(history.states.last().state, kafka::GroupState::Stable);
    }
};

QTEST_GUILESS_MAIN(TestShareAndStreamsTimeline)
#include "TestShareAndStreamsTimeline.moc"
