#include "kafka/ClientConf.h"

#include "kafka/TransportSafety.h"

#include <librdkafka/rdkafka.h>

namespace groupscope::kafka {

Result<ConfHandle> makeConf(const ConnectionProfile& profile,
                            const QList<QPair<QString, QString>>& defaults) {
    if (Status endpoint = checkTokenEndpoint(profile); !endpoint)
        return endpoint.error();
    ConfHandle conf(rd_kafka_conf_new());
    QList<QPair<QString, QString>> properties = defaults;
    properties.append(profile.toProperties()); // the user's profile wins over our defaults
    for (const auto& [key, value] : properties) {
        if (ConnectionProfile::isGroupscopeProperty(key))
            continue; // Groupscope's own, unknown to librdkafka
        char reason[512] = {};
        if (rd_kafka_conf_set(conf.get(), key.toUtf8().constData(), value.toUtf8().constData(),
                              reason, sizeof reason) != RD_KAFKA_CONF_OK)
            return KafkaError::invalidArgument(
                QStringLiteral("property \"%1\": %2").arg(key, QString::fromUtf8(reason)));
    }
    return conf;
}

} // namespace groupscope::kafka
