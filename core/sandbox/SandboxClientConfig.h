#pragma once

#include "kafka/ConnectionProfile.h"
#include "kafka/RdKafkaHandles.h"

namespace groupscope::sandbox {

// A librdkafka configuration for one of the sandbox's clients: `defaults`, then the user's
// profile. librdkafka's own log lines are kept off the terminal (the status line reports
// problems instead) unless GROUPSCOPE_KAFKA_LOG is set, as for the rest of Groupscope.
kafka::Result<kafka::ConfHandle> makeSandboxConf(const kafka::ConnectionProfile& profile,
                                                 const QList<QPair<QString, QString>>& defaults);

} // namespace groupscope::sandbox
