#include "sandbox/SandboxProducer.h"

#include "sandbox/SandboxClientConfig.h"
#include "sandbox/SandboxMessageFactory.h"

#include <librdkafka/rdkafka.h>

namespace groupscope::sandbox {

namespace {

using Clock = StopFlag::Clock;

// How long stop() waits for queued messages to be delivered before dropping them: the
// sandbox must shut down within a few seconds even when the broker is gone.
constexpr int flushOnStopMs = 2000;
// A producer this far behind its schedule starts a new schedule instead of bursting.
constexpr auto maxBacklog = std::chrono::seconds(1);

} // namespace

SandboxProducer::SandboxProducer(const SandboxTopic& topic)
    : m_topic(topic) {}

SandboxProducer::~SandboxProducer() {
    stop();
}

kafka::Result<std::unique_ptr<SandboxProducer>>
SandboxProducer::start(const kafka::ConnectionProfile& profile, const SandboxTopic& topic) {
    if (!(topic.messagesPerSecond > 0))
        return kafka::KafkaError::invalidArgument(
            QStringLiteral("topic %1: the production rate must be positive").arg(topic.name));
    // A short linger batches the steady trickle a little without making it look bursty;
    // a bounded message timeout makes an unreachable broker show up as failed deliveries.
    auto conf = makeSandboxConf(
        profile,
        {{QStringLiteral("client.id"), QStringLiteral("groupscope-sandbox-producer-") + topic.name},
         {QStringLiteral("linger.ms"), QStringLiteral("20")},
         {QStringLiteral("message.timeout.ms"), QStringLiteral("30000")}});
    if (!conf)
        return conf.error();

    std::unique_ptr<SandboxProducer> producer(new SandboxProducer(topic));
    rd_kafka_conf_set_opaque(conf.value().get(), producer.get());
    rd_kafka_conf_set_dr_msg_cb(conf.value().get(), &SandboxProducer::deliveryCallback);
    rd_kafka_conf_set_error_cb(conf.value().get(), &SandboxProducer::errorCallback);
    char reason[512] = {};
    rd_kafka_t* raw = rd_kafka_new(RD_KAFKA_PRODUCER, conf.value().get(), reason, sizeof reason);
    if (!raw)
        return kafka::KafkaError::invalidArgument(
            QStringLiteral("cannot create producer: %1").arg(QString::fromUtf8(reason)));
    (void)conf.value().release(); // rd_kafka_new took ownership of the configuration
    producer->m_handle.reset(raw);
    producer->m_thread = std::thread([self = producer.get()] { self->run(); });
    return producer;
}

void SandboxProducer::requestStop() {
    m_stop.requestStop();
}

void SandboxProducer::stop() {
    requestStop();
    if (m_thread.joinable())
        m_thread.join();
}

void SandboxProducer::run() {
    SandboxMessageFactory messages(m_topic.kind, uint32_t(qHash(m_topic.name)));
    const QByteArray topicName = m_topic.name.toUtf8();
    const auto interval = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(1.0 / m_topic.messagesPerSecond));
    auto scheduleStart = Clock::now();
    uint64_t producedInSchedule = 0;
    while (!m_stop.stopRequested()) {
        const auto due = scheduleStart + interval * producedInSchedule;
        const auto now = Clock::now();
        rd_kafka_poll(m_handle.get(), 0); // delivery reports and errors
        if (due > now) {
            if (m_stop.waitUntil(due))
                break;
            continue;
        }
        if (now - due > maxBacklog) {
            scheduleStart = now;
            producedInSchedule = 0;
        }
        const SandboxMessage message = messages.next();
        const rd_kafka_resp_err_t code =
            rd_kafka_producev(m_handle.get(), RD_KAFKA_V_TOPIC(topicName.constData()),
                              RD_KAFKA_V_KEY(message.key.constData(), size_t(message.key.size())),
                              RD_KAFKA_V_VALUE(const_cast<char*>(message.value.constData()),
                                               size_t(message.value.size())),
                              RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
        if (code == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
            // The broker is not keeping up (or is gone): wait for deliveries, then go on
            // with the schedule rather than dropping the message silently.
            rd_kafka_poll(m_handle.get(), 100);
            continue;
        }
        if (code != RD_KAFKA_RESP_ERR_NO_ERROR) {
            ++m_failed;
            m_lastProblem.record(QStringLiteral("producing to %1: %2")
                                     .arg(m_topic.name, QString::fromUtf8(rd_kafka_err2str(code))));
        }
        ++producedInSchedule;
    }
    shutDownHandle();
}

void SandboxProducer::shutDownHandle() {
    rd_kafka_flush(m_handle.get(), flushOnStopMs);
    // Whatever is still queued after the flush is dropped; its delivery reports (failed,
    // purged) are served here so no callback can arrive once the handle is gone.
    rd_kafka_purge(m_handle.get(), RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
    rd_kafka_poll(m_handle.get(), 0);
    m_handle.reset();
}

void SandboxProducer::deliveryCallback(rd_kafka_t*, const rd_kafka_message_t* message,
                                       void* opaque) {
    try {
        auto* self = static_cast<SandboxProducer*>(opaque);
        if (!self || !message)
            return;
        if (message->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
            ++self->m_delivered;
            return;
        }
        ++self->m_failed;
        self->m_lastProblem.record(
            QStringLiteral("delivery to %1 failed: %2")
                .arg(self->m_topic.name, QString::fromUtf8(rd_kafka_err2str(message->err))));
    } catch (...) {
        // never let an exception cross into C
    }
}

void SandboxProducer::errorCallback(rd_kafka_t*, int code, const char* reason, void* opaque) {
    try {
        if (auto* self = static_cast<SandboxProducer*>(opaque))
            self->m_lastProblem.record(
                QStringLiteral("producer for %1: %2 (%3)")
                    .arg(self->m_topic.name, QString::fromUtf8(reason),
                         QString::fromUtf8(rd_kafka_err2name(rd_kafka_resp_err_t(code)))));
    } catch (...) {
    }
}

} // namespace groupscope::sandbox
