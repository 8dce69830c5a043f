#include "cli/GroupJson.h"

#include "cli/IndentedJsonWriter.h"
#include "lag/LagDetailText.h"

#include <QDateTime>

#include <limits>
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

// The LagDetail of a partition (snapshot/LagDetail.h), the same names as its fields.
void writeLagDetail(IndentedJsonWriter& json, const lag::LagDetail& detail, int64_t nowMs) {
    json.key("lagDetail"_L1);
    json.beginObject();
    json.field("abortedRecords"_L1, detail.abortedRecords);
    json.booleanField("commitDeletedByRetention"_L1, detail.commitDeletedByRetention);
    json.booleanField("commitPastLogEnd"_L1, detail.commitPastLogEnd);
    writeOffset(json, "effectiveLag"_L1, detail.effectiveLag);
    writeOffset(json, "lastStableLag"_L1, detail.lastStableLag);
    writeOffset(json, "lastStableOffset"_L1, detail.lastStableOffset);
    json.key("notComputed"_L1);
    json.beginArray();
    for (const QString& line : detail.notComputed)
        json.string(line);
    json.endArray();
    json.key("oldestRecord"_L1);
    json.beginObject();
    writeOffset(json, "ageMs"_L1, lag::oldestRecordAgeMs(detail, nowMs));
    json.booleanField("logAppendTime"_L1, detail.oldestRecordLogAppendTime);
    writeKnownOffset(json, "offset"_L1, detail.oldestRecordOffset);
    json.field("status"_L1, lag::oldestRecordStatusName(detail.oldestRecord));
    writeKnownOffset(json, "timestampMs"_L1, detail.oldestRecordTimestampMs);
    json.endObject();
    json.field("openTransactionRecords"_L1, detail.openTransactionRecords);
    json.fieldOrNull("reason"_L1, detail.reason());
    json.field("recordsDeletedByRetention"_L1, detail.recordsDeletedByRetention);
    json.field("transactionMarkers"_L1, detail.transactionMarkers);
    json.endObject();
}

void writePartition(IndentedJsonWriter& json, const monitor::PartitionSnapshot& partition,
                    bool lagDetail, int64_t nowMs) {
    json.beginObject();
    json.fieldOrNull("clientId"_L1, partition.clientId());
    json.fieldOrNull("consumerId"_L1, partition.memberId());
    writeOffset(json, "currentOffset"_L1, partition.committedOffset);
    if (partition.error)
        json.field("error"_L1, partition.error.toString());
    json.fieldOrNull("host"_L1, partition.host());
    writeOffset(json, "lag"_L1, partition.lag);
    if (lagDetail)
        writeLagDetail(json, partition.lagDetail, nowMs);
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

// {"active": [{"partitions": [0, 1], "subtopology": "0"}], "standby": [...], "warmup": [...]}
void writeTasks(IndentedJsonWriter& json, QLatin1StringView name,
                const kafka::StreamsTasks& tasks) {
    json.key(name);
    json.beginObject();
    const auto writeIds = [&](QLatin1StringView kind, const QList<kafka::StreamsTaskIds>& ids) {
        json.key(kind);
        json.beginArray();
        for (const kafka::StreamsTaskIds& id : ids) {
            json.beginObject();
            json.key("partitions"_L1);
            json.beginArray();
            for (int32_t partition : id.partitions)
                json.number(partition);
            json.endArray();
            json.field("subtopology"_L1, id.subtopologyId);
            json.endObject();
        }
        json.endArray();
    };
    writeIds("active"_L1, tasks.active);
    writeIds("standby"_L1, tasks.standby);
    writeIds("warmup"_L1, tasks.warmup);
    json.endObject();
}

void writeOptionalNumber(IndentedJsonWriter& json, QLatin1StringView name,
                         std::optional<int32_t> value) {
    if (value)
        json.field(name, *value);
}

void writeMember(IndentedJsonWriter& json, const kafka::MemberDescription& member) {
    json.beginObject();
    json.key("assignment"_L1);
    writePartitionList(json, member.assignment);
    json.field("clientId"_L1, member.clientId);
    json.field("consumerId"_L1, member.memberId);
    json.fieldOrNull("groupInstanceId"_L1, member.groupInstanceId);
    json.field("host"_L1, member.host);
    // Consumer, share and streams groups: epochs; classic members have none.
    writeOptionalNumber(json, "memberEpoch"_L1, member.memberEpoch);
    if (!member.processId.isEmpty())
        json.field("processId"_L1, member.processId);
    // Consumer-protocol and streams members: the coordinator's target and whether the
    // member still converges on it.
    if (member.targetAssignment || member.targetTasks)
        json.booleanField("reconciling"_L1, member.isReconciling());
    if (member.targetAssignment) {
        json.key("targetAssignment"_L1);
        writePartitionList(json, *member.targetAssignment);
    }
    writeOptionalNumber(json, "targetEpoch"_L1, member.targetEpoch);
    if (member.targetTasks)
        writeTasks(json, "targetTasks"_L1, *member.targetTasks);
    if (member.tasks)
        writeTasks(json, "tasks"_L1, *member.tasks);
    json.endObject();
}

void writeGroup(IndentedJsonWriter& json, const monitor::GroupSnapshot& group, bool lagDetail,
                int64_t nowMs) {
    const auto& description = group.description;
    json.beginObject();
    writeOptionalNumber(json, "assignmentEpoch"_L1, description.assignmentEpoch);
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
    writeOptionalNumber(json, "groupEpoch"_L1, description.groupEpoch);
    json.key("members"_L1);
    json.beginArray();
    for (const auto& member : description.members)
        writeMember(json, member);
    json.endArray();
    json.key("partitions"_L1);
    json.beginArray();
    for (const auto& partition : group.partitions)
        writePartition(json, partition, lagDetail, nowMs);
    json.endArray();
    json.field("partitionsWithoutCommit"_L1, group.partitionsWithoutCommit());
    json.field("protocolType"_L1, description.protocolType);
    json.field("state"_L1, kafka::groupStateName(description.state));
    writeOptionalNumber(json, "topologyEpoch"_L1, description.topologyEpoch);
    if (lagDetail)
        writeOffset(json, "totalEffectiveLag"_L1, group.totalEffectiveLag());
    json.field("totalLag"_L1, group.totalLag());
    json.field("type"_L1, kafka::groupTypeName(description.type));
    json.endObject();
}

} // namespace

namespace {

// Hands the text to `write` in pieces of about `pieceBytes`, the last with the end.
template <typename Write>
void writeGroupsJsonPieces(const QList<monitor::GroupSnapshot>& groups, bool lagDetail,
                           qsizetype pieceBytes, Write write) {
    IndentedJsonWriter json;
    json.beginArray();
    const int64_t nowMs = QDateTime::currentMSecsSinceEpoch();
    for (const auto& group : groups) {
        writeGroup(json, group, lagDetail, nowMs);
        if (json.writtenSize() >= pieceBytes)
            write(json.takeWritten());
    }
    json.endArray();
    write(json.finish());
}

} // namespace

QByteArray groupsToJsonText(const QList<monitor::GroupSnapshot>& groups, bool lagDetail) {
    QByteArray text;
    writeGroupsJsonPieces(groups, lagDetail, std::numeric_limits<qsizetype>::max(),
                          [&](QByteArray piece) { text += piece; });
    return text;
}

void writeGroupsJson(QIODevice& out, const QList<monitor::GroupSnapshot>& groups, bool lagDetail) {
    writeGroupsJsonPieces(groups, lagDetail, 1 << 20,
                          [&](const QByteArray& piece) { out.write(piece); });
}

} // namespace groupscope::cli
