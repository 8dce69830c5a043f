// Fetch, described from Kafka's FetchRequest/FetchResponse specifications, for reading the
// first bytes of a partition's log after a group's commit (lag detail: transaction markers,
// the oldest unconsumed record's timestamp). v4 is the oldest Kafka 4 keeps and the first
// with the isolation level and the last stable offset; v11 the newest with topic names and
// no flexible encoding (v12 is flexible, v13+ names topics by id only).

#include "kafka/protocol/Apis.h"

namespace groupscope::kafka::protocol {

const ApiSpec& fetchApi() {
    using enum FieldType;
    static const ApiSpec api{
        ApiKey::Fetch, "Fetch",
        MessageSpec{
            "FetchRequest",
            between(4, 11),
            never(),
            {
                field("ReplicaId", Int32, since(0)).defaultsTo(-1),
                field("MaxWaitMs", Int32, since(0)),
                field("MinBytes", Int32, since(0)),
                field("MaxBytes", Int32, since(3)).defaultsTo(0x7fffffff),
                field("IsolationLevel", Int8, since(4)),
                field("SessionId", Int32, since(7)),
                field("SessionEpoch", Int32, since(7)).defaultsTo(-1),
                structArray(
                    "Topics", since(0),
                    {
                        field("Topic", String, since(0)),
                        structArray("Partitions", since(0),
                                    {
                                        field("Partition", Int32, since(0)),
                                        field("CurrentLeaderEpoch", Int32, since(9)).defaultsTo(-1),
                                        field("FetchOffset", Int64, since(0)),
                                        field("LogStartOffset", Int64, since(5)).defaultsTo(-1),
                                        field("PartitionMaxBytes", Int32, since(0)),
                                    }),
                    }),
                structArray("ForgottenTopicsData", since(7),
                            {
                                field("Topic", String, since(7)),
                                field("Partitions", Int32Array, since(7)),
                            }),
                field("RackId", String, since(11)),
            }},
        MessageSpec{
            "FetchResponse",
            between(4, 11),
            never(),
            {
                field("ThrottleTimeMs", Int32, since(1)),
                field("ErrorCode", Int16, since(7)),
                field("SessionId", Int32, since(7)),
                structArray(
                    "Responses", since(0),
                    {
                        field("Topic", String, since(0)),
                        structArray(
                            "Partitions", since(0),
                            {
                                field("PartitionIndex", Int32, since(0)),
                                field("ErrorCode", Int16, since(0)),
                                field("HighWatermark", Int64, since(0)),
                                field("LastStableOffset", Int64, since(4)).defaultsTo(-1),
                                field("LogStartOffset", Int64, since(5)).defaultsTo(-1),
                                structArray("AbortedTransactions", since(4),
                                            {
                                                field("ProducerId", Int64, since(4)),
                                                field("FirstOffset", Int64, since(4)),
                                            })
                                    .nullable(since(4)),
                                field("PreferredReadReplica", Int32, since(11)).defaultsTo(-1),
                                field("Records", Bytes, since(0)).nullable(since(0)),
                            }),
                    }),
            }}};
    return api;
}

} // namespace groupscope::kafka::protocol
