#include "cli/GroupJson.h"

namespace groupscope::cli {

namespace {

QJsonValue optionalString(const QString& text) {
    return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
}

QJsonValue optionalOffset(std::optional<int64_t> offset) {
    return offset ? QJsonValue(qint64(*offset)) : QJsonValue(QJsonValue::Null);
}

QJsonValue knownOffset(int64_t offset) {
    return offset >= 0 ? QJsonValue(qint64(offset)) : QJsonValue(QJsonValue::Null);
}

QJsonObject partitionToJson(const monitor::PartitionSnapshot& partition) {
    QJsonObject object{
        {QStringLiteral("topic"), partition.topicPartition.topic},
        {QStringLiteral("partition"), partition.topicPartition.partition},
        {QStringLiteral("currentOffset"), optionalOffset(partition.committedOffset)},
        {QStringLiteral("logStartOffset"), knownOffset(partition.logStartOffset)},
        {QStringLiteral("logEndOffset"), knownOffset(partition.logEndOffset)},
        {QStringLiteral("lag"), optionalOffset(partition.lag)},
        {QStringLiteral("consumerId"), optionalString(partition.memberId)},
        {QStringLiteral("host"), optionalString(partition.host)},
        {QStringLiteral("clientId"), optionalString(partition.clientId)},
        {QStringLiteral("metadata"), optionalString(partition.commitMetadata)},
    };
    if (partition.error)
        object.insert(QStringLiteral("error"), partition.error.toString());
    return object;
}

QJsonObject memberToJson(const kafka::MemberDescription& member) {
    QJsonArray assignment;
    for (const auto& tp : member.assignment)
        assignment.append(QJsonObject{{QStringLiteral("topic"), tp.topic},
                                      {QStringLiteral("partition"), tp.partition}});
    return QJsonObject{
        {QStringLiteral("consumerId"), member.memberId},
        {QStringLiteral("groupInstanceId"), optionalString(member.groupInstanceId)},
        {QStringLiteral("clientId"), member.clientId},
        {QStringLiteral("host"), member.host},
        {QStringLiteral("assignment"), assignment},
    };
}

} // namespace

QJsonObject groupToJson(const monitor::GroupSnapshot& group) {
    const auto& description = group.description;
    QJsonArray partitions, members;
    for (const auto& partition : group.partitions)
        partitions.append(partitionToJson(partition));
    for (const auto& member : description.members)
        members.append(memberToJson(member));
    QJsonObject object{
        {QStringLiteral("group"), description.groupId},
        {QStringLiteral("state"), kafka::groupStateName(description.state)},
        {QStringLiteral("protocolType"), description.protocolType},
        {QStringLiteral("assignor"), optionalString(description.partitionAssignor)},
        {QStringLiteral("coordinator"),
         QJsonObject{{QStringLiteral("id"), description.coordinator.id},
                     {QStringLiteral("host"), description.coordinator.host},
                     {QStringLiteral("port"), description.coordinator.port}}},
        {QStringLiteral("totalLag"), qint64(group.totalLag())},
        {QStringLiteral("members"), members},
        {QStringLiteral("partitions"), partitions},
    };
    if (group.error)
        object.insert(QStringLiteral("error"), group.error.toString());
    return object;
}

QJsonArray groupsToJson(const QList<monitor::GroupSnapshot>& groups) {
    QJsonArray array;
    for (const auto& group : groups)
        array.append(groupToJson(group));
    return array;
}

} // namespace groupscope::cli
