#include "kafka/protocol/BrokerConnection.h"

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/MessageCodec.h"
#include "kafka/protocol/ProtocolError.h"
#include "kafka/protocol/ResponseFrame.h"
#include "kafka/protocol/SaslAuthenticator.h"
#include "kafka/protocol/TlsSocketFactory.h"
#include "kafka/protocol/WireWriter.h"

#include <librdkafka/rdkafka.h>

#include <QMutex>
#include <QSslSocket>
#include <QTcpSocket>

namespace groupscope::kafka::protocol {

namespace {

using std::chrono::duration_cast;
using std::chrono::milliseconds;

// How often a wait looks at the cancel flag.
constexpr milliseconds cancelPollInterval(100);

const QString clientId = QStringLiteral("groupscope");

QMutex& observerMutex() {
    static QMutex mutex;
    return mutex;
}

BrokerConnection::RequestObserver& observer() {
    static BrokerConnection::RequestObserver function;
    return function;
}

int remainingMs(BrokerConnection::Deadline deadline) {
    const auto left = duration_cast<milliseconds>(deadline - BrokerConnection::Clock::now());
    return int(std::max<int64_t>(0, left.count()));
}

// Request header v1 (classic) or v2 (flexible: adds tagged fields). The client id stays a
// classic nullable string in both, as Kafka's RequestHeader specifies.
QByteArray requestHeader(ApiKey api, int16_t version, int32_t correlationId, bool flexible) {
    WireWriter writer;
    writer.writeInt16(int16_t(api));
    writer.writeInt16(version);
    writer.writeInt32(correlationId);
    writer.writeString(clientId, false);
    if (flexible)
        writer.writeUnsignedVarint(0);
    return writer.take();
}

} // namespace

BrokerConnection::BrokerConnection(BrokerAddress address, const std::atomic<bool>* cancelled)
    : m_address(std::move(address))
    , m_cancelled(cancelled) {}

BrokerConnection::~BrokerConnection() {
    close();
}

void BrokerConnection::setRequestObserver(RequestObserver function) {
    QMutexLocker lock(&observerMutex());
    observer() = std::move(function);
}

Result<std::unique_ptr<BrokerConnection>>
BrokerConnection::open(const BrokerAddress& address, const ConnectionSecurity& security,
                       Deadline deadline, const std::atomic<bool>* cancelled) {
    std::unique_ptr<BrokerConnection> connection(new BrokerConnection(address, cancelled));
    if (Status connected = connection->connectSocket(security, deadline); !connected)
        return connected.error();
    if (Status negotiated = connection->negotiateVersions(deadline); !negotiated)
        return negotiated.error();
    if (!security.saslMechanism.isEmpty()) {
        if (Status authenticated = SaslAuthenticator::authenticate(*connection, security, deadline);
            !authenticated) {
            return authenticated.error();
        }
    }
    return connection;
}

bool BrokerConnection::isConnected() const {
    return m_socket && m_socket->state() == QAbstractSocket::ConnectedState;
}

bool BrokerConnection::isOpen() const {
    return isConnected() && (!m_sessionEnd || Clock::now() < *m_sessionEnd);
}

void BrokerConnection::setSessionLifetime(std::chrono::milliseconds lifetime) {
    if (lifetime.count() > 0)
        m_sessionEnd = Clock::now() + lifetime * 9 / 10;
    else
        m_sessionEnd.reset();
}

void BrokerConnection::close() {
    if (m_socket) {
        m_socket->abort();
        m_socket.reset();
    }
}

KafkaError BrokerConnection::transportError(const QString& what) {
    const QString reason = m_socket ? m_socket->errorString() : QStringLiteral("not connected");
    close();
    return protocolError(RD_KAFKA_RESP_ERR__TRANSPORT,
                         QStringLiteral("%1 %2: %3").arg(what, m_address.toString(), reason));
}

Status BrokerConnection::waitFor(bool forWrite, Deadline deadline, const QString& what) {
    while (true) {
        if (m_cancelled && m_cancelled->load()) {
            // The request's answer may still come: the connection is out of step.
            close();
            return KafkaError{RD_KAFKA_RESP_ERR__INTR,
                              QStringLiteral("%1 %2 was cancelled").arg(what, m_address.toString()),
                              false, false};
        }
        const int left = remainingMs(deadline);
        if (left == 0) {
            close();
            return KafkaError::timeout(
                QStringLiteral("%1 %2 timed out: no answer within the deadline")
                    .arg(what, m_address.toString()));
        }
        const int slice = std::min<int>(left, int(cancelPollInterval.count()));
        const bool ready =
            forWrite ? m_socket->waitForBytesWritten(slice) : m_socket->waitForReadyRead(slice);
        if (ready)
            return Done{};
        if (m_socket->error() != QAbstractSocket::SocketTimeoutError &&
            m_socket->error() != QAbstractSocket::UnknownSocketError)
            return transportError(what);
        if (m_socket->state() != QAbstractSocket::ConnectedState)
            return transportError(what);
    }
}

Status BrokerConnection::connectSocket(const ConnectionSecurity& security, Deadline deadline) {
    if (security.tls) {
        Result<std::unique_ptr<QSslSocket>> socket = TlsSocketFactory::create(security);
        if (!socket)
            return socket.error();
        QSslSocket* tlsSocket = socket.value().get();
        m_socket = std::move(socket.value());
        tlsSocket->connectToHostEncrypted(m_address.host, quint16(m_address.port));
    } else {
        m_socket = std::make_unique<QTcpSocket>();
        m_socket->connectToHost(m_address.host, quint16(m_address.port));
    }
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    while (m_socket->state() != QAbstractSocket::ConnectedState) {
        if (m_cancelled && m_cancelled->load())
            return KafkaError{
                RD_KAFKA_RESP_ERR__INTR,
                QStringLiteral("connecting to %1 was cancelled").arg(m_address.toString()), false,
                false};
        const int left = remainingMs(deadline);
        if (left == 0) {
            close();
            return KafkaError::timeout(
                QStringLiteral("connecting to %1 timed out").arg(m_address.toString()));
        }
        if (!m_socket->waitForConnected(std::min<int>(left, int(cancelPollInterval.count()))) &&
            m_socket->error() != QAbstractSocket::SocketTimeoutError)
            return transportError(QStringLiteral("could not connect to"));
    }
    if (security.tls) {
        auto* tlsSocket = static_cast<QSslSocket*>(m_socket.get());
        while (!tlsSocket->isEncrypted()) {
            const int left = remainingMs(deadline);
            if (left == 0) {
                close();
                return KafkaError::timeout(QStringLiteral("TLS handshake with %1 took too long")
                                               .arg(m_address.toString()));
            }
            if (!tlsSocket->waitForEncrypted(std::min<int>(left, 100)) &&
                tlsSocket->error() != QAbstractSocket::SocketTimeoutError) {
                const QString reason = TlsSocketFactory::describeFailure(*tlsSocket);
                close();
                return KafkaError::tlsHandshakeFailed(
                    QStringLiteral("%1: %2").arg(m_address.toString(), reason));
            }
        }
        if (security.verifyHostName) {
            // Before anything (the SASL credentials above all) is sent to it.
            if (const QString mismatch =
                    TlsSocketFactory::hostNameMismatch(*tlsSocket, m_address.host);
                !mismatch.isEmpty()) {
                close();
                return KafkaError::tlsHandshakeFailed(
                    QStringLiteral("%1: %2").arg(m_address.toString(), mismatch));
            }
        }
    }
    return Done{};
}

Status BrokerConnection::writeFrame(const QByteArray& frame, const char* api, Deadline deadline) {
    if (!isConnected())
        return transportError(
            QStringLiteral("lost the connection before sending %1 to").arg(QLatin1String(api)));
    WireWriter size;
    size.writeInt32(int32_t(frame.size()));
    if (m_socket->write(size.bytes()) < 0 || m_socket->write(frame) < 0)
        return transportError(QStringLiteral("could not send %1 to").arg(QLatin1String(api)));
    const QString what = QStringLiteral("sending %1 to").arg(QLatin1String(api));
    while (m_socket->bytesToWrite() > 0) {
        if (Status written = waitFor(true, deadline, what); !written)
            return written;
    }
    return Done{};
}

Result<QByteArray> BrokerConnection::readFrame(const char* api, Deadline deadline) {
    const QString what = QStringLiteral("waiting for %1 from").arg(QLatin1String(api));
    while (m_socket->bytesAvailable() < 4) {
        if (Status read = waitFor(false, deadline, what); !read)
            return read.error();
    }
    const QByteArray sizeBytes = m_socket->read(ResponseFrame::sizePrefixBytes);
    const Result<int32_t> announced = ResponseFrame::parseSize(sizeBytes, m_address.toString());
    if (!announced) {
        close();
        return announced.error();
    }
    const int32_t size = announced.value();
    QByteArray frame;
    frame.reserve(std::min<int32_t>(size, 1 << 20)); // grows with what actually arrives
    while (frame.size() < size) {
        if (m_socket->bytesAvailable() == 0) {
            if (Status read = waitFor(false, deadline, what); !read)
                return read.error();
        }
        frame.append(m_socket->read(size - frame.size()));
    }
    return frame;
}

Result<Struct> BrokerConnection::call(const ApiSpec& api, int16_t version, const Struct& request,
                                      Deadline deadline) {
    return receive(send(api, version, request, deadline), deadline);
}

Result<Struct> BrokerConnection::call(const ApiSpec& api, const Struct& request,
                                      Deadline deadline) {
    return receive(send(api, request, deadline), deadline);
}

BrokerConnection::PendingAnswer BrokerConnection::send(const ApiSpec& api, int16_t version,
                                                       const Struct& request, Deadline deadline) {
    {
        QMutexLocker lock(&observerMutex());
        if (observer())
            observer()(api.key, m_address.toString());
    }
    PendingAnswer pending{&api, version, m_nextCorrelationId++, {}};
    const bool flexible = MessageCodec::isFlexible(api.request, version);
    QByteArray frame = requestHeader(api.key, version, pending.correlationId, flexible);
    frame.append(MessageCodec::encode(api.request, version, request));
    if (Status sent = writeFrame(frame, api.name, deadline); !sent)
        pending.sendFailure = sent.error();
    return pending;
}

BrokerConnection::PendingAnswer BrokerConnection::send(const ApiSpec& api, const Struct& request,
                                                       Deadline deadline) {
    if (const std::optional<int16_t> negotiated = version(api))
        return send(api, *negotiated, request, deadline);
    return PendingAnswer{
        &api, 0, 0,
        KafkaError::fromCode(RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE,
                             QStringLiteral("broker %1 does not support %2 (API "
                                            "key %3)")
                                 .arg(m_address.toString(), QLatin1String(api.name))
                                 .arg(int(api.key)))};
}

Result<Struct> BrokerConnection::receive(const PendingAnswer& pending, Deadline deadline,
                                         const MessageCodec::StreamedArray* streamed) {
    if (pending.sendFailure)
        return pending.sendFailure;
    const ApiSpec& api = *pending.api;
    // Closed since the request was sent: by a failure or a cancel on this connection.
    if (!m_socket)
        return transportError(QStringLiteral("lost the connection before reading %1 from")
                                  .arg(QLatin1String(api.name)));
    Result<QByteArray> answer = readFrame(api.name, deadline);
    if (!answer)
        return answer.error();
    const Result<qsizetype> bodyStart = ResponseFrame::parseHeader(
        answer.value(), api, pending.version, pending.correlationId, m_address.toString());
    if (!bodyStart) {
        close();
        return bodyStart.error();
    }
    return ResponseFrame::parseBody(answer.value(), bodyStart.value(), api, pending.version,
                                    m_address.toString(), streamed);
}

std::optional<int16_t> BrokerConnection::version(const ApiSpec& api) const {
    return version(api, api.request.validVersions.last);
}

std::optional<int16_t> BrokerConnection::version(const ApiSpec& api, int16_t newestWanted) const {
    const auto range = m_brokerVersions.constFind(int16_t(api.key));
    if (range == m_brokerVersions.cend())
        return std::nullopt;
    const int16_t newest = std::min({range->second, api.request.validVersions.last, newestWanted});
    const int16_t oldest = std::max(range->first, api.request.validVersions.first);
    if (newest < oldest)
        return std::nullopt;
    return newest;
}

Status BrokerConnection::negotiateVersions(Deadline deadline) {
    const ApiSpec& api = apiVersionsApi();
    Struct request = MessageCodec::make(api.request);
    request.set("ClientSoftwareName", QStringLiteral("groupscope"));
    request.set("ClientSoftwareVersion", QStringLiteral(GROUPSCOPE_VERSION));
    int16_t version = api.request.validVersions.last;
    Result<Struct> answer = call(api, version, request, deadline);
    // A broker older than our newest version answers UNSUPPORTED_VERSION in the v0 layout
    // (the frame then has leftover bytes for v3+ decoding, or decodes with the error set).
    if (!answer && answer.error().code == RD_KAFKA_RESP_ERR__BAD_MSG && isConnected()) {
        version = 0;
        answer = call(api, version, request, deadline);
    }
    if (!answer)
        return answer.error();
    const int64_t error = answer.value().integer("ErrorCode");
    if (error == RD_KAFKA_RESP_ERR_UNSUPPORTED_VERSION && version != 0) {
        answer = call(api, 0, request, deadline);
        if (!answer)
            return answer.error();
    } else if (error != 0) {
        return KafkaError::fromCode(
            int(error), QStringLiteral("ApiVersions from %1").arg(m_address.toString()));
    }
    for (const Struct& key : answer.value().structs("ApiKeys"))
        m_brokerVersions.insert(
            int16_t(key.integer("ApiKey")),
            {int16_t(key.integer("MinVersion")), int16_t(key.integer("MaxVersion"))});
    return Done{};
}

} // namespace groupscope::kafka::protocol
