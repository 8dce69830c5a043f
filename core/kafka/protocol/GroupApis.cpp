// Groups of every type and their committed offsets, described from Kafka's message
// specifications (ListGroups, DescribeGroups, ConsumerGroupDescribe, OffsetFetch,
// OffsetCommit, OffsetDelete and DeleteGroups requests and responses).

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/DescribeFields.h"

namespace groupscope::kafka::protocol {

// ListGroups: every group the broker coordinates. v4+ filters by state and answers with
// GroupState; v5+ filters by type (classic, consumer, share, streams) and answers with
// GroupType, which Groupscope needs to tell the group types apart.
const ApiSpec& listGroupsApi() {
    using enum FieldType;
    static const ApiSpec api{
        ApiKey::ListGroups, "ListGroups",
        MessageSpec{"ListGroupsRequest",
                    between(0, 5),
                    since(3),
                    {
                        field("StatesFilter", StringArray, since(4)),
                        field("TypesFilter", StringArray, since(5)),
                    }},
        MessageSpec{"ListGroupsResponse",
                    between(0, 5),
                    since(3),
                    {
                        field("ThrottleTimeMs", Int32, since(1)),
                        field("ErrorCode", Int16, since(0)),
                        structArray("Groups", since(0),
                                    {
                                        field("GroupId", String, since(0)),
                                        field("ProtocolType", String, since(0)),
                                        field("GroupState", String, since(4)),
                                        field("GroupType", String, since(5)),
                                    }),
                    }}};
    return api;
}

// DescribeGroups: classic groups (members' raw subscription and assignment bytes). v4+
// tells static members' GroupInstanceId; v6 answers GROUP_ID_NOT_FOUND with an
// ErrorMessage for a group that does not exist (older versions describe it as Dead).
const ApiSpec& describeGroupsApi() {
    using enum FieldType;
    static const ApiSpec api{
        ApiKey::DescribeGroups, "DescribeGroups",
        MessageSpec{"DescribeGroupsRequest",
                    between(0, 6),
                    since(5),
                    {
                        field("Groups", StringArray, since(0)),
                        field("IncludeAuthorizedOperations", Bool, since(3)),
                    }},
        MessageSpec{
            "DescribeGroupsResponse",
            between(0, 6),
            since(5),
            {
                field("ThrottleTimeMs", Int32, since(1)),
                structArray(
                    "Groups", since(0),
                    {
                        field("ErrorCode", Int16, since(0)),
                        field("ErrorMessage", String, since(6)).nullable(since(6)).nullByDefault(),
                        field("GroupId", String, since(0)),
                        field("GroupState", String, since(0)),
                        field("ProtocolType", String, since(0)),
                        field("ProtocolData", String, since(0)),
                        structArray("Members", since(0),
                                    {
                                        field("MemberId", String, since(0)),
                                        field("GroupInstanceId", String, since(4))
                                            .nullable(since(4))
                                            .nullByDefault(),
                                        field("ClientId", String, since(0)),
                                        field("ClientHost", String, since(0)),
                                        field("MemberMetadata", Bytes, since(0)),
                                        field("MemberAssignment", Bytes, since(0)),
                                    }),
                        field("AuthorizedOperations", Int32, since(3))
                            .defaultsTo(authorizedOperationsUnknown),
                    }),
            }}};
    return api;
}

// ConsumerGroupDescribe: groups of the consumer protocol (KIP-848), with each member's
// current and target assignment by topic id. v1 adds MemberType (classic member still
// in a consumer group, or consumer member).
const ApiSpec& consumerGroupDescribeApi() {
    using enum FieldType;
    static const ApiSpec api{
        ApiKey::ConsumerGroupDescribe, "ConsumerGroupDescribe",
        MessageSpec{"ConsumerGroupDescribeRequest", between(0, 1), since(0),
                    describeRequestFields()},
        MessageSpec{
            "ConsumerGroupDescribeResponse",
            between(0, 1),
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
                                            nullableString("InstanceId"),
                                            nullableString("RackId"),
                                            field("MemberEpoch", Int32, since(0)),
                                            field("ClientId", String, since(0)),
                                            field("ClientHost", String, since(0)),
                                            field("SubscribedTopicNames", StringArray, since(0)),
                                            nullableString("SubscribedTopicRegex"),
                                            structField("Assignment", since(0),
                                                        topicPartitionsAssignmentFields()),
                                            structField("TargetAssignment", since(0),
                                                        topicPartitionsAssignmentFields()),
                                            field("MemberType", Int8, since(1)).defaultsTo(-1),
                                        }),
                            authorizedOperationsField(since(0)),
                        })),
            }}};
    return api;
}

