#include "kafka/LibrdkafkaClusterRequests.h"

#include "kafka/LibrdkafkaDetail.h"

#include <librdkafka/rdkafka.h>

#include <vector>

// The librdkafka admin requests' topic administration: creating topics, reading a broker's
// configuration.

namespace groupscope::kafka {

using detail::eventError;

Result<EventHandle> LibrdkafkaClusterRequests::waitForTopicAdmin(rd_kafka_event_type_t type,
                                                                 const QString& what) {
    auto event = m_connection.waitForEvent(m_connection.deadline(), what, type);
    if (!event)
        return event.error();
    if (KafkaError error = eventError(event.value().get()); error)
        return m_connection.explain(error, what);
    return event;
}

Status LibrdkafkaClusterRequests::createTopics(const QList<NewTopic>& topics) {
    if (topics.isEmpty())
        return Done{};
    std::vector<NewTopicHandle> owned;
    std::vector<rd_kafka_NewTopic_t*> newTopics;
    for (const NewTopic& topic : topics) {
        char reason[512] = {};
        NewTopicHandle newTopic(rd_kafka_NewTopic_new(topic.name.toUtf8().constData(),
                                                      topic.partitions, topic.replicationFactor,
                                                      reason, sizeof reason));
        if (!newTopic)
            return KafkaError::invalidArgument(
                QStringLiteral("topic %1: %2").arg(topic.name, QString::fromUtf8(reason)));
        newTopics.push_back(newTopic.get());
        owned.push_back(std::move(newTopic));
    }
    auto options =
        m_connection.makeOptions(RD_KAFKA_ADMIN_OP_CREATETOPICS, m_connection.deadline());
    char reason[256] = {};
    // Wait until the controller has created the topics, so they can be used at once.
    rd_kafka_AdminOptions_set_operation_timeout(options.get(), int(m_connection.timeout().count()),
                                                reason, sizeof reason);
    rd_kafka_CreateTopics(m_connection.handle(), newTopics.data(), newTopics.size(), options.get(),
                          m_connection.queue());
    auto event =
        waitForTopicAdmin(RD_KAFKA_EVENT_CREATETOPICS_RESULT, QStringLiteral("creating topics"));
    if (!event)
        return event.error();
    size_t count = 0;
    const auto** results = rd_kafka_CreateTopics_result_topics(
        rd_kafka_event_CreateTopics_result(event.value().get()), &count);
    for (size_t i = 0; i < count; ++i) {
        const rd_kafka_resp_err_t code = rd_kafka_topic_result_error(results[i]);
        if (code == RD_KAFKA_RESP_ERR_NO_ERROR || code == RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS)
            continue;
        const char* why = rd_kafka_topic_result_error_string(results[i]);
        KafkaError error = KafkaError::fromCode(code);
        error.message =
            QStringLiteral("creating topic %1: %2")
                .arg(QString::fromUtf8(rd_kafka_topic_result_name(results[i])),
                     why ? QString::fromUtf8(why) : QString::fromUtf8(rd_kafka_err2str(code)));
        return error;
    }
    return Done{};
}

Result<std::optional<QString>> LibrdkafkaClusterRequests::brokerConfig(int32_t brokerId,
                                                                       const QString& name) {
    const QByteArray id = QByteArray::number(brokerId);
    ConfigResourceHandle resource(
        rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_BROKER, id.constData()));
    rd_kafka_ConfigResource_t* resources[] = {resource.get()};
    auto options =
        m_connection.makeOptions(RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS, m_connection.deadline());
    rd_kafka_DescribeConfigs(m_connection.handle(), resources, 1, options.get(),
                             m_connection.queue());
    auto event =
        waitForTopicAdmin(RD_KAFKA_EVENT_DESCRIBECONFIGS_RESULT,
                          QStringLiteral("describing broker %1's configuration").arg(brokerId));
    if (!event)
        return event.error();
    size_t count = 0;
    const auto** described = rd_kafka_DescribeConfigs_result_resources(
        rd_kafka_event_DescribeConfigs_result(event.value().get()), &count);
    const QByteArray wanted = name.toUtf8();
    for (size_t r = 0; r < count; ++r) {
        size_t entries = 0;
        const auto** configs = rd_kafka_ConfigResource_configs(described[r], &entries);
        for (size_t e = 0; e < entries; ++e)
            if (qstrcmp(rd_kafka_ConfigEntry_name(configs[e]), wanted.constData()) == 0) {
                const char* value = rd_kafka_ConfigEntry_value(configs[e]);
                return std::optional<QString>(value ? QString::fromUtf8(value) : QString());
            }
    }
    return std::optional<QString>();
}

} // namespace groupscope::kafka
