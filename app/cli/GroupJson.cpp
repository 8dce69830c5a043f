#include "cli/GroupJson.h"

#include "cli/IndentedJsonWriter.h"

#include <optional>

namespace groupscope::cli {

namespace {

using namespace Qt::Literals::StringLiterals;

// Keys are written in sorted order (see IndentedJsonWriter).

void writeOffset(IndentedJsonWriter& json, QLatin1StringView name, std::optional<int64_t> offset) {
    json.key(name);
    if (offset)
        json.number(*offset);
    else
        json.null();
}

// Log offsets are -1 where the broker gave none.
void writeKnownOffset(IndentedJsonWriter& json, QLatin1StringView name, int64_t offset) {
    writeOffset(json, name, offset >= 0 ? std::optional<int64_t>(offset) : std::nullopt);
}

void writePartition(IndentedJsonWriter& json, const monitor::PartitionSnapshot& partition) {
    json.beginObject();
    json.fieldOrNull("clientId"_L1, partition.clientId);
    json.fieldOrNull("consumerId"_L1, partition.memberId);
    writeOffset(json, "currentOffset"_L1, partition.committedOffset);
    if (partition.error)
        json.field("error"_L1, partition.error.toString());
    json.fieldOrNull("host"_L1, partition.host);
    writeOffset(json, "lag"_L1, partition.lag);
    writeKnownOffset(json, "logEndOffset"_L1, partition.logEndOffset);
    writeKnownOffset(json, "logStartOffset"_L1, partition.logStartOffset);
    json.fieldOrNull("metadata"_L1, partition.commitMetadata);
    json.field("partition"_L1, partition.topicPartition.partition);
    json.field("topic"_L1, partition.topicPartition.topic);
    json.endObject();
}

void writePartitionList(IndentedJsonWriter& json, const QList<kafka::TopicPartition>& partitions) {
    json.beginArray();
    for (const auto& tp : partitions) {
        json.beginObject();
        json.field("partition"_L1, tp.partition);
        json.field("topic"_L1, tp.topic);
        json.endObject();
    }
    json.endArray();
}

void writeMember(IndentedJsonWriter& json, const kafka::MemberDescription& member) {
    json.beginObject();
    json.key("assignment"_L1);
    writePartitionList(json, member.assignment);
    json.field("clientId"_L1, member.clientId);
    json.field("consumerId"_L1, member.memberId);
    json.fieldOrNull("groupInstanceId"_L1, member.groupInstanceId);
    json.field("host"_L1, member.host);
    // Consumer-protocol members only: the coordinator's target and whether the member
    // still converges on it.
    if (member.targetAssignment) {
        json.booleanField("reconciling"_L1, member.isReconciling());
        json.key("targetAssignment"_L1);
        writePartitionList(json, *member.targetAssignment);
    }
    json.endObject();
}

void writeGroup(IndentedJsonWriter& json, const monitor::GroupSnapshot& group) {
    const auto& description = group.description;
    json.beginObject();
    json.fieldOrNull("assignor"_L1, description.partitionAssignor);
    json.key("coordinator"_L1);
    json.beginObject();
    json.field("host"_L1, description.coordinator.host);
    json.field("id"_L1, description.coordinator.id);
    json.field("port"_L1, description.coordinator.port);
    json.endObject();
    if (group.error)
        json.field("error"_L1, group.error.toString());
    json.field("group"_L1, description.groupId);
    json.key("members"_L1);
    json.beginArray();
    for (const auto& member : description.members)
        writeMember(json, member);
    json.endArray();
    json.key("partitions"_L1);
    json.beginArray();
    for (const auto& partition : group.partitions)
        writePartition(json, partition);
    json.endArray();
    json.field("protocolType"_L1, description.protocolType);
    json.field("state"_L1, kafka::groupStateName(description.state));
    json.field("totalLag"_L1, group.totalLag());
    json.field("type"_L1, kafka::groupTypeName(description.type));
    json.endObject();
}

} // namespace

QByteArray groupsToJsonText(const QList<monitor::GroupSnapshot>& groups) {
    IndentedJsonWriter json;
    json.beginArray();
    for (const auto& group : groups)
        writeGroup(json, group);
    json.endArray();
    return json.finish();
}

} // namespace groupscope::cli
