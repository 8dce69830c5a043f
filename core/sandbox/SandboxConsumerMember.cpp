#include "sandbox/SandboxConsumerMember.h"

#include "kafka/TopicPartitionList.h"
#include "sandbox/SandboxClientConfig.h"

#include <librdkafka/rdkafka.h>

#include <algorithm>

namespace groupscope::sandbox {

namespace {

using Clock = StopFlag::Clock;

// Bounds how long a stop request waits for the poll loop to notice it.
constexpr int pollTimeoutMs = 200;
// A throttled member that was held up (rebalance, broker hiccup) may catch up at most this
// much, so its pace stays steady instead of bursting.
constexpr auto maxThrottleCredit = std::chrono::seconds(1);

} // namespace

SandboxConsumerMember::SandboxConsumerMember(const Settings& settings)
    : m_settings(settings) {}

SandboxConsumerMember::~SandboxConsumerMember() {
    stop();
}

kafka::Result<std::unique_ptr<SandboxConsumerMember>>
SandboxConsumerMember::start(const kafka::ConnectionProfile& profile, const Settings& settings) {
    if (settings.groupId.isEmpty() || settings.topics.isEmpty())
        return kafka::KafkaError::invalidArgument(
            QStringLiteral("a sandbox member needs a group and topics"));
    // Commits every second keep the lag Kafka reports close to the truth. A short session
    // timeout makes members of a killed sandbox disappear soon; a clean stop leaves the
    // group at once anyway.
    QList<QPair<QString, QString>> properties{
        {QStringLiteral("group.id"), settings.groupId},
        {QStringLiteral("client.id"), settings.clientId},
        {QStringLiteral("enable.auto.commit"), QStringLiteral("true")},
        {QStringLiteral("auto.commit.interval.ms"), QStringLiteral("1000")},
        {QStringLiteral("auto.offset.reset"), QStringLiteral("earliest")}};
    // The new protocol's session timeout is the broker's (group.consumer.session.timeout.ms);
    // the client may not set one.
    if (settings.consumerProtocol)
        properties.append({QStringLiteral("group.protocol"), QStringLiteral("consumer")});
    else
        properties.append({QStringLiteral("session.timeout.ms"), QStringLiteral("10000")});
    auto conf = makeSandboxConf(profile, properties);
    if (!conf)
        return conf.error();

    std::unique_ptr<SandboxConsumerMember> member(new SandboxConsumerMember(settings));
    rd_kafka_conf_set_opaque(conf.value().get(), member.get());
    rd_kafka_conf_set_error_cb(conf.value().get(), &SandboxConsumerMember::errorCallback);
    char reason[512] = {};
    rd_kafka_t* raw = rd_kafka_new(RD_KAFKA_CONSUMER, conf.value().get(), reason, sizeof reason);
    if (!raw)
        return kafka::KafkaError::invalidArgument(
            QStringLiteral("cannot create consumer: %1").arg(QString::fromUtf8(reason)));
    (void)conf.value().release(); // rd_kafka_new took ownership of the configuration
    member->m_handle.reset(raw);
    // Error callbacks then arrive through rd_kafka_consumer_poll, on the member's thread.
    rd_kafka_poll_set_consumer(raw);

    const kafka::TopicPartitionListHandle subscription =
        kafka::makeTopicSubscriptionList(settings.topics);
    if (const auto code = rd_kafka_subscribe(raw, subscription.get()))
        return kafka::KafkaError::fromCode(
            code, QStringLiteral("subscribing %1 to %2")
                      .arg(settings.groupId, settings.topics.join(QStringLiteral(", "))));
    member->m_thread = std::thread([self = member.get()] { self->run(); });
    return member;
}

void SandboxConsumerMember::requestStop() {
    m_stop.requestStop();
}

void SandboxConsumerMember::stop() {
    requestStop();
    if (m_thread.joinable())
        m_thread.join();
}

void SandboxConsumerMember::run() {
    const bool throttled = m_settings.maxMessagesPerSecond > 0;
    const auto interval =
        throttled ? std::chrono::duration_cast<Clock::duration>(
                        std::chrono::duration<double>(1.0 / m_settings.maxMessagesPerSecond))
                  : Clock::duration::zero();
    auto nextAllowed = Clock::now();
    while (!m_stop.stopRequested()) {
        // Throttling by not asking for the next message: what is not consumed is not
        // committed, so the group's lag grows.
        if (throttled && nextAllowed > Clock::now() && m_stop.waitUntil(nextAllowed))
            break;
        kafka::MessageHandle message(rd_kafka_consumer_poll(m_handle.get(), pollTimeoutMs));
        if (!message)
            continue;
        if (message->err) {
            handleError(message->err,
                        message->payload
                            ? QString::fromUtf8(static_cast<const char*>(message->payload),
                                                qsizetype(message->len))
                            : QString());
            continue;
        }
        ++m_consumed;
        if (throttled)
            nextAllowed = std::max(nextAllowed, Clock::now() - maxThrottleCredit) + interval;
    }
    // Commits the last progress and leaves the group, so the remaining members rebalance
    // at once instead of after the session timeout.
    if (const auto code = rd_kafka_consumer_close(m_handle.get()))
        handleError(code, QStringLiteral("leaving the group"));
    m_handle.reset();
}

void SandboxConsumerMember::handleError(rd_kafka_resp_err_t code, const QString& detail) {
    if (code == RD_KAFKA_RESP_ERR__PARTITION_EOF)
        return;
    QString problem = QStringLiteral("%1 member %2: %3")
                          .arg(m_settings.groupId, m_settings.clientId,
                               QString::fromUtf8(rd_kafka_err2str(code)));
    if (!detail.isEmpty())
        problem += QStringLiteral(" (%1)").arg(detail);
    m_lastProblem.record(problem);
}

void SandboxConsumerMember::errorCallback(rd_kafka_t*, int code, const char* reason, void* opaque) {
    try {
        if (auto* self = static_cast<SandboxConsumerMember*>(opaque))
            self->handleError(rd_kafka_resp_err_t(code), QString::fromUtf8(reason));
    } catch (...) {
        // never let an exception cross into C
    }
}

} // namespace groupscope::sandbox
