#include "kafka/protocol/CoordinatorRecords.h"

#include <algorithm>

namespace groupscope::kafka::protocol {

namespace detail {

MessageSpec groupKey(const char* name) {
    using enum FieldType;
    return MessageSpec{name, between(0, 0), never(), {field("GroupId", String, since(0))}};
}

MessageSpec memberKey(const char* name) {
    using enum FieldType;
    return MessageSpec{name,
                       between(0, 0),
                       never(),
                       {field("GroupId", String, since(0)), field("MemberId", String, since(0))}};
}

MessageSpec flexibleValue(const char* name, std::vector<FieldSpec> fields) {
    return MessageSpec{name, between(0, 0), since(0), std::move(fields)};
}

} // namespace detail

const QList<CoordinatorRecordSpecs>& everyCoordinatorRecord() {
    using Type = CoordinatorRecordType;
    // Type 0 is the oldest offset commit key; its values were OffsetCommitValue's versions
    // (Kafka 4 reads them with LegacyOffsetCommitValue, OffsetCommitValue v0's layout).
    static const QList<CoordinatorRecordSpecs> records{
        {Type::LegacyOffsetCommit, &legacyOffsetCommitKey(), &offsetCommitValue()},
        {Type::OffsetCommit, &offsetCommitKey(), &offsetCommitValue()},
        {Type::GroupMetadata, &groupMetadataKey(), &groupMetadataValue()},
        {Type::ConsumerGroupMetadata, &consumerGroupMetadataKey(), &consumerGroupMetadataValue()},
        {Type::ConsumerGroupPartitionMetadata, &consumerGroupPartitionMetadataKey(),
         &consumerGroupPartitionMetadataValue()},
        {Type::ConsumerGroupMemberMetadata, &consumerGroupMemberMetadataKey(),
         &consumerGroupMemberMetadataValue()},
        {Type::ConsumerGroupTargetAssignmentMetadata, &consumerGroupTargetAssignmentMetadataKey(),
         &consumerGroupTargetAssignmentMetadataValue()},
        {Type::ConsumerGroupTargetAssignmentMember, &consumerGroupTargetAssignmentMemberKey(),
         &consumerGroupTargetAssignmentMemberValue()},
        {Type::ConsumerGroupCurrentMemberAssignment, &consumerGroupCurrentMemberAssignmentKey(),
         &consumerGroupCurrentMemberAssignmentValue()},
        {Type::ShareGroupMemberMetadata, &shareGroupMemberMetadataKey(),
         &shareGroupMemberMetadataValue()},
        {Type::ShareGroupMetadata, &shareGroupMetadataKey(), &shareGroupMetadataValue()},
        {Type::ShareGroupTargetAssignmentMetadata, &shareGroupTargetAssignmentMetadataKey(),
         &shareGroupTargetAssignmentMetadataValue()},
        {Type::ShareGroupTargetAssignmentMember, &shareGroupTargetAssignmentMemberKey(),
         &shareGroupTargetAssignmentMemberValue()},
        {Type::ShareGroupCurrentMemberAssignment, &shareGroupCurrentMemberAssignmentKey(),
         &shareGroupCurrentMemberAssignmentValue()},
        {Type::ShareGroupStatePartitionMetadata, &shareGroupStatePartitionMetadataKey(),
         &shareGroupStatePartitionMetadataValue()},
        {Type::ConsumerGroupRegularExpression, &consumerGroupRegularExpressionKey(),
         &consumerGroupRegularExpressionValue()},
        {Type::StreamsGroupMetadata, &streamsGroupMetadataKey(), &streamsGroupMetadataValue()},
        {Type::StreamsGroupMemberMetadata, &streamsGroupMemberMetadataKey(),
         &streamsGroupMemberMetadataValue()},
        {Type::StreamsGroupTargetAssignmentMetadata, &streamsGroupTargetAssignmentMetadataKey(),
         &streamsGroupTargetAssignmentMetadataValue()},
        {Type::StreamsGroupTargetAssignmentMember, &streamsGroupTargetAssignmentMemberKey(),
         &streamsGroupTargetAssignmentMemberValue()},
        {Type::StreamsGroupCurrentMemberAssignment, &streamsGroupCurrentMemberAssignmentKey(),
         &streamsGroupCurrentMemberAssignmentValue()},
        {Type::StreamsGroupTopology, &streamsGroupTopologyKey(), &streamsGroupTopologyValue()},
    };
    return records;
}

const CoordinatorRecordSpecs* coordinatorRecordSpecs(int16_t recordType) {
    const QList<CoordinatorRecordSpecs>& records = everyCoordinatorRecord();
    const auto it = std::find_if(records.cbegin(), records.cend(), [&](const auto& record) {
        return int16_t(record.type) == recordType;
    });
    return it == records.cend() ? nullptr : &*it;
}

} // namespace groupscope::kafka::protocol