// OffsetFetch: committed offsets. v0 was removed in Kafka 4.0. v2+ takes a null Topics
// array for all of a group's offsets and adds a top-level ErrorCode; v7+ RequireStable;
// v8+ asks for many groups at once (Groups, each with its own Topics and ErrorCode) in
// place of the top-level GroupId/Topics; v9+ MemberId/MemberEpoch (only a member needs
// them); v10+ names topics by TopicId instead of Name.
const ApiSpec& offsetFetchApi() {
    using enum FieldType;
    static const ApiSpec api{
        ApiKey::OffsetFetch, "OffsetFetch",
        MessageSpec{
            "OffsetFetchRequest",
            between(1, 10),
            since(6),
            {
                field("GroupId", String, between(0, 7)),
                structArray("Topics", between(0, 7),
                            {
                                field("Name", String, between(0, 7)),
                                field("PartitionIndexes", Int32Array, between(0, 7)),
                            })
                    .nullable(between(2, 7)),
                structArray(
                    "Groups", since(8),
                    {
                        field("GroupId", String, since(8)),
                        field("MemberId", String, since(9)).nullable(since(9)).nullByDefault(),
                        field("MemberEpoch", Int32, since(9)).defaultsTo(-1),
                        structArray("Topics", since(8),
                                    {
                                        field("Name", String, between(8, 9)),
                                        field("TopicId", Uuid, since(10)),
                                        field("PartitionIndexes", Int32Array, since(8)),
                                    })
                            .nullable(since(8)),
                    }),
                field("RequireStable", Bool, since(7)),
            }},
        MessageSpec{
            "OffsetFetchResponse",
            between(1, 10),
            since(6),
            {
                field("ThrottleTimeMs", Int32, since(3)),
                structArray(
                    "Topics", between(0, 7),
                    {
                        field("Name", String, between(0, 7)),
                        structArray(
                            "Partitions", between(0, 7),
                            {
                                field("PartitionIndex", Int32, between(0, 7)),
                                field("CommittedOffset", Int64, between(0, 7)),
                                field("CommittedLeaderEpoch", Int32, between(5, 7)).defaultsTo(-1),
                                field("Metadata", String, between(0, 7)).nullable(between(0, 7)),
                                field("ErrorCode", Int16, between(0, 7)),
                            }),
                    }),
                field("ErrorCode", Int16, between(2, 7)),
                structArray(
                    "Groups", since(8),
                    {
                        field("GroupId", String, since(8)),
                        structArray(
                            "Topics", since(8),
                            {
                                field("Name", String, between(8, 9)),
                                field("TopicId", Uuid, since(10)),
                                structArray(
                                    "Partitions", since(8),
                                    {
                                        field("PartitionIndex", Int32, since(8)),
                                        field("CommittedOffset", Int64, since(8)),
                                        field("CommittedLeaderEpoch", Int32, since(8))
                                            .defaultsTo(-1),
                                        field("Metadata", String, since(8)).nullable(since(8)),
                                        field("ErrorCode", Int16, since(8)),
                                    }),
                            }),
                        field("ErrorCode", Int16, since(8)),
                    }),
            }}};
    return api;
}

