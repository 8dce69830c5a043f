#include "kafka/LibrdkafkaConnection.h"

#include "kafka/ClientConf.h"
#include "kafka/LibrdkafkaDetail.h"
#include "kafka/TopicPartitionList.h"
#include "kafka/protocol/ConnectionSecurity.h"
#include "kafka/protocol/OAuthTokenAnswer.h"
#include "kafka/protocol/OAuthTokenSource.h"

#include <librdkafka/rdkafka.h>

#include <QDateTime>
#include <QMutexLocker>
#include <QUuid>

#include <algorithm>
#include <cstdio>
#include <exception>

// The librdkafka admin handle: creation, callbacks, deadlines and waiting for one answer.
// Its requests are LibrdkafkaGroupRequests' and LibrdkafkaClusterRequests'.

namespace groupscope::kafka {

namespace detail {

using Clock = std::chrono::steady_clock;

int remainingMs(Clock::time_point deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return int(std::clamp<long long>(left, 0, 1'000'000'000));
}

QString fromUtf8OrEmpty(const char* text) {
    return text ? QString::fromUtf8(text) : QString();
}

// A copy of an event's error as a value; the event keeps ownership of its strings.
KafkaError eventError(rd_kafka_event_t* event) {
    KafkaError error;
    error.code = rd_kafka_event_error(event);
    if (error.isError())
        error.message = fromUtf8OrEmpty(rd_kafka_event_error_string(event));
    return error;
}

KafkaError borrowedError(const rd_kafka_error_t* raw) {
    KafkaError error;
    if (!raw)
        return error;
    error.code = rd_kafka_error_code(raw);
    error.message = fromUtf8OrEmpty(rd_kafka_error_string(raw));
    error.retriable = rd_kafka_error_is_retriable(raw);
    error.fatal = rd_kafka_error_is_fatal(raw);
    return error;
}

} // namespace detail

namespace {

// The process-wide log sink (see LibrdkafkaConnection::setLogSink). The flag spares every log line
// the lock while no sink is set, which is always outside tests.
QMutex logSinkMutex;
LibrdkafkaConnection::LogSink logSink;
std::atomic<bool> logSinkSet = false;

} // namespace

using detail::fromUtf8OrEmpty;
using detail::remainingMs;

namespace {

// A ready OAUTHBEARER token (sasl.oauthbearer.config "token=...", Groupscope's own form)
// goes to librdkafka as well, which otherwise waits for a token refresh callback: named by
// its "sub" and valid until its "exp" when it is a JWT (librdkafka wants both), else for a
// day, after which the broker's verdict stands alone. The token is in no error.
Status handOverStaticOAuthToken(rd_kafka_t* handle, const ConnectionProfile& profile) {
    const auto security = protocol::ConnectionSecurity::fromProfile(profile);
    if (!security || security.value().oauthStaticToken.isEmpty())
        return Done{};
    const QString& token = security.value().oauthStaticToken;
    const auto claims = protocol::JwtClaims::of(token);
    const QByteArray principal =
        claims.principal.isEmpty() ? QByteArrayLiteral("groupscope") : claims.principal.toUtf8();
    const qint64 expiresAt =
        claims.expiresAtMs.value_or(QDateTime::currentMSecsSinceEpoch() + 24 * 3600 * 1000);
    char reason[512] = {};
    if (rd_kafka_oauthbearer_set_token(handle, token.toUtf8().constData(), expiresAt,
                                       principal.constData(), nullptr, 0, reason,
                                       sizeof reason) != RD_KAFKA_RESP_ERR_NO_ERROR)
        return KafkaError{
            RD_KAFKA_RESP_ERR__AUTHENTICATION,
            QStringLiteral("authentication failed: the OAUTHBEARER token "
                           "(sasl.oauthbearer.config token=...) is not usable: %1")
                .arg(QString::fromUtf8(reason).replace(token, QStringLiteral("<token>"))),
            false, false};
    return Done{};
}

} // namespace

void LibrdkafkaConnection::setLogSink(LogSink sink) {
    QMutexLocker lock(&logSinkMutex);
    logSinkSet = bool(sink);
    logSink = std::move(sink);
}

LibrdkafkaConnection::LibrdkafkaConnection(QString bootstrapServers, Milliseconds timeout)
    : m_bootstrapServers(std::move(bootstrapServers))
    , m_timeout(timeout) {}

LibrdkafkaConnection::~LibrdkafkaConnection() {
    m_queue.reset(); // the queue must go before its handle
    m_handle.reset();
}

Result<std::unique_ptr<LibrdkafkaConnection>>
LibrdkafkaConnection::open(const ConnectionProfile& profile, Milliseconds timeout) {
    // Log end offsets as Kafka's own tool reports them (read_uncommitted: the high
    // watermark, not the last stable offset).
    //
    // The group id is private and never subscribed, so this handle never joins or commits
    // and the group never exists on the broker: inspecting triggers no rebalance anywhere.
    // It must be there all the same: librdkafka (2.0 up to at least 2.4) dereferences a
    // missing consumer-group object when an OffsetFetch answer says NOT_COORDINATOR
    // (librdkafka issue 5040), which crashed ListConsumerGroupOffsets on a fresh broker and
    // during coordinator moves.
    const QString privateGroupId =
        QStringLiteral("groupscope-inspector-") + QUuid::createUuid().toString(QUuid::Id128);
    auto conf =
        makeConf(profile, {{QStringLiteral("isolation.level"), QStringLiteral("read_uncommitted")},
                           {QStringLiteral("client.id"), QStringLiteral("groupscope-admin")},
                           {QStringLiteral("group.id"), privateGroupId},
                           {QStringLiteral("enable.auto.commit"), QStringLiteral("false")}});
    if (!conf)
        return conf.error();

    std::unique_ptr<LibrdkafkaConnection> client(
        new LibrdkafkaConnection(profile.bootstrapServers, timeout));
    rd_kafka_conf_set_opaque(conf.value().get(), client.get());
    rd_kafka_conf_set_error_cb(conf.value().get(), &LibrdkafkaConnection::errorCallback);
    rd_kafka_conf_set_log_cb(conf.value().get(), &LibrdkafkaConnection::logCallback);

    char reason[512] = {};
    rd_kafka_t* raw = rd_kafka_new(RD_KAFKA_CONSUMER, conf.value().get(), reason, sizeof reason);
    if (!raw) {
        const QString whyNot = QString::fromUtf8(reason);
        // OpenSSL's "PEM lib" says nothing to a person; the usual cause is the passphrase.
        if (whyNot.startsWith(u"ssl.key.location"))
            return KafkaError::invalidArgument(
                QStringLiteral("cannot load the client key %1: wrong key passphrase "
                               "(ssl.key.password), or not a PEM private key: %2")
                    .arg(profile.sslKeyLocation, whyNot));
        return KafkaError::invalidArgument(
            QStringLiteral("cannot create Kafka client: %1").arg(whyNot));
    }
    (void)conf.value().release(); // rd_kafka_new took ownership of the configuration
    client->m_handle.reset(raw);
    if (Status token = handOverStaticOAuthToken(raw, profile); !token)
        return token.error();
    client->m_queue.reset(rd_kafka_queue_new(raw));
    return client;
}

void LibrdkafkaConnection::errorCallback(rd_kafka_t*, int code, const char* reason, void* opaque) {
    try {
        auto* self = static_cast<LibrdkafkaConnection*>(opaque);
        if (!self)
            return;
        const auto errorCode = rd_kafka_resp_err_t(code);
        if (KafkaError failure =
                KafkaError::connectionSetupFailure(errorCode, fromUtf8OrEmpty(reason));
            failure)
            self->recordSetupFailure(failure);
        if (errorCode != RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN)
            self->recordConnectionProblem(fromUtf8OrEmpty(reason));
    } catch (...) {
        // never let an exception cross into C
    }
}

void LibrdkafkaConnection::logCallback(const rd_kafka_t* handle, int level, const char* facility,
                                       const char* message) {
    try {
        // librdkafka logs connection failures at warning/error level; keep the last one for
        // error messages instead of printing it, unless the user asked for Kafka logs.
        static const bool printLogs = qEnvironmentVariableIsSet("GROUPSCOPE_KAFKA_LOG");
        if (printLogs)
            std::fprintf(stderr, "librdkafka %d %s: %s\n", level, facility, message);
        if (logSinkSet) {
            QMutexLocker lock(&logSinkMutex);
            if (logSink)
                logSink(level, fromUtf8OrEmpty(facility), fromUtf8OrEmpty(message));
        }
        if (level <= 4)
            if (auto* self = static_cast<LibrdkafkaConnection*>(rd_kafka_opaque(handle))) {
                const QString text = fromUtf8OrEmpty(message);
                // Some handshake failures reach only the log, not the error callback.
                if (KafkaError failure =
                        KafkaError::connectionSetupFailure(RD_KAFKA_RESP_ERR_NO_ERROR, text);
                    failure)
                    self->recordSetupFailure(failure);
                self->recordConnectionProblem(text);
            }
    } catch (...) {
    }
}

void LibrdkafkaConnection::recordConnectionProblem(const QString& problem) {
    QMutexLocker lock(&m_problemMutex);
    m_lastConnectionProblem = problem;
}

void LibrdkafkaConnection::recordSetupFailure(const KafkaError& failure) {
    QMutexLocker lock(&m_problemMutex);
    m_setupFailure = failure;
    m_setupFailureTime = Clock::now();
}

KafkaError LibrdkafkaConnection::setupFailureSince(Clock::time_point since) const {
    QMutexLocker lock(&m_problemMutex);
    if (m_setupFailure && m_setupFailureTime >= since)
        return m_setupFailure;
    return {};
}

void LibrdkafkaConnection::abandonPendingRequests() {
    // Each request holds its own reference to its reply queue: dropping ours is safe, and
    // the late answer is freed with the queue.
    m_queue.reset(rd_kafka_queue_new(m_handle.get()));
}

KafkaError LibrdkafkaConnection::timeoutError(const QString& what) const {
    QString problem;
    KafkaError setupFailure;
    {
        QMutexLocker lock(&m_problemMutex);
        problem = m_lastConnectionProblem;
        setupFailure = m_setupFailure;
    }
    // A call that cannot wait on the event queue (metadata, offsets for times) times out
    // instead of failing fast; the authentication or TLS failure is still the real reason.
    if (setupFailure) {
        setupFailure.message = QStringLiteral("%1 (bootstrap servers %2): %3")
                                   .arg(what, m_bootstrapServers, setupFailure.message);
        return setupFailure;
    }
    QString message = QStringLiteral("%1 timed out after %2 ms (bootstrap servers %3)")
                          .arg(what)
                          .arg(timeout().count())
                          .arg(m_bootstrapServers);
    if (!problem.isEmpty())
        message += QStringLiteral(": last problem: ") + problem;
    return KafkaError::timeout(message);
}

KafkaError LibrdkafkaConnection::explain(KafkaError error, const QString& what) const {
    if (error.isConnectionFailure())
        return timeoutError(what);
    if (!error.message.startsWith(what))
        error.message = QStringLiteral("%1: %2").arg(what, error.message);
    return error.withExplanation();
}

AdminOptionsHandle LibrdkafkaConnection::makeOptions(int operation, Deadline deadline) const {
    AdminOptionsHandle options(
        rd_kafka_AdminOptions_new(m_handle.get(), static_cast<rd_kafka_admin_op_t>(operation)));
    char reason[256];
    rd_kafka_AdminOptions_set_request_timeout(options.get(), std::max(1, remainingMs(deadline)),
                                              reason, sizeof reason);
    return options;
}

Result<EventHandle> LibrdkafkaConnection::waitForEvent(Deadline deadline, const QString& what,
                                                       rd_kafka_event_type_t type) {
    const Clock::time_point callStart = deadline - timeout();
    for (;;) {
        // Serve the main queue too: that is where error callbacks are delivered.
        rd_kafka_poll(m_handle.get(), 0);
        const int slice = std::min(remainingMs(deadline), 100);
        EventHandle event(rd_kafka_queue_poll(m_queue.get(), slice));
        // Any other event is the late answer of an abandoned request: reading it as this
        // call's answer would hand a null result to librdkafka's accessors (a crash).
        if (event && rd_kafka_event_type(event.get()) == type)
            return event;
        if (KafkaError failure = setupFailureSince(callStart); failure) {
            abandonPendingRequests();
            failure.message = QStringLiteral("%1 (bootstrap servers %2): %3")
                                  .arg(what, m_bootstrapServers, failure.message);
            return failure;
        }
        if (cancelled()) {
            abandonPendingRequests();
            return KafkaError{RD_KAFKA_RESP_ERR__INTR, what + QStringLiteral(" was cancelled"),
                              false, false};
        }
        if (remainingMs(deadline) == 0) {
            // librdkafka's own timeout for the request fires about now, and its answer would
            // otherwise wait in the queue for the next call.
            abandonPendingRequests();
            return timeoutError(what);
        }
    }
}

void LibrdkafkaConnection::noteGroupError(const KafkaError& error) {
    if (error.code == RD_KAFKA_RESP_ERR_NOT_COORDINATOR)
        m_coordinatorMoved = true;
}

} // namespace groupscope::kafka
