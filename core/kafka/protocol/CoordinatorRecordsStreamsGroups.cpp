// The records of streams groups (KIP-1071) in __consumer_offsets: record types 17 and 19 to
// 23. A streams group assigns tasks (a subtopology and a partition number) rather than
// topic partitions: active tasks to one member each, standby and warm-up tasks beside them.

#include "kafka/protocol/CoordinatorRecords.h"

namespace groupscope::kafka::protocol {

using detail::flexibleValue;
using detail::groupKey;
using detail::memberKey;

namespace {

// The tasks of one subtopology; in the current assignment with the epoch each was assigned
// at (tagged).
std::vector<FieldSpec> taskFields(bool withAssignmentEpochs) {
    using enum FieldType;
    std::vector<FieldSpec> fields{field("SubtopologyId", String, since(0)),
                                  field("Partitions", Int32Array, since(0))};
    if (withAssignmentEpochs)
        fields.push_back(field("AssignmentEpochs", Int32Array, since(0))
                             .nullable(since(0))
                             .taggedIn(since(0), 0)
                             .nullByDefault());
    return fields;
}

std::vector<FieldSpec> keyValueFields() {
    using enum FieldType;
    return {field("Key", String, since(0)), field("Value", String, since(0))};
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

} // namespace

const MessageSpec& streamsGroupMetadataKey() {
    static const MessageSpec spec = groupKey("StreamsGroupMetadataKey");
    return spec;
}

const MessageSpec& streamsGroupMetadataValue() {
    using enum FieldType;
    static const MessageSpec spec = flexibleValue(
        "StreamsGroupMetadataValue",
        {
            field("Epoch", Int32, since(0)),
            field("MetadataHash", Int64, since(0)),
            field("ValidatedTopologyEpoch", Int32, since(0)).taggedIn(since(0), 0).defaultsTo(-1),
            structArray("LastAssignmentConfigs", since(0), keyValueFields())
                .nullable(since(0))
                .taggedIn(since(0), 1)
                .nullByDefault(),
            field("StoredDescriptionTopologyEpoch", Int32, since(0))
                .taggedIn(since(0), 2)
                .defaultsTo(-1),
            field("FailedDescriptionTopologyEpoch", Int32, since(0))
                .taggedIn(since(0), 3)
                .defaultsTo(-1),
        });
    return spec;
}

const MessageSpec& streamsGroupMemberMetadataKey() {
    static const MessageSpec spec = memberKey("StreamsGroupMemberMetadataKey");
    return spec;
}

const MessageSpec& streamsGroupMemberMetadataValue() {
    using enum FieldType;
    static const MessageSpec spec =
        flexibleValue("StreamsGroupMemberMetadataValue",
                      {
                          field("InstanceId", String, since(0)).nullable(since(0)).nullByDefault(),
                          field("RackId", String, since(0)).nullable(since(0)).nullByDefault(),
                          field("ClientId", String, since(0)),
                          field("ClientHost", String, since(0)),
                          field("RebalanceTimeoutMs", Int32, since(0)),
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
                      });
    return spec;
}

const MessageSpec& streamsGroupTargetAssignmentMetadataKey() {
    static const MessageSpec spec = groupKey("StreamsGroupTargetAssignmentMetadataKey");
    return spec;
}

const MessageSpec& streamsGroupTargetAssignmentMetadataValue() {
    using enum FieldType;
    static const MessageSpec spec =
        flexibleValue("StreamsGroupTargetAssignmentMetadataValue",
                      {
                          field("AssignmentEpoch", Int32, since(0)),
                          field("AssignmentTimestamp", Int64, since(0)).taggedIn(since(0), 0),
                      });
    return spec;
}

const MessageSpec& streamsGroupTargetAssignmentMemberKey() {
    static const MessageSpec spec = memberKey("StreamsGroupTargetAssignmentMemberKey");
    return spec;
}

const MessageSpec& streamsGroupTargetAssignmentMemberValue() {
    static const MessageSpec spec =
        flexibleValue("StreamsGroupTargetAssignmentMemberValue",
                      {
                          structArray("ActiveTasks", since(0), taskFields(false)),
                          structArray("StandbyTasks", since(0), taskFields(false)),
                          structArray("WarmupTasks", since(0), taskFields(false)),
                      });
    return spec;
}

const MessageSpec& streamsGroupCurrentMemberAssignmentKey() {
    static const MessageSpec spec = memberKey("StreamsGroupCurrentMemberAssignmentKey");
    return spec;
}

const MessageSpec& streamsGroupCurrentMemberAssignmentValue() {
    using enum FieldType;
    static const MessageSpec spec =
        flexibleValue("StreamsGroupCurrentMemberAssignmentValue",
                      {
                          field("MemberEpoch", Int32, since(0)),
                          field("PreviousMemberEpoch", Int32, since(0)),
                          field("State", Int8, since(0)),
                          structArray("ActiveTasks", since(0), taskFields(true)),
                          structArray("StandbyTasks", since(0), taskFields(true)),
                          structArray("WarmupTasks", since(0), taskFields(true)),
                          structArray("ActiveTasksPendingRevocation", since(0), taskFields(true)),
                          structArray("StandbyTasksPendingRevocation", since(0), taskFields(true)),
                          structArray("WarmupTasksPendingRevocation", since(0), taskFields(true)),
                      });
    return spec;
}

const MessageSpec& streamsGroupTopologyKey() {
    static const MessageSpec spec = groupKey("StreamsGroupTopologyKey");
    return spec;
}

const MessageSpec& streamsGroupTopologyValue() {
    using enum FieldType;
    static const MessageSpec spec = flexibleValue(
        "StreamsGroupTopologyValue",
        {
            field("Epoch", Int32, since(0)),
            structArray("Subtopologies", since(0),
                        {
                            field("SubtopologyId", String, since(0)),
                            field("SourceTopics", StringArray, since(0)),
                            field("SourceTopicRegex", StringArray, since(0)),
                            structArray("StateChangelogTopics", since(0), topicInfoFields()),
                            field("RepartitionSinkTopics", StringArray, since(0)),
                            structArray("RepartitionSourceTopics", since(0), topicInfoFields()),
                            // Indexes into the subtopology's arrays above.
                            structArray("CopartitionGroups", since(0),
                                        {
                                            field("SourceTopics", Int16Array, since(0)),
                                            field("SourceTopicRegex", Int16Array, since(0)),
                                            field("RepartitionSourceTopics", Int16Array, since(0)),
                                        }),
                        }),
        });
    return spec;
}

} // namespace groupscope::kafka::protocol
