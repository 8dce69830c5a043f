#include "offsetstopic/ConsumerGroupRecord.h"

namespace groupscope::offsetstopic {

QString consumerGroupRecordTypeName(ConsumerGroupRecordType type) {
    switch (type) {
    case ConsumerGroupRecordType::GroupEpoch:
        return QStringLiteral("ConsumerGroupMetadata");
    case ConsumerGroupRecordType::PartitionMetadata:
        return QStringLiteral("ConsumerGroupPartitionMetadata");
    case ConsumerGroupRecordType::MemberMetadata:
        return QStringLiteral("ConsumerGroupMemberMetadata");
    case ConsumerGroupRecordType::TargetAssignmentEpoch:
        return QStringLiteral("ConsumerGroupTargetAssignmentMetadata");
    case ConsumerGroupRecordType::TargetAssignmentMember:
        return QStringLiteral("ConsumerGroupTargetAssignmentMember");
    case ConsumerGroupRecordType::CurrentMemberAssignment:
        return QStringLiteral("ConsumerGroupCurrentMemberAssignment");
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
