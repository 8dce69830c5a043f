#include "kafka/LibrdkafkaGroupRequests.h"

#include "kafka/LibrdkafkaDetail.h"
#include "kafka/TopicPartitionList.h"

#include <librdkafka/rdkafka.h>

#include <QSet>

#include <algorithm>

// The librdkafka admin requests' group reads: list, describe, committed offsets.

namespace groupscope::kafka {

using detail::borrowedError;
using detail::eventError;
using detail::fromUtf8OrEmpty;
using detail::remainingMs;

namespace {

GroupState fromLibrdkafka(rd_kafka_consumer_group_state_t state) {
    switch (state) {
    case RD_KAFKA_CONSUMER_GROUP_STATE_PREPARING_REBALANCE:
        return GroupState::PreparingRebalance;
    case RD_KAFKA_CONSUMER_GROUP_STATE_COMPLETING_REBALANCE:
        return GroupState::CompletingRebalance;
    case RD_KAFKA_CONSUMER_GROUP_STATE_STABLE:
        return GroupState::Stable;
    case RD_KAFKA_CONSUMER_GROUP_STATE_DEAD:
        return GroupState::Dead;
    case RD_KAFKA_CONSUMER_GROUP_STATE_EMPTY:
        return GroupState::Empty;
    default:
        return GroupState::Unknown;
    }
}

GroupType fromLibrdkafka(rd_kafka_consumer_group_type_t type) {
    switch (type) {
    case RD_KAFKA_CONSUMER_GROUP_TYPE_CLASSIC:
        return GroupType::Classic;
    case RD_KAFKA_CONSUMER_GROUP_TYPE_CONSUMER:
        return GroupType::Consumer;
    default:
        return GroupType::Unknown;
    }
}

QList<TopicPartition> sortedPartitionsOf(const rd_kafka_MemberAssignment_t* assignment) {
    QList<TopicPartition> partitions =
        assignment ? toTopicPartitions(rd_kafka_MemberAssignment_partitions(assignment))
                   : QList<TopicPartition>{};
    std::sort(partitions.begin(), partitions.end());
    return partitions;
}

MemberDescription memberOf(const rd_kafka_MemberDescription_t* member) {
    MemberDescription description;
    description.memberId = fromUtf8OrEmpty(rd_kafka_MemberDescription_consumer_id(member));
    description.groupInstanceId =
        fromUtf8OrEmpty(rd_kafka_MemberDescription_group_instance_id(member));
    description.clientId = fromUtf8OrEmpty(rd_kafka_MemberDescription_client_id(member));
    description.host = fromUtf8OrEmpty(rd_kafka_MemberDescription_host(member));
    description.assignment = sortedPartitionsOf(rd_kafka_MemberDescription_assignment(member));
    // Only ConsumerGroupDescribe (consumer-protocol groups) has a target assignment.
    if (const auto* target = rd_kafka_MemberDescription_target_assignment(member))
        description.targetAssignment = sortedPartitionsOf(target);
    return description;
}

} // namespace

Result<QList<GroupListing>> LibrdkafkaGroupRequests::listGroups() {
    const Deadline until = m_connection.deadline();
    for (;;) {
        bool brokerStillLoading = false;
        auto listed = listGroupsOnce(until, brokerStillLoading);
        // A broker that is still loading its groups (it has just started, or just become a
        // coordinator) leaves them out of the listing, or fails it when it is the only
        // broker: ask again while there is time, as Kafka's Java client does.
        if (!brokerStillLoading || remainingMs(until) < 500 || (m_connection.cancelled()))
            return listed;
        rd_kafka_poll(m_connection.handle(), 200); // a short pause that also serves callbacks
    }
}

Result<QList<GroupListing>> LibrdkafkaGroupRequests::listGroupsOnce(Deadline until,
                                                                    bool& brokerStillLoading) {
    // Every broker is asked, and one that is down (stopped, or gone from the cluster but
    // still known to librdkafka) answers only with librdkafka's timeout. That timeout ends a
    // little before ours, so the other brokers' listings arrive instead of a timeout.
    const auto margin = std::min<LibrdkafkaConnection::Milliseconds>(m_connection.timeout() / 5,
                                                                     std::chrono::seconds(1));
    auto options = m_connection.makeOptions(RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPS, until - margin);
    rd_kafka_ListConsumerGroups(m_connection.handle(), options.get(), m_connection.queue());
    auto event = m_connection.waitForEvent(until, QStringLiteral("listing groups"),
                                           RD_KAFKA_EVENT_LISTCONSUMERGROUPS_RESULT);
    if (!event)
        return event.error();
    rd_kafka_event_t* raw = event.value().get();
    if (KafkaError error = eventError(raw); error)
        return m_connection.explain(error, QStringLiteral("listing groups"));
    const auto* result = rd_kafka_event_ListConsumerGroups_result(raw);
    size_t validCount = 0, errorCount = 0;
    const auto** valid = rd_kafka_ListConsumerGroups_result_valid(result, &validCount);
    const auto** errors = rd_kafka_ListConsumerGroups_result_errors(result, &errorCount);
    for (size_t i = 0; i < errorCount; ++i) {
        const rd_kafka_resp_err_t code = rd_kafka_error_code(errors[i]);
        brokerStillLoading = brokerStillLoading ||
                             code == RD_KAFKA_RESP_ERR_COORDINATOR_LOAD_IN_PROGRESS ||
                             code == RD_KAFKA_RESP_ERR_COORDINATOR_NOT_AVAILABLE;
    }
    // Some brokers may fail while others answer; only when none answered is it an error.
    if (validCount == 0 && errorCount > 0)
        return m_connection.explain(borrowedError(errors[0]), QStringLiteral("listing groups"));
    QList<GroupListing> groups;
    groups.reserve(qsizetype(validCount));
    for (size_t i = 0; i < validCount; ++i)
        groups.append({QString::fromUtf8(rd_kafka_ConsumerGroupListing_group_id(valid[i])),
                       fromLibrdkafka(rd_kafka_ConsumerGroupListing_state(valid[i])),
                       fromLibrdkafka(rd_kafka_ConsumerGroupListing_type(valid[i])),
                       rd_kafka_ConsumerGroupListing_is_simple_consumer_group(valid[i]) != 0,
                       QString()}); // librdkafka does not give the protocol type
    std::stable_sort(groups.begin(), groups.end(),
                     [](const auto& a, const auto& b) { return a.groupId < b.groupId; });
    // Every broker lists the groups it coordinates. While a coordinator moves, the old and
    // the new one both list the group: keep one listing, or describing the list fails as a
    // whole ("Duplicate groups not allowed").
    groups.erase(std::unique(groups.begin(), groups.end(),
                             [](const auto& a, const auto& b) { return a.groupId == b.groupId; }),
                 groups.end());
    return groups;
}

Result<QList<GroupDescription>>
LibrdkafkaGroupRequests::describeGroups(const QStringList& groupIds) {
    if (groupIds.isEmpty())
        return QList<GroupDescription>{};
    const Deadline until = m_connection.deadline();
    QList<QByteArray> utf8;
    std::vector<const char*> names;
    for (const QString& id : groupIds)
        utf8.append(id.toUtf8());
    for (const QByteArray& id : utf8)
        names.push_back(id.constData());
    auto options = m_connection.makeOptions(RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS, until);
    rd_kafka_DescribeConsumerGroups(m_connection.handle(), names.data(), names.size(),
                                    options.get(), m_connection.queue());
    auto event = m_connection.waitForEvent(until, QStringLiteral("describing groups"),
                                           RD_KAFKA_EVENT_DESCRIBECONSUMERGROUPS_RESULT);
    if (!event)
        return event.error();
    rd_kafka_event_t* raw = event.value().get();
    if (KafkaError error = eventError(raw); error)
        return m_connection.explain(error, QStringLiteral("describing groups"));
    size_t count = 0;
    const auto** groups = rd_kafka_DescribeConsumerGroups_result_groups(
        rd_kafka_event_DescribeConsumerGroups_result(raw), &count);
    QList<GroupDescription> descriptions;
    descriptions.reserve(qsizetype(count));
    for (size_t i = 0; i < count; ++i) {
        const auto* group = groups[i];
        GroupDescription description;
        description.groupId = QString::fromUtf8(rd_kafka_ConsumerGroupDescription_group_id(group));
        description.error = borrowedError(rd_kafka_ConsumerGroupDescription_error(group));
        m_connection.noteGroupError(description.error);
        // librdkafka reports an unreachable cluster per group (its coordinator lookup timed
        // out), not as the event's error: name the bootstrap servers and the last connection
        // problem, as for every other timeout.
        if (description.error->isConnectionFailure())
            description.error = m_connection.timeoutError(
                QStringLiteral("describing group %1").arg(description.groupId));
        description.state = fromLibrdkafka(rd_kafka_ConsumerGroupDescription_state(group));
        description.type = fromLibrdkafka(rd_kafka_ConsumerGroupDescription_type(group));
        description.partitionAssignor =
            fromUtf8OrEmpty(rd_kafka_ConsumerGroupDescription_partition_assignor(group));
        // librdkafka 2.0 reports "simple" where the broker's protocol type is empty; every
        // other group it describes is a consumer group.
        description.protocolType = rd_kafka_ConsumerGroupDescription_is_simple_consumer_group(group)
                                       ? QString()
                                       : QStringLiteral("consumer");
        if (const auto* node = rd_kafka_ConsumerGroupDescription_coordinator(group))
            description.coordinator = {rd_kafka_Node_id(node),
                                       fromUtf8OrEmpty(rd_kafka_Node_host(node)),
                                       rd_kafka_Node_port(node)};
        const size_t memberCount = rd_kafka_ConsumerGroupDescription_member_count(group);
        for (size_t m = 0; m < memberCount; ++m)
            description.members.append(
                memberOf(rd_kafka_ConsumerGroupDescription_member(group, m)));
        // librdkafka knows no Assigning or Reconciling and says "unknown". A member whose
        // assignment is not its target is what makes Kafka call the group Reconciling.
        const bool reconciling =
            std::any_of(description.members.cbegin(), description.members.cend(),
                        [](const MemberDescription& member) { return member.isReconciling(); });
        if (description.state == GroupState::Unknown && description.type == GroupType::Consumer &&
            reconciling)
            description.state = GroupState::Reconciling;
        descriptions.append(std::move(description));
    }
    return descriptions;
}

Result<QHash<QString, QList<CommittedOffset>>>
LibrdkafkaGroupRequests::listCommittedOffsets(const QStringList& groupIds) {
    QHash<QString, QList<CommittedOffset>> offsetsByGroup;
    const Deadline until = m_connection.deadline();
    // Bounded concurrency: enough requests in flight to hide round trips, not so many that
    // a cluster with thousands of groups is flooded.
    constexpr int maxInFlight = 64;
    qsizetype nextToSend = 0;
    int inFlight = 0;
    auto options = m_connection.makeOptions(RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS, until);
    while (nextToSend < groupIds.size() || inFlight > 0) {
        while (inFlight < maxInFlight && nextToSend < groupIds.size()) {
            ListConsumerGroupOffsetsHandle request(rd_kafka_ListConsumerGroupOffsets_new(
                groupIds[nextToSend++].toUtf8().constData(), nullptr));
            rd_kafka_ListConsumerGroupOffsets_t* requests[] = {request.get()};
            rd_kafka_ListConsumerGroupOffsets(m_connection.handle(), requests, 1, options.get(),
                                              m_connection.queue());
            ++inFlight;
        }
        auto event = m_connection.waitForEvent(until, QStringLiteral("listing committed offsets"),
                                               RD_KAFKA_EVENT_LISTCONSUMERGROUPOFFSETS_RESULT);
        if (!event)
            return event.error();
        --inFlight;
        rd_kafka_event_t* raw = event.value().get();
        if (KafkaError error = eventError(raw); error) {
            m_connection.noteGroupError(error);
            if (inFlight > 0)
                m_connection.abandonPendingRequests();
            return m_connection.explain(error, QStringLiteral("listing committed offsets"));
        }
        size_t count = 0;
        const auto** groups = rd_kafka_ListConsumerGroupOffsets_result_groups(
            rd_kafka_event_ListConsumerGroupOffsets_result(raw), &count);
        for (size_t i = 0; i < count; ++i) {
            const QString groupId = QString::fromUtf8(rd_kafka_group_result_name(groups[i]));
            if (KafkaError error = borrowedError(rd_kafka_group_result_error(groups[i])); error) {
                m_connection.noteGroupError(error);
                if (inFlight > 0)
                    m_connection.abandonPendingRequests();
                return m_connection.explain(
                    error, QStringLiteral("listing committed offsets of group %1").arg(groupId));
            }
            QList<CommittedOffset>& offsets = offsetsByGroup[groupId];
            const auto* list = rd_kafka_group_result_partitions(groups[i]);
            for (int p = 0; list && p < list->cnt; ++p) {
                const auto& element = list->elems[p];
                // Partitions without a commit come back with offset -1 (INVALID): skip them.
                if (element.err || element.offset < 0)
                    continue;
                CommittedOffset committed;
                committed.topicPartition = {QString::fromUtf8(element.topic), element.partition};
                committed.offset = element.offset;
                if (element.metadata && element.metadata_size > 0)
                    committed.metadata =
                        QString::fromUtf8(static_cast<const char*>(element.metadata),
                                          qsizetype(element.metadata_size));
                offsets.append(std::move(committed));
            }
            std::sort(offsets.begin(), offsets.end(), [](const auto& a, const auto& b) {
                return a.topicPartition < b.topicPartition;
            });
        }
    }
    return offsetsByGroup;
}

} // namespace groupscope::kafka
