#pragma once
// Every API Groupscope speaks itself (core/kafka/protocol/Apis.h), for tests that go over
// them all.

#include "kafka/protocol/Apis.h"

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

} // namespace groupscope::test
