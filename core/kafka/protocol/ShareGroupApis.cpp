// Share groups (KIP-932), described from Kafka's message specifications
// (ShareGroupDescribe, DescribeShareGroupOffsets, AlterShareGroupOffsets and
// DeleteShareGroupOffsets requests and responses).

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/DescribeFields.h"

namespace groupscope::kafka::protocol {

// ShareGroupDescribe: share groups and their members' assignments by topic id. Only v1:
// v0 was Kafka 4.0's early access and was removed in 4.1, so a 4.0 broker cannot be
// described with it.
const ApiSpec& shareGroupDescribeApi() {
    using enum FieldType;
    static const ApiSpec api{
        ApiKey::ShareGroupDescribe, "ShareGroupDescribe",
        MessageSpec{"ShareGroupDescribeRequest", between(1, 1), since(0), describeRequestFields()},
        MessageSpec{
            "ShareGroupDescribeResponse",
            between(1, 1),
            since(0),
            {
                field("ThrottleTimeMs", Int32, since(0)),
                structArray(
                    "Groups", since(0),
                    fieldsOf(
                        describedGroupFields(),
                        {
                            field("AssignorName", String, since(0)),
                            structArray("Members", since(0),
                                        {
                                            field("MemberId", String, since(0)),
                                            nullableString("RackId"),
                                            field("MemberEpoch", Int32, since(0)),
                                            field("ClientId", String, since(0)),
                                            field("ClientHost", String, since(0)),
                                            field("SubscribedTopicNames", StringArray, since(0)),
                                            structField("Assignment", since(0),
                                                        topicPartitionsAssignmentFields()),
                                        }),
                            authorizedOperationsField(since(0)),
                        })),
            }}};
    return api;
}

// DescribeShareGroupOffsets: each share partition's start offset, for many groups at once
// (Topics null: all of a group's share partitions). v1 adds each partition's Lag
// (KIP-1226), -1 where the broker cannot tell it.
const ApiSpec& describeShareGroupOffsetsApi() {
    using enum FieldType;
    static const ApiSpec api{
        ApiKey::DescribeShareGroupOffsets, "DescribeShareGroupOffsets",
        MessageSpec{"DescribeShareGroupOffsetsRequest",
                    between(0, 1),
                    since(0),
                    {
                        structArray("Groups", since(0),
                                    {
                                        field("GroupId", String, since(0)),
                                        structArray("Topics", since(0),
                                                    {
                                                        field("TopicName", String, since(0)),
                                                        field("Partitions", Int32Array, since(0)),
                                                    })
                                            .nullable(since(0)),
                                    }),
                    }},
        MessageSpec{
            "DescribeShareGroupOffsetsResponse",
            between(0, 1),
            since(0),
            {
                field("ThrottleTimeMs", Int32, since(0)),
                structArray(
                    "Groups", since(0),
                    {
                        field("GroupId", String, since(0)),
                        structArray(
                            "Topics", since(0),
                            {
                                field("TopicName", String, since(0)),
                                field("TopicId", Uuid, since(0)),
                                structArray("Partitions", since(0),
                                            {
                                                field("PartitionIndex", Int32, since(0)),
                                                field("StartOffset", Int64, since(0)),
                                                field("LeaderEpoch", Int32, since(0)),
                                                field("Lag", Int64, since(1)).defaultsTo(-1),
                                                field("ErrorCode", Int16, since(0)),
                                                nullableString("ErrorMessage"),
                                            }),
                            }),
                        field("ErrorCode", Int16, since(0)),
                        nullableString("ErrorMessage"),
                    }),
            }}};
    return api;
}

// AlterShareGroupOffsets: sets an empty share group's start offsets, one group a request.
const ApiSpec& alterShareGroupOffsetsApi() {
    using enum FieldType;
    static const ApiSpec api{
        ApiKey::AlterShareGroupOffsets, "AlterShareGroupOffsets",
        MessageSpec{"AlterShareGroupOffsetsRequest",
                    between(0, 0),
                    since(0),
                    {
                        field("GroupId", String, since(0)),
                        structArray("Topics", since(0),
                                    {
                                        field("TopicName", String, since(0)),
                                        structArray("Partitions", since(0),
                                                    {
                                                        field("PartitionIndex", Int32, since(0)),
                                                        field("StartOffset", Int64, since(0)),
                                                    }),
                                    }),
                    }},
        MessageSpec{"AlterShareGroupOffsetsResponse",
                    between(0, 0),
                    since(0),
                    {
                        field("ThrottleTimeMs", Int32, since(0)),
                        field("ErrorCode", Int16, since(0)),
                        nullableString("ErrorMessage"),
                        structArray("Responses", since(0),
                                    {
                                        field("TopicName", String, since(0)),
                                        field("TopicId", Uuid, since(0)),
                                        structArray("Partitions", since(0),
                                                    {
                                                        field("PartitionIndex", Int32, since(0)),
                                                        field("ErrorCode", Int16, since(0)),
                                                        nullableString("ErrorMessage"),
                                                    }),
                                    }),
                    }}};
    return api;
}

// DeleteShareGroupOffsets: removes an empty share group's offsets for whole topics (no
// partitions), one group a request.
const ApiSpec& deleteShareGroupOffsetsApi() {
    using enum FieldType;
    static const ApiSpec api{ApiKey::DeleteShareGroupOffsets, "DeleteShareGroupOffsets",
                             MessageSpec{"DeleteShareGroupOffsetsRequest",
                                         between(0, 0),
                                         since(0),
                                         {
                                             field("GroupId", String, since(0)),
                                             structArray("Topics", since(0),
                                                         {
                                                             field("TopicName", String, since(0)),
                                                         }),
                                         }},
                             MessageSpec{"DeleteShareGroupOffsetsResponse",
                                         between(0, 0),
                                         since(0),
                                         {
                                             field("ThrottleTimeMs", Int32, since(0)),
                                             field("ErrorCode", Int16, since(0)),
                                             nullableString("ErrorMessage"),
                                             structArray("Responses", since(0),
                                                         {
                                                             field("TopicName", String, since(0)),
                                                             field("TopicId", Uuid, since(0)),
                                                             field("ErrorCode", Int16, since(0)),
                                                             nullableString("ErrorMessage"),
                                                         }),
                                         }}};
    return api;
}

} // namespace groupscope::kafka::protocol
