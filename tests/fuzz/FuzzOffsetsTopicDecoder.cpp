// libFuzzer target for the `__consumer_offsets` record decoder.
//
// Input layout: the first byte's low seven bits are the key length (0-127) and its high bit
// marks a tombstone (no value); the key follows, and the rest of the input is the value.
// The value bytes are also fed to the consumer-protocol decoders directly, so those are
// fuzzed without having to be wrapped in a valid GroupMetadataValue first.

#include "offsetstopic/ClassicGroupRecords.h"
#include "offsetstopic/OffsetsTopicDecoder.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace groupscope::offsetstopic;

namespace {

qsizetype partitionsSize(const QList<TopicIdPartitions>& topics) {
    qsizetype total = 0;
    for (const TopicIdPartitions& topic : topics)
        total += topic.topicId.size() + topic.partitions.size() + topic.assignmentEpochs.size();
    return total;
}

// The strings and lists of a consumer-protocol group record's value.
qsizetype consumerGroupValueSize(const ConsumerGroupRecord& record) {
    if (const auto* member = std::get_if<ConsumerGroupMemberMetadataValue>(&record.value))
        return member->clientId.size() + member->clientHost.size() + member->rackId.size() +
               member->subscribedTopicNames.join(QString()).size() + member->serverAssignor.size();
    if (const auto* target = std::get_if<ConsumerGroupTargetAssignmentMemberValue>(&record.value))
        return partitionsSize(target->topicPartitions);
    if (const auto* current = std::get_if<ConsumerGroupCurrentMemberAssignmentValue>(&record.value))
        return partitionsSize(current->assignedPartitions) +
               partitionsSize(current->partitionsPendingRevocation);
    if (const auto* topics = std::get_if<ConsumerGroupPartitionMetadataValue>(&record.value)) {
        qsizetype total = 0;
        for (const auto& topic : topics->topics)
            total += topic.topicId.size() + topic.topicName.size();
        return total;
    }
    return 0;
}

// Touches every decoded string so that a bad QString would be noticed by the sanitizers.
qsizetype consume(const OffsetsTopicRecord& record) {
    return std::visit(
        [](const auto& decoded) -> qsizetype {
            using Decoded = std::decay_t<decltype(decoded)>;
            if constexpr (std::is_same_v<Decoded, OffsetCommit>) {
                return decoded.group.size() + decoded.topicPartition.topic.size() +
                       decoded.metadata.size();
            } else if constexpr (std::is_same_v<Decoded, GroupMetadata>) {
                qsizetype total = decoded.group.size() + decoded.protocol.size();
                for (const GroupMemberMetadata& member : decoded.members) {
                    total += member.memberId.size() + member.clientHost.size() +
                             member.assignmentError.size() + member.subscriptionError.size();
                    if (member.assignment)
                        total += member.assignment->partitions.size();
                }
                return total;
            } else if constexpr (std::is_same_v<Decoded, ConsumerGroupRecord>) {
                return decoded.group.size() + decoded.memberId.size() +
                       consumerGroupValueSize(decoded);
            } else if constexpr (std::is_same_v<Decoded, UnknownOffsetsTopicRecord>) {
                return decoded.description.size();
            } else {
                return decoded.toString().size();
            }
        },
        record);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0)
        return 0;
    const bool tombstone = (data[0] & 0x80) != 0;
    const size_t keyLength = std::min<size_t>(data[0] & 0x7F, size - 1);
    const QByteArrayView key(data + 1, qsizetype(keyLength));
    const QByteArrayView value(data + 1 + keyLength, qsizetype(size - 1 - keyLength));

    const OffsetsTopicRecord record = OffsetsTopicDecoder::decodeRecord(
        key, tombstone ? std::nullopt : std::optional<QByteArrayView>(value), 1700000000000);
    if (const auto* error = std::get_if<OffsetsTopicDecodeError>(&record)) {
        // An error must point inside the part it names.
        const qsizetype partSize = error->part == QLatin1String("key") ? key.size() : value.size();
        if (error->part != QLatin1String("key") && error->part != QLatin1String("value"))
            std::abort();
        if (error->byteOffset < 0 || error->byteOffset > partSize)
            std::abort();
    }
    volatile qsizetype sink = consume(record);

    const auto assignment = ClassicGroupRecords::decodeAssignment(value);
    if (const auto* decoded = std::get_if<ConsumerAssignment>(&assignment))
        sink = sink + decoded->partitions.size();
    const auto subscription = ClassicGroupRecords::decodeSubscription(value);
    if (const auto* decoded = std::get_if<ConsumerSubscription>(&subscription))
        sink = sink + decoded->topics.size();
    (void)sink;
    return 0;
}
