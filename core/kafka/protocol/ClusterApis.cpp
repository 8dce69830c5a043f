// Cluster metadata, coordinators and log offsets, described from Kafka's message
// specifications (MetadataRequest/Response, FindCoordinatorRequest/Response,
// ListOffsetsRequest/Response).

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/DescribeFields.h"

namespace groupscope::kafka::protocol {

// Metadata: brokers (for connecting to coordinators and leaders) and topics with their
// partitions. From v1 a null Topics array asks for every topic and an empty one for none
// (v0: empty means all). v10+ carries topic ids in the response; v12+ can ask by TopicId
// (Name null); v13 adds a top-level ErrorCode.
const ApiSpec& metadataApi() {
    using enum FieldType;
    static const ApiSpec api{
        ApiKey::Metadata, "Metadata",
        MessageSpec{"MetadataRequest",
                    between(0, 13),
                    since(9),
                    {
                        structArray("Topics", since(0),
                                    {
                                        field("TopicId", Uuid, since(10)),
                                        field("Name", String, since(0)).nullable(since(10)),
                                    })
                            .nullable(since(1)),
                        field("AllowAutoTopicCreation", Bool, since(4)).defaultsTo(1),
                        field("IncludeClusterAuthorizedOperations", Bool, between(8, 10)),
                        field("IncludeTopicAuthorizedOperations", Bool, since(8)),
                    }},
        MessageSpec{
            "MetadataResponse",
            between(0, 13),
            since(9),
            {
                field("ThrottleTimeMs", Int32, since(3)),
                structArray("Brokers", since(0),
                            {
                                field("NodeId", Int32, since(0)),
                                field("Host", String, since(0)),
                                field("Port", Int32, since(0)),
                                field("Rack", String, since(1)).nullable(since(1)).nullByDefault(),
                            }),
                field("ClusterId", String, since(2)).nullable(since(2)).nullByDefault(),
                field("ControllerId", Int32, since(1)).defaultsTo(-1),
                structArray(
                    "Topics", since(0),
                    {
                        field("ErrorCode", Int16, since(0)),
                        field("Name", String, since(0)).nullable(since(12)),
                        field("TopicId", Uuid, since(10)),
                        field("IsInternal", Bool, since(1)),
                        structArray("Partitions", since(0),
                                    {
                                        field("ErrorCode", Int16, since(0)),
                                        field("PartitionIndex", Int32, since(0)),
                                        field("LeaderId", Int32, since(0)),
                                        field("LeaderEpoch", Int32, since(7)).defaultsTo(-1),
                                        field("ReplicaNodes", Int32Array, since(0)),
                                        field("IsrNodes", Int32Array, since(0)),
                                        field("OfflineReplicas", Int32Array, since(5)),
                                    }),
                        field("TopicAuthorizedOperations", Int32, since(8))
                            .defaultsTo(authorizedOperationsUnknown),
                    }),
                field("ClusterAuthorizedOperations", Int32, between(8, 10))
                    .defaultsTo(authorizedOperationsUnknown),
                field("ErrorCode", Int16, since(13)),
            }}};
    return api;
}

// FindCoordinator: the coordinator of a group (KeyType 0), a transaction (1) or a share
// partition (2, v6+, key "groupId:topicId:partition"). v4+ batches: CoordinatorKeys in,
// Coordinators out; v0-3 take one Key and answer with top-level NodeId/Host/Port.
const ApiSpec& findCoordinatorApi() {
    using enum FieldType;
    static const ApiSpec api{
        ApiKey::FindCoordinator, "FindCoordinator",
        MessageSpec{"FindCoordinatorRequest",
                    between(0, 6),
                    since(3),
                    {
                        field("Key", String, between(0, 3)),
                        field("KeyType", Int8, since(1)),
                        field("CoordinatorKeys", StringArray, since(4)),
                    }},
        MessageSpec{"FindCoordinatorResponse",
                    between(0, 6),
                    since(3),
                    {
                        field("ThrottleTimeMs", Int32, since(1)),
                        field("ErrorCode", Int16, between(0, 3)),
                        field("ErrorMessage", String, between(1, 3)).nullable(between(1, 3)),
                        field("NodeId", Int32, between(0, 3)),
                        field("Host", String, between(0, 3)),
                        field("Port", Int32, between(0, 3)),
                        structArray("Coordinators", since(4),
                                    {
                                        field("Key", String, since(4)),
                                        field("NodeId", Int32, since(4)),
                                        field("Host", String, since(4)),
                                        field("Port", Int32, since(4)),
                                        field("ErrorCode", Int16, since(4)),
                                        field("ErrorMessage", String, since(4)).nullable(since(4)),
                                    }),
                    }}};
    return api;
}

// ListOffsets: log start/end offsets (Timestamp -2 earliest, -1 latest) for lag. v0 was
// removed in Kafka 4.0; v2+ takes the isolation level (read_committed end offsets are
// the last stable offsets), v10+ a timeout for tiered-storage lookups.
const ApiSpec& listOffsetsApi() {
    using enum FieldType;
    static const ApiSpec api{
        ApiKey::ListOffsets, "ListOffsets",
        MessageSpec{
            "ListOffsetsRequest",
            between(1, 11),
            since(6),
            {
                field("ReplicaId", Int32, since(0)),
                field("IsolationLevel", Int8, since(2)),
                structArray(
                    "Topics", since(0),
                    {
                        field("Name", String, since(0)),
                        structArray("Partitions", since(0),
                                    {
                                        field("PartitionIndex", Int32, since(0)),
                                        field("CurrentLeaderEpoch", Int32, since(4)).defaultsTo(-1),
                                        field("Timestamp", Int64, since(0)),
                                    }),
                    }),
                field("TimeoutMs", Int32, since(10)),
            }},
        MessageSpec{
            "ListOffsetsResponse",
            between(1, 11),
            since(6),
            {
                field("ThrottleTimeMs", Int32, since(2)),
                structArray(
                    "Topics", since(0),
                    {
                        field("Name", String, since(0)),
                        structArray("Partitions", since(0),
                                    {
                                        field("PartitionIndex", Int32, since(0)),
                                        field("ErrorCode", Int16, since(0)),
                                        field("Timestamp", Int64, since(1)).defaultsTo(-1),
                                        field("Offset", Int64, since(1)).defaultsTo(-1),
                                        field("LeaderEpoch", Int32, since(4)).defaultsTo(-1),
                                    }),
                    }),
            }}};
    return api;
}

} // namespace groupscope::kafka::protocol
