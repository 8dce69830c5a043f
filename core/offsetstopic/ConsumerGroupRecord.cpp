#include "offsetstopic/ConsumerGroupRecord.h"

namespace groupscope::offsetstopic {

QString consumerGroupRecordTypeName(ConsumerGroupRecordType type, kafka::GroupType groupType) {
    const QString prefix = groupType == kafka::GroupType::Share ? QStringLiteral("ShareGroup")
                           : groupType == kafka::GroupType::Streams
                               ? QStringLiteral("StreamsGroup")
                               : QStringLiteral("ConsumerGroup");
    switch (type) {
    case ConsumerGroupRecordType::GroupEpoch:
        return prefix + QStringLiteral("Metadata");
    case ConsumerGroupRecordType::PartitionMetadata:
        return prefix + QStringLiteral("PartitionMetadata");
    case ConsumerGroupRecordType::MemberMetadata:
        return prefix + QStringLiteral("MemberMetadata");
    case ConsumerGroupRecordType::TargetAssignmentEpoch:
        return prefix + QStringLiteral("TargetAssignmentMetadata");
    case ConsumerGroupRecordType::TargetAssignmentMember:
        return prefix + QStringLiteral("TargetAssignmentMember");
    case ConsumerGroupRecordType::CurrentMemberAssignment:
        return prefix + QStringLiteral("CurrentMemberAssignment");
    case ConsumerGroupRecordType::StatePartitionMetadata:
        return prefix + QStringLiteral("StatePartitionMetadata");
    case ConsumerGroupRecordType::RegularExpression:
        return prefix + QStringLiteral("RegularExpression");
    case ConsumerGroupRecordType::Topology:
        return prefix + QStringLiteral("Topology");
    }
    return QStringLiteral("record type %1").arg(int(type));
}

QString consumerMemberStateName(int8_t state) {
    switch (ConsumerMemberState(state)) {
    case ConsumerMemberState::Stable:
        return QStringLiteral("Stable");
    case ConsumerMemberState::UnrevokedPartitions:
        return QStringLiteral("UnrevokedPartitions");
    case ConsumerMemberState::UnreleasedPartitions:
        return QStringLiteral("UnreleasedPartitions");
    case ConsumerMemberState::Unknown:
        return QStringLiteral("Unknown");
    }
    return QStringLiteral("state %1").arg(int(state));
}

} // namespace groupscope::offsetstopic
