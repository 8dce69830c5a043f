// Streams groups (KIP-1071), described from Kafka's message specifications
// (StreamsGroupDescribeRequest/Response).

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/DescribeFields.h"

namespace groupscope::kafka::protocol {

namespace {

// The response's common structures.

std::vector<FieldSpec> keyValueFields() {
    using enum FieldType;
    return {
        field("Key", String, since(0)),
        field("Value", String, since(0)),
    };
}

std::vector<FieldSpec> topicInfoFields() {
    using enum FieldType;
    return {
        field("Name", String, since(0)),
        field("Partitions", Int32, since(0)),
        field("ReplicationFactor", Int16, since(0)),
        structArray("TopicConfigs", since(0), keyValueFields()),
    };
}

std::vector<FieldSpec> taskOffsetFields() {
    using enum FieldType;
    return {
        field("SubtopologyId", String, since(0)),
        field("Partition", Int32, since(0)),
        field("Offset", Int64, since(0)),
    };
}

std::vector<FieldSpec> assignmentFields() {
    using enum FieldType;
    const auto taskIds = [] {
        return std::vector<FieldSpec>{
            field("SubtopologyId", String, since(0)),
            field("Partitions", Int32Array, since(0)),
        };
    };
    return {
        structArray("ActiveTasks", since(0), taskIds()),
        structArray("StandbyTasks", since(0), taskIds()),
        structArray("WarmupTasks", since(0), taskIds()),
    };
}

std::vector<FieldSpec> topologyDescriptionNodeFields() {
    using enum FieldType;
    return {
        field("Name", String, since(1)),
        field("NodeType", Int8, since(1)),
        field("SourceTopics", StringArray, since(1)),
        field("SinkTopic", String, since(1)).nullable(since(1)).nullByDefault(),
        field("Stores", StringArray, since(1)),
        field("Successors", StringArray, since(1)),
    };
}

} // namespace

// StreamsGroupDescribe: streams groups, with the initialized topology (subtopologies and
// their internal topics) and each member's active, standby and warm-up tasks and changelog
// offsets. v1 can ask for the full topology description (IncludeTopologyDescription) and
// answers with TopologyDescription, TopologyDescriptionStatus and the group's AssignorName.
//
// Topology, UserEndpoint and TopologyDescription are nullable structures: on the wire each
// is preceded by an int8, -1 for null and 1 for present. Endpoint's Port is a uint16.
const ApiSpec& streamsGroupDescribeApi() {
    using enum FieldType;
    static const ApiSpec api{
        ApiKey::StreamsGroupDescribe, "StreamsGroupDescribe",
        MessageSpec{"StreamsGroupDescribeRequest", between(0, 1), since(0),
                    fieldsOf(describeRequestFields(),
                             {
                                 field("IncludeTopologyDescription", Bool, since(1)),
                             })},
        MessageSpec{
            "StreamsGroupDescribeResponse",
            between(0, 1),
            since(0),
            {
                field("ThrottleTimeMs", Int32, since(0)),
                structArray(
                    "Groups", since(0),
                    fieldsOf(
                        describedGroupFields(),
                        {
                            structField(
                                "Topology", since(0),
                                {
                                    field("Epoch", Int32, since(0)),
                                    structArray(
                                        "Subtopologies", since(0),
                                        {
                                            field("SubtopologyId", String, since(0)),
                                            field("SourceTopics", StringArray, since(0)),
                                            field("RepartitionSinkTopics", StringArray, since(0)),
                                            structArray("StateChangelogTopics", since(0),
                                                        topicInfoFields()),
                                            structArray("RepartitionSourceTopics", since(0),
                                                        topicInfoFields()),
                                        })
                                        .nullable(since(0))
                                        .nullByDefault(),
                                })
                                .nullable(since(0))
                                .nullByDefault(),
                            structArray(
                                "Members", since(0),
                                {
                                    field("MemberId", String, since(0)),
                                    field("MemberEpoch", Int32, since(0)),
                                    nullableString("InstanceId"),
                                    nullableString("RackId"),
                                    field("ClientId", String, since(0)),
                                    field("ClientHost", String, since(0)),
                                    field("TopologyEpoch", Int32, since(0)),
                                    field("ProcessId", String, since(0)),
                                    structField("UserEndpoint", since(0),
                                                {
                                                    field("Host", String, since(0)),
                                                    field("Port", Uint16, since(0)),
                                                })
                                        .nullable(since(0))
                                        .nullByDefault(),
                                    structArray("ClientTags", since(0), keyValueFields()),
                                    structArray("TaskOffsets", since(0), taskOffsetFields()),
                                    structArray("TaskEndOffsets", since(0), taskOffsetFields()),
                                    structField("Assignment", since(0), assignmentFields()),
                                    structField("TargetAssignment", since(0), assignmentFields()),
                                    field("IsClassic", Bool, since(0)),
                                }),
                            authorizedOperationsField(since(0)),
                            structField(
                                "TopologyDescription", since(1),
                                {
                                    structArray("Subtopologies", since(1),
                                                {
                                                    field("SubtopologyId", String, since(1)),
                                                    structArray("Nodes", since(1),
                                                                topologyDescriptionNodeFields()),
                                                }),
                                    structArray("GlobalStores", since(1),
                                                {
                                                    structField("Source", since(1),
                                                                topologyDescriptionNodeFields()),
                                                    structField("Processor", since(1),
                                                                topologyDescriptionNodeFields()),
                                                }),
                                })
                                .nullable(since(1))
                                .nullByDefault(),
                            field("TopologyDescriptionStatus", Int8, since(1)),
                            field("AssignorName", String, since(1))
                                .nullable(since(1))
                                .nullByDefault(),
                        })),
            }}};
    return api;
}

} // namespace groupscope::kafka::protocol
