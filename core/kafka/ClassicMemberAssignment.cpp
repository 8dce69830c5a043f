#include "kafka/ClassicMemberAssignment.h"

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/MessageCodec.h"
#include "kafka/protocol/WireReader.h"

#include <algorithm>

namespace groupscope::kafka {

QList<TopicPartition> classicMemberAssignment(const QByteArray& bytes) {
    QList<TopicPartition> partitions;
    if (bytes.isEmpty())
        return partitions;
    protocol::WireReader versionReader(bytes);
    const int16_t version = versionReader.readInt16("version");
    if (versionReader.failed() || version < 0)
        return partitions;
    const protocol::MessageSpec& spec = protocol::consumerProtocolAssignment();
    Result<protocol::Struct> decoded = protocol::MessageCodec::decodePrefix(
        spec, std::min<int16_t>(version, spec.validVersions.last), QByteArrayView(bytes).sliced(2));
    if (!decoded)
        return partitions;
    for (const protocol::Struct& topic : decoded.value().structs("AssignedPartitions"))
        for (int64_t partition : topic.integers("Partitions"))
            partitions.append({topic.string("Topic"), int32_t(partition)});
    std::sort(partitions.begin(), partitions.end());
    return partitions;
}

} // namespace groupscope::kafka
