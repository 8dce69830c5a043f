#include "sandbox/SandboxConsumerMember.h"

#include <QJsonDocument>
#include <QJsonParseError>

#include <algorithm>

namespace groupscope::sandbox {

namespace {

using Clock = StopFlag::Clock;
using consumer::ConsumedMessage;
using consumer::ConsumerSession;

// Bounds how long a stop request waits for the loop to notice it.
constexpr auto waitForMessages = std::chrono::milliseconds(200);
constexpr auto commitInterval = std::chrono::seconds(1);
// A throttled member that was held up (rebalance, broker hiccup) may catch up at most this
// much, so its pace stays steady instead of bursting.
constexpr auto maxThrottleCredit = std::chrono::seconds(1);
constexpr size_t batchLimit = 500;
// Enough buffered per partition to keep a fast member busy; a slow one pauses its fetch.
constexpr size_t bufferCapacity = 2000;
// A failing record is retried this often, this far apart, before the member crashes; it
// restarts after the pause. The group is Empty during the pause, which is when Kafka
// accepts a reset of its offsets.
constexpr int attemptsBeforeCrash = 3;
constexpr auto retryDelay = std::chrono::seconds(1);
constexpr auto restartDelay = std::chrono::seconds(10);

bool isJson(QByteArrayView value) {
    QJsonParseError error;
    QJsonDocument::fromJson(value.toByteArray(), &error);
    return error.error == QJsonParseError::NoError;
}

} // namespace

SandboxConsumerMember::SandboxConsumerMember(const kafka::ConnectionProfile& profile,
                                             const Settings& settings,
                                             std::shared_ptr<ProcessingContinuity> continuity)
    : m_profile(profile)
    , m_settings(settings)
    , m_continuity(std::move(continuity)) {}

SandboxConsumerMember::~SandboxConsumerMember() {
    stop();
}

kafka::Result<std::unique_ptr<SandboxConsumerMember>>
SandboxConsumerMember::start(const kafka::ConnectionProfile& profile, const Settings& settings,
                             std::shared_ptr<ProcessingContinuity> continuity) {
    if (settings.groupId.isEmpty() || settings.topics.isEmpty() || !continuity)
        return kafka::KafkaError::invalidArgument(
            QStringLiteral("a sandbox member needs a group and topics"));
    std::unique_ptr<SandboxConsumerMember> member(
        new SandboxConsumerMember(profile, settings, std::move(continuity)));
    // The first session starts here, so a configuration problem is reported to the caller.
    auto session = member->join();
    if (!session)
        return session.error();
    member->m_thread =
        std::thread([self = member.get(), first = std::move(session.value())]() mutable {
            self->run(std::move(first));
        });
    return member;
}

kafka::Result<std::unique_ptr<ConsumerSession>> SandboxConsumerMember::join() const {
    consumer::ConsumerSessionOptions options;
    options.profile = m_profile;
    options.groupId = m_settings.groupId;
    options.bufferCapacity = bufferCapacity;
    options.properties.append({QStringLiteral("client.id"), m_settings.clientId});
    if (m_settings.consumerProtocol) {
        // The new protocol's session timeout is the broker's
        // (group.consumer.session.timeout.ms); the client may not set one.
        options.groupProtocol = consumer::GroupProtocol::Consumer;
    } else {
        // A short session timeout makes members of a killed sandbox disappear soon; a
        // clean stop leaves the group at once anyway.
        options.properties.append({QStringLiteral("session.timeout.ms"), QStringLiteral("10000")});
    }
    auto session = ConsumerSession::create(std::move(options));
    if (!session)
        return session.error();
    if (auto subscribed = session.value()->subscribe(m_settings.topics); !subscribed) {
        kafka::KafkaError error = subscribed.error();
        error.message = QStringLiteral("subscribing %1 to %2: %3")
                            .arg(m_settings.groupId, m_settings.topics.join(QStringLiteral(", ")),
                                 error.message);
        return error;
    }
    return session;
}

void SandboxConsumerMember::requestStop() {
    m_stop.requestStop();
}

void SandboxConsumerMember::stop() {
    requestStop();
    if (m_thread.joinable())
        m_thread.join();
}

void SandboxConsumerMember::run(std::unique_ptr<ConsumerSession> session) {
    while (session) {
        const Ending ending = consume(*session);
        // Closing commits what was processed and leaves the group, so the remaining
        // members rebalance at once instead of after the session timeout.
        if (const kafka::Status closed = session->close(); !closed)
            m_lastProblem.record(closed.error().message);
        session.reset();
        if (ending == Ending::Stopped || m_stop.waitFor(restartDelay))
            return;
        while (!session && !m_stop.stopRequested()) {
            auto rejoined = join();
            if (rejoined) {
                session = std::move(rejoined.value());
                continue;
            }
            m_lastProblem.record(rejoined.error().message);
            if (m_stop.waitFor(restartDelay))
                return;
        }
    }
}

SandboxConsumerMember::Ending SandboxConsumerMember::consume(ConsumerSession& session) {
    const bool throttled = m_settings.maxMessagesPerSecond > 0;
    const auto interval =
        throttled ? std::chrono::duration_cast<Clock::duration>(
                        std::chrono::duration<double>(1.0 / m_settings.maxMessagesPerSecond))
                  : Clock::duration::zero();
    auto nextAllowed = Clock::now();
    auto nextCommit = Clock::now() + commitInterval;
    m_failing.reset(); // a restarted service knows nothing of its earlier attempts
    while (!m_stop.stopRequested()) {
        if (Clock::now() >= nextCommit) {
            (void)session.commit(); // a failure shows through the session's last error
            nextCommit = Clock::now() + commitInterval;
        }
        noteSessionError(session);
        // Throttling by not taking the next message: what is not processed is not
        // committed, so the group's lag grows.
        if (throttled && nextAllowed > Clock::now() &&
            m_stop.waitUntil(std::min(nextAllowed, nextCommit)))
            break;
        if (!session.waitForMessages(waitForMessages))
            continue;
        const std::vector<ConsumedMessage> batch = session.takeAll(throttled ? 1 : batchLimit);
        for (const ConsumedMessage& message : batch) {
            if (!process(session, message)) {
                if (m_failing->failures >= attemptsBeforeCrash)
                    return Ending::Crashed;
                if (m_stop.waitFor(retryDelay))
                    return Ending::Stopped;
                break; // the rest of the batch came after the failed record: gone with the seek
            }
        }
        if (throttled && !batch.empty())
            nextAllowed = std::max(nextAllowed, Clock::now() - maxThrottleCredit) + interval;
    }
    return Ending::Stopped;
}

bool SandboxConsumerMember::process(ConsumerSession& session, const ConsumedMessage& message) {
    const kafka::TopicPartition partition{message.topic(), message.partition()};
    if (!m_settings.failsOnMalformedRecords || isJson(message.payload())) {
        m_continuity->processed(partition, message.offset());
        ++m_consumed;
        m_failing.reset();
        return true;
    }
    if (!m_failing || m_failing->partition != partition || m_failing->offset != message.offset())
        m_failing = FailingRecord{partition, message.offset(), 0};
    ++m_failing->failures;
    m_lastProblem.record(
        QStringLiteral("%1 member %2 fails on record %3:%4@%5 (its value is not JSON), "
                       "attempt %6 of %7%8")
            .arg(m_settings.groupId, m_settings.clientId, partition.topic)
            .arg(partition.partition)
            .arg(message.offset())
            .arg(m_failing->failures)
            .arg(attemptsBeforeCrash)
            .arg(m_failing->failures >= attemptsBeforeCrash
                     ? QStringLiteral("; it crashes and restarts in %1 s")
                           .arg(std::chrono::seconds(restartDelay).count())
                     : QString()));
    // Back to the failed record, so it is delivered again and never committed past.
    consumer::RepositionRequest back;
    back.targets.insert(partition, consumer::RepositionTarget::offset(message.offset()));
    (void)session.reposition(back);
    return false;
}

void SandboxConsumerMember::noteSessionError(const ConsumerSession& session) {
    const kafka::KafkaError error = session.statistics().lastError;
    if (!error.isError() || error.message == m_lastSessionError)
        return;
    m_lastSessionError = error.message;
    m_lastProblem.record(QStringLiteral("%1 member %2: %3")
                             .arg(m_settings.groupId, m_settings.clientId, error.message));
}

} // namespace groupscope::sandbox
