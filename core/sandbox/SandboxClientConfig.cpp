#include "sandbox/SandboxClientConfig.h"

#include "kafka/ClientConf.h"

#include <librdkafka/rdkafka.h>

#include <cstdio>

namespace groupscope::sandbox {

namespace {

void logCallback(const rd_kafka_t*, int level, const char* facility, const char* message) {
    try {
        static const bool printLogs = qEnvironmentVariableIsSet("GROUPSCOPE_KAFKA_LOG");
        if (printLogs)
            std::fprintf(stderr, "librdkafka %d %s: %s\n", level, facility, message);
    } catch (...) {
        // never let an exception cross into C
    }
}

} // namespace

kafka::Result<kafka::ConfHandle> makeSandboxConf(const kafka::ConnectionProfile& profile,
                                                 const QList<QPair<QString, QString>>& defaults) {
    auto conf = kafka::makeConf(profile, defaults);
    if (conf)
        rd_kafka_conf_set_log_cb(conf.value().get(), &logCallback);
    return conf;
}

} // namespace groupscope::sandbox
