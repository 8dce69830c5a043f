#include "consumer/GroupRebalanceProbe.h"

#include "kafka/RdKafkaHandles.h"

#include <librdkafka/rdkafka.h>

namespace groupscope::consumer {

GroupRebalanceProbe::GroupRebalanceProbe(rd_kafka_t* consumer, const QString& groupId,
                                         std::chrono::milliseconds timeout)
    : m_consumer(consumer)
    , m_groupId(groupId.toUtf8())
    , m_timeout(timeout) {}

bool GroupRebalanceProbe::commitDuringJoinLosesAssignment() {
    return rd_kafka_version() < 0x020a0000;
}

bool GroupRebalanceProbe::isRebalancing() const {
    if (m_groupId.isEmpty())
        return false;
    kafka::AdminOptionsHandle options(
        rd_kafka_AdminOptions_new(m_consumer, RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS));
    char reason[256];
    rd_kafka_AdminOptions_set_request_timeout(options.get(), int(m_timeout.count()), reason,
                                              sizeof reason);
    kafka::QueueHandle queue(rd_kafka_queue_new(m_consumer));
    const char* groups[] = {m_groupId.constData()};
    rd_kafka_DescribeConsumerGroups(m_consumer, groups, 1, options.get(), queue.get());
    kafka::EventHandle event(rd_kafka_queue_poll(queue.get(), int(m_timeout.count())));
    if (!event || rd_kafka_event_error(event.get()))
        return false;
    size_t count = 0;
    const auto** described = rd_kafka_DescribeConsumerGroups_result_groups(
        rd_kafka_event_DescribeConsumerGroups_result(event.get()), &count);
    if (count != 1 || rd_kafka_ConsumerGroupDescription_error(described[0]))
        return false;
    const rd_kafka_consumer_group_state_t state =
        rd_kafka_ConsumerGroupDescription_state(described[0]);
    return state == RD_KAFKA_CONSUMER_GROUP_STATE_PREPARING_REBALANCE ||
           state == RD_KAFKA_CONSUMER_GROUP_STATE_COMPLETING_REBALANCE;
}

} // namespace groupscope::consumer
