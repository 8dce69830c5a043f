#pragma once
// Fields that the describe APIs of the KIP-848 generation share: ConsumerGroupDescribe,
// ShareGroupDescribe and StreamsGroupDescribe ask and answer alike up to each group's
// epochs, and Metadata's and the describes' AuthorizedOperations default alike. Written once
// here so that the three specifications cannot drift apart where Kafka's do not.

#include "kafka/protocol/MessageSchema.h"

#include <climits>
#include <initializer_list>

namespace groupscope::kafka::protocol {

// Kafka's "no authorized operations requested" bitfield.
constexpr int64_t authorizedOperationsUnknown = INT32_MIN;

// `first`, then `rest`: a structure's common head and its own fields.
inline std::vector<FieldSpec> fieldsOf(std::vector<FieldSpec> first,
                                       std::initializer_list<FieldSpec> rest) {
    first.insert(first.end(), rest.begin(), rest.end());
    return first;
}

// A nullable string field of every version, null by default (InstanceId, RackId, ...).
inline FieldSpec nullableString(FieldName name) {
    return field(name, FieldType::String, since(0)).nullable(since(0)).nullByDefault();
}

// The request's head: which groups, and whether to include the authorized operations.
inline std::vector<FieldSpec> describeRequestFields() {
    using enum FieldType;
    return {
        field("GroupIds", StringArray, since(0)),
        field("IncludeAuthorizedOperations", Bool, since(0)),
    };
}

// Each described group's head: its error, id, state and the two epochs.
inline std::vector<FieldSpec> describedGroupFields() {
    using enum FieldType;
    return {
        field("ErrorCode", Int16, since(0)),  nullableString("ErrorMessage"),
        field("GroupId", String, since(0)),   field("GroupState", String, since(0)),
        field("GroupEpoch", Int32, since(0)), field("AssignmentEpoch", Int32, since(0)),
    };
}

// A member's assignment of consumer and share groups: partitions by topic id (and name).
inline std::vector<FieldSpec> topicPartitionsAssignmentFields() {
    using enum FieldType;
    return {
        structArray("TopicPartitions", since(0),
                    {
                        field("TopicId", Uuid, since(0)),
                        field("TopicName", String, since(0)),
                        field("Partitions", Int32Array, since(0)),
                    }),
    };
}

inline FieldSpec authorizedOperationsField(Versions versions) {
    return field("AuthorizedOperations", FieldType::Int32, versions)
        .defaultsTo(authorizedOperationsUnknown);
}

} // namespace groupscope::kafka::protocol
