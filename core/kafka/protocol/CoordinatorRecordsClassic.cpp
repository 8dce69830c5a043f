// The records of classic groups in __consumer_offsets: committed offsets (types 0 and 1)
// and group metadata (type 2), and the consumer protocol's subscription that a classic
// consumer group's members carry in GroupMetadataValue.

#include "kafka/protocol/CoordinatorRecords.h"

namespace groupscope::kafka::protocol {

namespace {

MessageSpec offsetCommitKeyNamed(const char* name) {
    using enum FieldType;
    return MessageSpec{name,
                       between(0, 0),
                       never(),
                       {
                           field("Group", String, since(0)),
                           field("Topic", String, since(0)),
                           field("Partition", Int32, since(0)),
                       }};
}

} // namespace

const MessageSpec& legacyOffsetCommitKey() {
    static const MessageSpec spec = offsetCommitKeyNamed("LegacyOffsetCommitKey");
    return spec;
}

const MessageSpec& offsetCommitKey() {
    static const MessageSpec spec = offsetCommitKeyNamed("OffsetCommitKey");
    return spec;
}

const MessageSpec& offsetCommitValue() {
    using enum FieldType;
    static const MessageSpec spec{"OffsetCommitValue",
                                  between(0, 4),
                                  since(4),
                                  {
                                      field("Offset", Int64, since(0)),
                                      field("LeaderEpoch", Int32, since(3)).defaultsTo(-1),
                                      field("Metadata", String, since(0)),
                                      field("CommitTimestamp", Int64, since(0)),
                                      field("ExpireTimestamp", Int64, between(1, 1)).defaultsTo(-1),
                                      field("TopicId", Uuid, since(4)).taggedIn(since(4), 0),
                                  }};
    return spec;
}

const MessageSpec& groupMetadataKey() {
    using enum FieldType;
    static const MessageSpec spec{
        "GroupMetadataKey", between(0, 0), never(), {field("Group", String, since(0))}};
    return spec;
}

const MessageSpec& groupMetadataValue() {
    using enum FieldType;
    static const MessageSpec spec{
        "GroupMetadataValue",
        between(0, 4),
        since(4),
        {
            field("ProtocolType", String, since(0)),
            field("Generation", Int32, since(0)),
            field("Protocol", String, since(0)).nullable(since(0)),
            field("Leader", String, since(0)).nullable(since(0)),
            field("CurrentStateTimestamp", Int64, since(2)).defaultsTo(-1),
            structArray(
                "Members", since(0),
                {
                    field("MemberId", String, since(0)),
                    field("GroupInstanceId", String, since(3)).nullable(since(3)).nullByDefault(),
                    field("ClientId", String, since(0)),
                    field("ClientHost", String, since(0)),
                    field("RebalanceTimeout", Int32, since(1)).defaultsTo(-1),
                    field("SessionTimeout", Int32, since(0)),
                    field("Subscription", Bytes, since(0)),
                    field("Assignment", Bytes, since(0)),
                }),
        }};
    return spec;
}

// An int16 version, then this structure. Newer versions only append fields, so Kafka (and
// Groupscope) read them as the newest version known.
const MessageSpec& consumerProtocolSubscription() {
    using enum FieldType;
    static const MessageSpec spec{
        "ConsumerProtocolSubscription",
        between(0, 3),
        never(),
        {
            field("Topics", StringArray, since(0)),
            field("UserData", Bytes, since(0)).nullable(since(0)).nullByDefault(),
            structArray("OwnedPartitions", since(1),
                        {
                            field("Topic", String, since(1)),
                            field("Partitions", Int32Array, since(1)),
                        }),
            field("GenerationId", Int32, since(2)).defaultsTo(-1),
            field("RackId", String, since(3)).nullable(since(3)).nullByDefault(),
        }};
    return spec;
}

} // namespace groupscope::kafka::protocol
