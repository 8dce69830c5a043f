#pragma once

#include <QString>

namespace groupscope::kafka {

// The version of the librdkafka this process runs against (not the one it was built
// with: an installed package picks up whatever library the system has), e.g. "2.0.2".
QString librdkafkaVersion();

} // namespace groupscope::kafka
