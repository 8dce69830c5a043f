#include "kafka/LibrdkafkaGroupRequests.h"

#include "kafka/LibrdkafkaDetail.h"
#include "kafka/TopicPartitionList.h"

#include <librdkafka/rdkafka.h>

#include <QSet>

// The librdkafka admin requests' writes: altering and deleting a group's committed offsets.

namespace groupscope::kafka {

using detail::borrowedError;
using detail::eventError;

namespace {

// Per-partition outcomes of an alter or delete result for one group.
QList<PartitionOutcome> partitionOutcomes(const rd_kafka_topic_partition_list_t* list,
                                          bool isDelete) {
    QList<PartitionOutcome> outcomes;
    for (int i = 0; list && i < list->cnt; ++i) {
        const auto& element = list->elems[i];
        PartitionOutcome outcome;
        outcome.topicPartition = {QString::fromUtf8(element.topic), element.partition};
        outcome.offset = isDelete ? -1 : element.offset;
        if (element.err)
            outcome.error = KafkaError::fromCode(element.err, outcome.topicPartition.toString());
        outcomes.append(std::move(outcome));
    }
    std::sort(outcomes.begin(), outcomes.end(),
              [](const auto& a, const auto& b) { return a.topicPartition < b.topicPartition; });
    return outcomes;
}

} // namespace

Result<QList<PartitionOutcome>> LibrdkafkaGroupRequests::collectGroupWrite(const Deadline& until,
                                                                           const QString& what,
                                                                           bool isDelete) {
    auto event =
        m_connection.waitForEvent(until, what,
                                  isDelete ? RD_KAFKA_EVENT_DELETECONSUMERGROUPOFFSETS_RESULT
                                           : RD_KAFKA_EVENT_ALTERCONSUMERGROUPOFFSETS_RESULT);
    if (!event)
        return event.error();
    rd_kafka_event_t* raw = event.value().get();
    if (KafkaError error = eventError(raw); error) {
        m_connection.noteGroupError(error);
        return m_connection.explain(error, what);
    }
    size_t count = 0;
    const rd_kafka_group_result_t** groups =
        isDelete ? rd_kafka_DeleteConsumerGroupOffsets_result_groups(
                       rd_kafka_event_DeleteConsumerGroupOffsets_result(raw), &count)
                 : rd_kafka_AlterConsumerGroupOffsets_result_groups(
                       rd_kafka_event_AlterConsumerGroupOffsets_result(raw), &count);
    if (count == 0)
        return KafkaError::invalidArgument(what +
                                           QStringLiteral(": the broker returned no result"));
    QList<PartitionOutcome> outcomes =
        partitionOutcomes(rd_kafka_group_result_partitions(groups[0]), isDelete);
    // A group-level error (e.g. the group has active members) applies to every partition.
    if (KafkaError groupError = borrowedError(rd_kafka_group_result_error(groups[0])); groupError) {
        m_connection.noteGroupError(groupError);
        if (outcomes.isEmpty())
            return m_connection.explain(groupError, what);
        for (PartitionOutcome& outcome : outcomes)
            if (!outcome.error)
                outcome.error = groupError;
    }
    return outcomes;
}

Result<QList<PartitionOutcome>>
LibrdkafkaGroupRequests::alterCommittedOffsets(const QString& groupId,
                                               const QList<QPair<TopicPartition, int64_t>>& offsets,
                                               const QHash<TopicPartition, QString>& metadata) {
    if (offsets.isEmpty())
        return QList<PartitionOutcome>{};
    const Deadline until = m_connection.deadline();
    TopicPartitionListHandle list = makeTopicPartitionList(offsets);
    setPartitionMetadata(list.get(), metadata);
    AlterConsumerGroupOffsetsHandle request(
        rd_kafka_AlterConsumerGroupOffsets_new(groupId.toUtf8().constData(), list.get()));
    rd_kafka_AlterConsumerGroupOffsets_t* requests[] = {request.get()};
    auto options = m_connection.makeOptions(RD_KAFKA_ADMIN_OP_ALTERCONSUMERGROUPOFFSETS, until);
    rd_kafka_AlterConsumerGroupOffsets(m_connection.handle(), requests, 1, options.get(),
                                       m_connection.queue());
    return collectGroupWrite(
        until, QStringLiteral("altering the committed offsets of group %1").arg(groupId), false);
}

Result<QList<PartitionOutcome>>
LibrdkafkaGroupRequests::deleteCommittedOffsets(const QString& groupId,
                                                const QList<TopicPartition>& partitions) {
    if (partitions.isEmpty())
        return QList<PartitionOutcome>{};
    const Deadline until = m_connection.deadline();
    TopicPartitionListHandle list = makeTopicPartitionList(partitions);
    DeleteConsumerGroupOffsetsHandle request(
        rd_kafka_DeleteConsumerGroupOffsets_new(groupId.toUtf8().constData(), list.get()));
    rd_kafka_DeleteConsumerGroupOffsets_t* requests[] = {request.get()};
    auto options = m_connection.makeOptions(RD_KAFKA_ADMIN_OP_DELETECONSUMERGROUPOFFSETS, until);
    rd_kafka_DeleteConsumerGroupOffsets(m_connection.handle(), requests, 1, options.get(),
                                        m_connection.queue());
    return collectGroupWrite(
        until, QStringLiteral("deleting the committed offsets of group %1").arg(groupId), true);
}

Result<QHash<QString, KafkaError>>
LibrdkafkaGroupRequests::deleteGroups(const QStringList& groupIds) {
    if (groupIds.isEmpty())
        return QHash<QString, KafkaError>{};
    // librdkafka's DeleteGroups batches per coordinator too.
    const Deadline until = m_connection.deadline();
    std::vector<rd_kafka_DeleteGroup_t*> requests;
    for (const QString& groupId : groupIds)
        requests.push_back(rd_kafka_DeleteGroup_new(groupId.toUtf8().constData()));
    auto options = m_connection.makeOptions(RD_KAFKA_ADMIN_OP_DELETEGROUPS, until);
    rd_kafka_DeleteGroups(m_connection.handle(), requests.data(), requests.size(), options.get(),
                          m_connection.queue());
    rd_kafka_DeleteGroup_destroy_array(requests.data(), requests.size());
    const QString what =
        QStringLiteral("deleting groups %1").arg(groupIds.join(QStringLiteral(", ")));
    auto event = m_connection.waitForEvent(until, what, RD_KAFKA_EVENT_DELETEGROUPS_RESULT);
    if (!event)
        return event.error();
    rd_kafka_event_t* raw = event.value().get();
    if (KafkaError error = eventError(raw); error)
        return m_connection.explain(error, what);
    size_t count = 0;
    const rd_kafka_group_result_t** groups =
        rd_kafka_DeleteGroups_result_groups(rd_kafka_event_DeleteGroups_result(raw), &count);
    QHash<QString, KafkaError> outcomes;
    for (size_t i = 0; i < count; ++i)
        outcomes.insert(QString::fromUtf8(rd_kafka_group_result_name(groups[i])),
                        borrowedError(rd_kafka_group_result_error(groups[i])));
    return outcomes;
}

} // namespace groupscope::kafka
