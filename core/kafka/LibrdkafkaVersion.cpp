#include "kafka/LibrdkafkaVersion.h"

#include <librdkafka/rdkafka.h>

namespace groupscope::kafka {

QString librdkafkaVersion() {
    return QString::fromUtf8(rd_kafka_version_str());
}

} // namespace groupscope::kafka
