#include "sandbox/SandboxAdmin.h"

#include "kafka/TopicPartitionList.h"

#include <librdkafka/rdkafka.h>

#include <vector>

namespace groupscope::sandbox {

namespace {

using Clock = std::chrono::steady_clock;

kafka::KafkaError eventError(rd_kafka_event_t* event, const QString& what) {
    kafka::KafkaError error;
    error.code = rd_kafka_event_error(event);
    if (error.isError())
        error.message = QStringLiteral("%1: %2").arg(
            what, QString::fromUtf8(rd_kafka_event_error_string(event)));
    return error;
}

} // namespace

SandboxAdmin::SandboxAdmin(std::unique_ptr<kafka::AdminClient> client)
    : m_client(std::move(client))
    , m_queue(rd_kafka_queue_new(m_client->handle())) {}

SandboxAdmin::~SandboxAdmin() {
    m_queue.reset(); // the queue must go before its handle
    m_client.reset();
}

kafka::Result<std::unique_ptr<SandboxAdmin>>
SandboxAdmin::create(const kafka::ConnectionProfile& profile, Milliseconds timeout) {
    auto client = kafka::AdminClient::create(profile, timeout);
    if (!client)
        return client.error();
    return std::unique_ptr<SandboxAdmin>(new SandboxAdmin(std::move(client.value())));
}

kafka::AdminOptionsHandle SandboxAdmin::makeOptions(rd_kafka_admin_op_t operation) const {
    kafka::AdminOptionsHandle options(rd_kafka_AdminOptions_new(m_client->handle(), operation));
    const int timeoutMs = int(m_client->timeout().count());
    char reason[256] = {};
    rd_kafka_AdminOptions_set_request_timeout(options.get(), timeoutMs, reason, sizeof reason);
    if (operation == RD_KAFKA_ADMIN_OP_CREATETOPICS)
        // Wait until the controller has created the topics, so they can be used at once.
        rd_kafka_AdminOptions_set_operation_timeout(options.get(), timeoutMs, reason,
                                                    sizeof reason);
    return options;
}

kafka::Result<kafka::EventHandle> SandboxAdmin::waitForResult(const QString& what) {
    // A little beyond the request timeout: librdkafka reports its own timeout as a result
    // event, which carries a better reason than ours.
    const auto deadline = Clock::now() + m_client->timeout() + std::chrono::seconds(2);
    while (Clock::now() < deadline) {
        kafka::EventHandle event(rd_kafka_queue_poll(m_queue.get(), 100));
        if (!event)
            continue;
        // A request-level failure (e.g. the timeout) is the event's own error.
        if (kafka::KafkaError error = eventError(event.get(), what); error)
            return error;
        return event;
    }
    return kafka::KafkaError::timeout(
        QStringLiteral("%1 timed out after %2 ms (bootstrap servers %3)")
            .arg(what)
            .arg(m_client->timeout().count())
            .arg(m_client->profile().bootstrapServers));
}

kafka::Status SandboxAdmin::createTopics(const QList<SandboxTopic>& topics) {
    if (topics.isEmpty())
        return kafka::Done{};
    std::vector<kafka::NewTopicHandle> owned;
    std::vector<rd_kafka_NewTopic_t*> newTopics;
    for (const SandboxTopic& topic : topics) {
        char reason[512] = {};
        kafka::NewTopicHandle newTopic(rd_kafka_NewTopic_new(
            topic.name.toUtf8().constData(), topic.partitions, 1, reason, sizeof reason));
        if (!newTopic)
            return kafka::KafkaError::invalidArgument(
                QStringLiteral("topic %1: %2").arg(topic.name, QString::fromUtf8(reason)));
        newTopics.push_back(newTopic.get());
        owned.push_back(std::move(newTopic));
    }
    auto options = makeOptions(RD_KAFKA_ADMIN_OP_CREATETOPICS);
    rd_kafka_CreateTopics(m_client->handle(), newTopics.data(), newTopics.size(), options.get(),
                          m_queue.get());
    const QString what = QStringLiteral("creating topics");
    auto event = waitForResult(what);
    if (!event)
        return event.error();
    rd_kafka_event_t* raw = event.value().get();
    size_t count = 0;
    const auto** results =
        rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(raw), &count);
    for (size_t i = 0; i < count; ++i) {
        const rd_kafka_resp_err_t code = rd_kafka_topic_result_error(results[i]);
        // A sandbox run before this one (or someone else) created it: use it as it is.
        if (code == RD_KAFKA_RESP_ERR_NO_ERROR || code == RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS)
            continue;
        const char* reason = rd_kafka_topic_result_error_string(results[i]);
        kafka::KafkaError error = kafka::KafkaError::fromCode(code);
        error.message = QStringLiteral("creating topic %1: %2")
                            .arg(QString::fromUtf8(rd_kafka_topic_result_name(results[i])),
                                 reason ? QString::fromUtf8(reason)
                                        : QString::fromUtf8(rd_kafka_err2str(code)));
        return error;
    }
    return kafka::Done{};
}

kafka::Result<bool> SandboxAdmin::offersConsumerProtocol(int32_t brokerId) {
    const QByteArray id = QByteArray::number(brokerId);
    kafka::ConfigResourceHandle resource(
        rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_BROKER, id.constData()));
    rd_kafka_ConfigResource_t* resources[] = {resource.get()};
    auto options = makeOptions(RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS);
    rd_kafka_DescribeConfigs(m_client->handle(), resources, 1, options.get(), m_queue.get());
    const QString what = QStringLiteral("describing broker %1's configuration").arg(brokerId);
    auto event = waitForResult(what);
    if (!event)
        return event.error();
    rd_kafka_event_t* raw = event.value().get();
    size_t count = 0;
    const auto** described = rd_kafka_DescribeConfigs_result_resources(
        rd_kafka_event_DescribeConfigs_result(raw), &count);
    for (size_t r = 0; r < count; ++r) {
        size_t entries = 0;
        const auto** configs = rd_kafka_ConfigResource_configs(described[r], &entries);
        for (size_t e = 0; e < entries; ++e)
            if (qstrcmp(rd_kafka_ConfigEntry_name(configs[e]),
                        "group.coordinator.rebalance.protocols") == 0)
                return QString::fromUtf8(rd_kafka_ConfigEntry_value(configs[e]))
                    .split(u',')
                    .contains(QStringLiteral("consumer"));
    }
    return false;
}

} // namespace groupscope::sandbox
