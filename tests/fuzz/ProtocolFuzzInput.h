#pragma once
// The input layout of fuzz_protocol-messages (FuzzProtocolMessages.cpp), shared with the
// tool that writes its seeds (tests/support/CaptureProtocolCorpus.cpp): byte 0 picks an
// API from the table below, byte 1 what is decoded, byte 2 the version (the message's first
// valid version plus byte 2 modulo the number of valid versions); the rest is the bytes.

#include "kafka/protocol/Apis.h"

#include <cstddef>

namespace groupscope::fuzz {

// Every API described in kafka/protocol/Apis.h, in a fixed order: seeds name them by index.
inline const kafka::protocol::ApiSpec& protocolApiAt(size_t index) {
    using namespace kafka::protocol;
    using Api = const ApiSpec& (*)();
    static constexpr Api apis[] = {
        apiVersionsApi,
        saslHandshakeApi,
        saslAuthenticateApi,
        metadataApi,
        findCoordinatorApi,
        listOffsetsApi,
        listGroupsApi,
        describeGroupsApi,
        consumerGroupDescribeApi,
        offsetFetchApi,
        offsetCommitApi,
        offsetDeleteApi,
        deleteGroupsApi,
        shareGroupDescribeApi,
        describeShareGroupOffsetsApi,
        alterShareGroupOffsetsApi,
        deleteShareGroupOffsetsApi,
        streamsGroupDescribeApi,
        fetchApi, // appended: the seeds' indexes above stay
        createTopicsApi,
        describeConfigsApi,
    };
    return apis[index % (sizeof apis / sizeof apis[0])]();
}
inline constexpr size_t protocolApiCount = 21;

// Byte 1.
enum class ProtocolInputKind : unsigned char {
    RequestBody = 0,
    ResponseBody = 1,
    ResponseFrame = 2, // size prefix, response header with correlation id 1, body
};
inline constexpr int fuzzCorrelationId = 1;

} // namespace groupscope::fuzz
