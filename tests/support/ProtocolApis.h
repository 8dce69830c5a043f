#pragma once
// Every API Groupscope speaks itself (core/kafka/protocol/Apis.h), for tests that go over
// them all.

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/CoordinatorRecords.h"

#include <QList>

namespace groupscope::test {

inline QList<const kafka::protocol::ApiSpec*> everyProtocolApi() {
    using namespace kafka::protocol;
    return {&apiVersionsApi(),
            &saslHandshakeApi(),
            &saslAuthenticateApi(),
            &metadataApi(),
            &findCoordinatorApi(),
            &listOffsetsApi(),
            &createTopicsApi(),
            &describeConfigsApi(),
            &fetchApi(),
            &listGroupsApi(),
            &describeGroupsApi(),
            &consumerGroupDescribeApi(),
            &offsetFetchApi(),
            &offsetCommitApi(),
            &offsetDeleteApi(),
            &deleteGroupsApi(),
            &shareGroupDescribeApi(),
            &describeShareGroupOffsetsApi(),
            &alterShareGroupOffsetsApi(),
            &deleteShareGroupOffsetsApi(),
            &streamsGroupDescribeApi()};
}

// Every message spec: each API's request and response, and the structures Kafka embeds
// as bytes in other messages.
inline QList<const kafka::protocol::MessageSpec*> everyMessageSpec() {
    QList<const kafka::protocol::MessageSpec*> specs;
    for (const kafka::protocol::ApiSpec* api : everyProtocolApi())
        specs << &api->request << &api->response;
    specs << &kafka::protocol::consumerProtocolAssignment();
    // The records of __consumer_offsets, and the subscription inside GroupMetadataValue.
    specs << &kafka::protocol::consumerProtocolSubscription();
    for (const kafka::protocol::CoordinatorRecordSpecs& record :
         kafka::protocol::everyCoordinatorRecord()) {
        specs << record.key;
        if (!specs.contains(record.value)) // types 0 and 1 share OffsetCommitValue
            specs << record.value;
    }
    return specs;
}

} // namespace groupscope::test