// OffsetCommit: resetting a group's offsets (an empty group: GenerationIdOrMemberEpoch -1,
// MemberId empty). Versions 0-1 were removed in Kafka 4.0; v2-4 carry RetentionTimeMs;
// v10+ names topics by TopicId instead of Name.
const ApiSpec& offsetCommitApi() {
    using enum FieldType;
    static const ApiSpec api{
        ApiKey::OffsetCommit, "OffsetCommit",
        MessageSpec{
            "OffsetCommitRequest",
            between(2, 10),
            since(8),
            {
                field("GroupId", String, since(0)),
                field("GenerationIdOrMemberEpoch", Int32, since(1)).defaultsTo(-1),
                field("MemberId", String, since(1)),
                field("GroupInstanceId", String, since(7)).nullable(since(7)).nullByDefault(),
                field("RetentionTimeMs", Int64, between(2, 4)).defaultsTo(-1),
                structArray(
                    "Topics", since(0),
                    {
                        field("Name", String, between(0, 9)),
                        field("TopicId", Uuid, since(10)),
                        structArray(
                            "Partitions", since(0),
                            {
                                field("PartitionIndex", Int32, since(0)),
                                field("CommittedOffset", Int64, since(0)),
                                field("CommittedLeaderEpoch", Int32, since(6)).defaultsTo(-1),
                                field("CommittedMetadata", String, since(0)).nullable(since(0)),
                            }),
                    }),
            }},
        MessageSpec{"OffsetCommitResponse",
                    between(2, 10),
                    since(8),
                    {
                        field("ThrottleTimeMs", Int32, since(3)),
                        structArray("Topics", since(0),
                                    {
                                        field("Name", String, between(0, 9)),
                                        field("TopicId", Uuid, since(10)),
                                        structArray("Partitions", since(0),
                                                    {
                                                        field("PartitionIndex", Int32, since(0)),
                                                        field("ErrorCode", Int16, since(0)),
                                                    }),
                                    }),
                    }}};
    return api;
}

// OffsetDelete: removes a group's committed offsets for some partitions (the group must
// not be subscribed to them). One version, never flexible.
const ApiSpec& offsetDeleteApi() {
    using enum FieldType;
    static const ApiSpec api{
        ApiKey::OffsetDelete, "OffsetDelete",
        MessageSpec{"OffsetDeleteRequest",
                    between(0, 0),
                    never(),
                    {
                        field("GroupId", String, since(0)),
                        structArray("Topics", since(0),
                                    {
                                        field("Name", String, since(0)),
                                        structArray("Partitions", since(0),
                                                    {
                                                        field("PartitionIndex", Int32, since(0)),
                                                    }),
                                    }),
                    }},
        MessageSpec{"OffsetDeleteResponse",
                    between(0, 0),
                    never(),
                    {
                        field("ErrorCode", Int16, since(0)),
                        field("ThrottleTimeMs", Int32, since(0)),
                        structArray("Topics", since(0),
                                    {
                                        field("Name", String, since(0)),
                                        structArray("Partitions", since(0),
                                                    {
                                                        field("PartitionIndex", Int32, since(0)),
                                                        field("ErrorCode", Int16, since(0)),
                                                    }),
                                    }),
                    }}};
    return api;
}

// DeleteGroups: deletes empty groups of any type. v3 adds a per-group ErrorMessage (the
// request is unchanged at v3).
const ApiSpec& deleteGroupsApi() {
    using enum FieldType;
    static const ApiSpec api{
        ApiKey::DeleteGroups, "DeleteGroups",
        MessageSpec{"DeleteGroupsRequest",
                    between(0, 3),
                    since(2),
                    {
                        field("GroupsNames", StringArray, since(0)),
                    }},
        MessageSpec{
            "DeleteGroupsResponse",
            between(0, 3),
            since(2),
            {
                field("ThrottleTimeMs", Int32, since(0)),
                structArray(
                    "Results", since(0),
                    {
                        field("GroupId", String, since(0)),
                        field("ErrorCode", Int16, since(0)),
                        field("ErrorMessage", String, since(3)).nullable(since(3)).nullByDefault(),
                    }),
            }}};
    return api;
}

// The consumer protocol's assignment, embedded in a classic consumer group member's
// MemberAssignment bytes (DescribeGroups): an int16 version, then this structure. Newer
// versions only append fields, so they are read as the newest known one.
const MessageSpec& consumerProtocolAssignment() {
    using enum FieldType;
    static const MessageSpec spec{
        "ConsumerProtocolAssignment",
        between(0, 3),
        never(),
        {
            structArray("AssignedPartitions", since(0),
                        {
                            field("Topic", String, since(0)),
                            field("Partitions", Int32Array, since(0)),
                        }),
            field("UserData", Bytes, since(0)).nullable(since(0)).nullByDefault(),
        }};
    return spec;
}

} // namespace groupscope::kafka::protocol
