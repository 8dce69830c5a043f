#pragma once
// The names of the fields of every message Groupscope speaks (Kafka's own names: the
// message specs are checked against Kafka's jars by TestSpecsAgainstKafka), as the one list
// a field may be addressed by. A FieldName is made at compile time from a literal and the
// build fails on a name that is not here, so a misspelt field in a spec or in a read or
// write of a message is a compiler error, not a default value at run time.
// TestProtocolCodec checks that this list is exactly the names the specs use.

#include <algorithm>
#include <array>
#include <string_view>

namespace groupscope::kafka::protocol {

// Sorted (byte order), for the compile-time binary search.
inline constexpr std::array knownFieldNames{
    "AbortedTransactions",
    "ActiveTasks",
    "ActiveTasksPendingRevocation",
    "AllowAutoTopicCreation",
    "ApiKey",
    "ApiKeys",
    "AssignedPartitions",
    "Assignment",
    "AssignmentEpoch",
    "AssignmentEpochs",
    "AssignmentTimestamp",
    "Assignments",
    "AssignorName",
    "AuthBytes",
    "AuthorizedOperations",
    "BrokerIds",
    "Brokers",
    "ClassicMemberMetadata",
    "ClientHost",
    "ClientId",
    "ClientSoftwareName",
    "ClientSoftwareVersion",
    "ClientTags",
    "ClusterAuthorizedOperations",
    "ClusterId",
    "CommitTimestamp",
    "CommittedLeaderEpoch",
    "CommittedMetadata",
    "CommittedOffset",
    "ConfigSource",
    "ConfigType",
    "Configs",
    "ConfigurationKeys",
    "ControllerId",
    "CoordinatorKeys",
    "Coordinators",
    "CopartitionGroups",
    "CurrentLeaderEpoch",
    "CurrentStateTimestamp",
    "DeletingTopics",
    "Documentation",
    "Epoch",
    "ErrorCode",
    "ErrorMessage",
    "ExpireTimestamp",
    "FailedDescriptionTopologyEpoch",
    "FetchOffset",
    "FinalizedFeatures",
    "FinalizedFeaturesEpoch",
    "FirstOffset",
    "ForgottenTopicsData",
    "Generation",
    "GenerationId",
    "GenerationIdOrMemberEpoch",
    "GlobalStores",
    "Group",
    "GroupEpoch",
    "GroupId",
    "GroupIds",
    "GroupInstanceId",
    "GroupState",
    "GroupType",
    "Groups",
    "GroupsNames",
    "HighWatermark",
    "Host",
    "IncludeAuthorizedOperations",
    "IncludeClusterAuthorizedOperations",
    "IncludeDocumentation",
    "IncludeSynonyms",
    "IncludeTopicAuthorizedOperations",
    "IncludeTopologyDescription",
    "InitializedTopics",
    "InitializingTopics",
    "InstanceId",
    "IsClassic",
    "IsInternal",
    "IsSensitive",
    "IsolationLevel",
    "IsrNodes",
    "Key",
    "KeyType",
    "Lag",
    "LastAssignmentConfigs",
    "LastStableOffset",
    "Leader",
    "LeaderEpoch",
    "LeaderId",
    "LogStartOffset",
    "MaxBytes",
    "MaxVersion",
    "MaxVersionLevel",
    "MaxWaitMs",
    "Mechanism",
    "Mechanisms",
    "MemberAssignment",
    "MemberEpoch",
    "MemberId",
    "MemberMetadata",
    "MemberType",
    "Members",
    "Metadata",
    "MetadataHash",
    "MinBytes",
    "MinVersion",
    "MinVersionLevel",
    "Name",
    "NodeId",
    "NodeType",
    "Nodes",
    "NumPartitions",
    "OfflineReplicas",
    "Offset",
    "OwnedPartitions",
    "Partition",
    "PartitionIndex",
    "PartitionIndexes",
    "PartitionMaxBytes",
    "PartitionMetadata",
    "Partitions",
    "PartitionsPendingRevocation",
    "Port",
    "PreferredReadReplica",
    "PreviousMemberEpoch",
    "ProcessId",
    "Processor",
    "ProducerId",
    "Protocol",
    "ProtocolData",
    "ProtocolType",
    "Rack",
    "RackId",
    "Racks",
    "ReadOnly",
    "RebalanceTimeout",
    "RebalanceTimeoutMs",
    "Records",
    "RegularExpression",
    "RepartitionSinkTopics",
    "RepartitionSourceTopics",
    "ReplicaId",
    "ReplicaNodes",
    "ReplicationFactor",
    "RequireStable",
    "ResourceName",
    "ResourceType",
    "Resources",
    "Responses",
    "Results",
    "RetentionTimeMs",
    "ServerAssignor",
    "SessionEpoch",
    "SessionId",
    "SessionLifetimeMs",
    "SessionTimeout",
    "SessionTimeoutMs",
    "SinkTopic",
    "Source",
    "SourceTopicRegex",
    "SourceTopics",
    "StandbyTasks",
    "StandbyTasksPendingRevocation",
    "StartOffset",
    "State",
    "StateChangelogTopics",
    "StatesFilter",
    "StoredDescriptionTopologyEpoch",
    "Stores",
    "SubscribedTopicNames",
    "SubscribedTopicRegex",
    "Subscription",
    "Subtopologies",
    "SubtopologyId",
    "Successors",
    "SupportedFeatures",
    "SupportedProtocols",
    "Synonyms",
    "TargetAssignment",
    "TaskEndOffsets",
    "TaskOffsets",
    "ThrottleTimeMs",
    "TimeoutMs",
    "Timestamp",
    "Topic",
    "TopicAuthorizedOperations",
    "TopicConfigErrorCode",
    "TopicConfigs",
    "TopicId",
    "TopicName",
    "TopicPartitions",
    "Topics",
    "Topology",
    "TopologyDescription",
    "TopologyDescriptionStatus",
    "TopologyEpoch",
    "TypesFilter",
    "UserData",
    "UserEndpoint",
    "ValidateOnly",
    "ValidatedTopologyEpoch",
    "Value",
    "Version",
    "WarmupTasks",
    "WarmupTasksPendingRevocation",
    "ZkMigrationReady",
};
static_assert(std::is_sorted(knownFieldNames.begin(), knownFieldNames.end(),
                             [](const char* a, const char* b) {
                                 return std::string_view(a) < std::string_view(b);
                             }));

// clang before 16 miscompiles a consteval constructor called inside nested braced
// initializer lists (the specs' fields): temporaries end early (ASan: stack-use-after-scope
// in the fuzz build, clang 14). There the name is taken unchecked; the g++ build of the
// same sources is the check.
#if defined(__clang__) && __clang_major__ < 16
#define GROUPSCOPE_FIELD_NAME_CHECKED 0
#else
#define GROUPSCOPE_FIELD_NAME_CHECKED 1
#endif

class FieldName {
public:
    // Fails the build unless `name` is in knownFieldNames.
#if GROUPSCOPE_FIELD_NAME_CHECKED
    consteval FieldName(const char* name) // NOLINT(google-explicit-constructor): literals
        : m_name(name) {
        if (!isKnown(name))
            throw "not a field of any message spec: see core/kafka/protocol/FieldName.h";
    }
#else
    constexpr FieldName(const char* name) // NOLINT(google-explicit-constructor): literals
        : m_name(name) {}
#endif
    // A name read from a FieldSpec at run time (code that walks a spec's fields): it was
    // checked when the spec was built.
    static FieldName fromSpec(const char* specFieldName) {
        return FieldName(specFieldName, 0);
    }

    constexpr const char* c_str() const {
        return m_name;
    }

private:
    constexpr FieldName(const char* name, int)
        : m_name(name) {}
    static consteval bool isKnown(const char* name) {
        return std::binary_search(knownFieldNames.begin(), knownFieldNames.end(), name,
                                  [](std::string_view a, std::string_view b) { return a < b; });
    }

    const char* m_name;
};

} // namespace groupscope::kafka::protocol
