#include "kafka/protocol/Apis.h"

namespace groupscope::kafka::protocol {

// The first request on every connection. Version 3 (the first flexible one) names the
// client; a broker that does not speak it answers UNSUPPORTED_VERSION in the version 0
// layout, listing its own range, and BrokerConnection asks again with version 0.
const ApiSpec& apiVersionsApi() {
    using enum FieldType;
    static const ApiSpec api{
        ApiKey::ApiVersions, "ApiVersions",
        MessageSpec{"ApiVersionsRequest",
                    between(0, 4),
                    since(3),
                    {
                        field("ClientSoftwareName", String, since(3)),
                        field("ClientSoftwareVersion", String, since(3)),
                    }},
        MessageSpec{"ApiVersionsResponse",
                    between(0, 4),
                    since(3),
                    {
                        field("ErrorCode", Int16, since(0)),
                        structArray("ApiKeys", since(0),
                                    {
                                        field("ApiKey", Int16, since(0)),
                                        field("MinVersion", Int16, since(0)),
                                        field("MaxVersion", Int16, since(0)),
                                    }),
                        field("ThrottleTimeMs", Int32, since(1)),
                        structArray("SupportedFeatures", since(3),
                                    {
                                        field("Name", String, since(3)),
                                        field("MinVersion", Int16, since(3)),
                                        field("MaxVersion", Int16, since(3)),
                                    })
                            .taggedIn(since(3), 0),
                        field("FinalizedFeaturesEpoch", Int64, since(3))
                            .taggedIn(since(3), 1)
                            .defaultsTo(-1),
                        structArray("FinalizedFeatures", since(3),
                                    {
                                        field("Name", String, since(3)),
                                        field("MaxVersionLevel", Int16, since(3)),
                                        field("MinVersionLevel", Int16, since(3)),
                                    })
                            .taggedIn(since(3), 2),
                        field("ZkMigrationReady", Bool, since(3)).taggedIn(since(3), 3),
                    }}};
    return api;
}

} // namespace groupscope::kafka::protocol
