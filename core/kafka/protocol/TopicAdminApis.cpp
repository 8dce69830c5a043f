// Topic administration, described from Kafka's message specifications
// (CreateTopicsRequest/Response, DescribeConfigsRequest/Response): what the demo workload
// needs to set up its topics and to see which group protocols the cluster offers.

#include "kafka/protocol/Apis.h"

namespace groupscope::kafka::protocol {

// CreateTopics: v0-1 were removed in Kafka 4.0. v4+ take -1 for the partition count and
// replication factor (the broker's defaults); v5 is flexible and answers with the
// topic's configuration; v7 adds its id.
const ApiSpec& createTopicsApi() {
    using enum FieldType;
    static const ApiSpec api{
        ApiKey::CreateTopics, "CreateTopics",
        MessageSpec{
            "CreateTopicsRequest",
            between(2, 7),
            since(5),
            {
                structArray("Topics", since(0),
                            {
                                field("Name", String, since(0)),
                                field("NumPartitions", Int32, since(0)),
                                field("ReplicationFactor", Int16, since(0)),
                                structArray("Assignments", since(0),
                                            {
                                                field("PartitionIndex", Int32, since(0)),
                                                field("BrokerIds", Int32Array, since(0)),
                                            }),
                                structArray("Configs", since(0),
                                            {
                                                field("Name", String, since(0)),
                                                field("Value", String, since(0)).nullable(since(0)),
                                            }),
                            }),
                field("TimeoutMs", Int32, since(0)).defaultsTo(60000),
                field("ValidateOnly", Bool, since(1)),
            }},
        MessageSpec{
            "CreateTopicsResponse",
            between(2, 7),
            since(5),
            {
                field("ThrottleTimeMs", Int32, since(2)),
                structArray(
                    "Topics", since(0),
                    {
                        field("Name", String, since(0)),
                        field("TopicId", Uuid, since(7)),
                        field("ErrorCode", Int16, since(0)),
                        field("ErrorMessage", String, since(1)).nullable(since(0)).nullByDefault(),
                        field("TopicConfigErrorCode", Int16, since(5)).taggedIn(since(5), 0),
                        field("NumPartitions", Int32, since(5)).defaultsTo(-1),
                        field("ReplicationFactor", Int16, since(5)).defaultsTo(-1),
                        structArray("Configs", since(5),
                                    {
                                        field("Name", String, since(5)),
                                        field("Value", String, since(5)).nullable(since(5)),
                                        field("ReadOnly", Bool, since(5)),
                                        field("ConfigSource", Int8, since(5)).defaultsTo(-1),
                                        field("IsSensitive", Bool, since(5)),
                                    })
                            .nullable(since(5))
                            .nullByDefault(),
                    }),
            }}};
    return api;
}

// DescribeConfigs: v0 was removed in Kafka 4.0; v1 adds synonyms, v3 the type and the
// documentation, v4 is flexible.
const ApiSpec& describeConfigsApi() {
    using enum FieldType;
    static const ApiSpec api{
        ApiKey::DescribeConfigs, "DescribeConfigs",
        MessageSpec{
            "DescribeConfigsRequest",
            between(1, 4),
            since(4),
            {
                structArray(
                    "Resources", since(0),
                    {
                        field("ResourceType", Int8, since(0)),
                        field("ResourceName", String, since(0)),
                        field("ConfigurationKeys", StringArray, since(0)).nullable(since(0)),
                    }),
                field("IncludeSynonyms", Bool, since(1)),
                field("IncludeDocumentation", Bool, since(3)),
            }},
        MessageSpec{
            "DescribeConfigsResponse",
            between(1, 4),
            since(4),
            {
                field("ThrottleTimeMs", Int32, since(0)),
                structArray(
                    "Results", since(0),
                    {
                        field("ErrorCode", Int16, since(0)),
                        field("ErrorMessage", String, since(0)).nullable(since(0)),
                        field("ResourceType", Int8, since(0)),
                        field("ResourceName", String, since(0)),
                        structArray(
                            "Configs", since(0),
                            {
                                field("Name", String, since(0)),
                                field("Value", String, since(0)).nullable(since(0)),
                                field("ReadOnly", Bool, since(0)),
                                field("ConfigSource", Int8, since(1)).defaultsTo(-1),
                                field("IsSensitive", Bool, since(0)),
                                structArray("Synonyms", since(1),
                                            {
                                                field("Name", String, since(1)),
                                                field("Value", String, since(1)).nullable(since(0)),
                                                field("Source", Int8, since(1)),
                                            }),
                                field("ConfigType", Int8, since(3)),
                                field("Documentation", String, since(3)).nullable(since(0)),
                            }),
                    }),
            }}};
    return api;
}

} // namespace groupscope::kafka::protocol
