#pragma once
// The APIs Groupscope speaks itself, each described once (MessageSchema.h) from Kafka's
// message specifications. The versions of each request are the ones Groupscope can send;
// BrokerConnection picks the newest the broker speaks too.

#include "kafka/protocol/MessageSchema.h"

namespace groupscope::kafka::protocol {

// Connection set-up (ApiVersionsApi.cpp, SaslApis.cpp).
const ApiSpec& apiVersionsApi();
const ApiSpec& saslHandshakeApi();
const ApiSpec& saslAuthenticateApi();

// Cluster metadata and log offsets (ClusterApis.cpp).
const ApiSpec& metadataApi();
const ApiSpec& findCoordinatorApi();
const ApiSpec& listOffsetsApi();

// Topics for the demo workload, and broker configuration (TopicAdminApis.cpp).
const ApiSpec& createTopicsApi();
const ApiSpec& describeConfigsApi();

// Record batches after a commit, for lag detail (FetchApi.cpp).
const ApiSpec& fetchApi();

// Groups of every type, and committed offsets (GroupApis.cpp).
const ApiSpec& listGroupsApi();
const ApiSpec& describeGroupsApi();
const ApiSpec& consumerGroupDescribeApi();
const ApiSpec& offsetFetchApi();
const ApiSpec& offsetCommitApi();
const ApiSpec& offsetDeleteApi();
const ApiSpec& deleteGroupsApi();

// Share groups (ShareGroupApis.cpp) and streams groups (StreamsGroupApis.cpp).
const ApiSpec& shareGroupDescribeApi();
const ApiSpec& describeShareGroupOffsetsApi();
const ApiSpec& alterShareGroupOffsetsApi();
const ApiSpec& deleteShareGroupOffsetsApi();
const ApiSpec& streamsGroupDescribeApi();

// Structures Kafka embeds as bytes in other messages (GroupApis.cpp).
const MessageSpec& consumerProtocolAssignment();

} // namespace groupscope::kafka::protocol
