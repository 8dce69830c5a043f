// libFuzzer target for a classic group member's consumer-protocol bytes: the assignment and
// the subscription (an int16 version, then the message; every version, and versions newer
// than known). Any member of a group chooses these bytes, and Groupscope reads them for
// every group it describes (DescribeGroups) and in the offsets topic's group records. Both
// readers must agree on the assignment.
#include "FuzzCheck.h"
#include "kafka/ClassicMemberAssignment.h"
#include "offsetstopic/ClassicGroupRecords.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

using namespace groupscope;

using groupscope::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    const QList<kafka::TopicPartition> described = kafka::classicMemberAssignment(bytes);
    check(std::is_sorted(described.cbegin(), described.cend()));
    const auto recorded = offsetstopic::ClassicGroupRecords::decodeAssignment(bytes);
    if (const auto* assignment = std::get_if<offsetstopic::ConsumerAssignment>(&recorded)) {
        QList<kafka::TopicPartition> partitions = assignment->partitions;
        std::sort(partitions.begin(), partitions.end());
        check(partitions == described);
    } else {
        check(described.isEmpty());
        check(!std::get<offsetstopic::OffsetsTopicDecodeError>(recorded).toString().isEmpty());
    }
    const auto subscription = offsetstopic::ClassicGroupRecords::decodeSubscription(bytes);
    if (const auto* error = std::get_if<offsetstopic::OffsetsTopicDecodeError>(&subscription))
        check(!error->toString().isEmpty());
    return 0;
}
