#pragma once
// A connection profile as librdkafka configuration. Apart from ConnectionProfile.h so that
// the profile, which the UI and the front ends handle, does not bring librdkafka with it.

#include "kafka/ConnectionProfile.h"
#include "kafka/RdKafkaHandles.h"

#include <QList>
#include <QPair>
#include <QString>

namespace groupscope::kafka {

// A librdkafka configuration: the caller's defaults, then the profile (which wins).
// Rejected properties come back as an error naming the key.
Result<ConfHandle> makeConf(const ConnectionProfile& profile,
                            const QList<QPair<QString, QString>>& defaults = {});

} // namespace groupscope::kafka
