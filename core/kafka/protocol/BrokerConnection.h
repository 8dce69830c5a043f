#pragma once

#include "kafka/Result.h"
#include "kafka/protocol/ConnectionSecurity.h"
#include "kafka/protocol/MessageStruct.h"
#include "kafka/protocol/ResponseFrame.h"

#include <QHash>
#include <QString>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>

class QTcpSocket;

namespace groupscope::kafka::protocol {

struct BrokerAddress {
    QString host;
    int port = 0;
    int32_t nodeId = -1; // -1 for a bootstrap address
    QString toString() const { return QStringLiteral("%1:%2").arg(host).arg(port); }
};

// One TCP (or TLS) connection to one broker, speaking Kafka's protocol: the size-prefixed
// frames, request and response headers, correlation ids, ApiVersions negotiation on open
// and SASL authentication when the profile asks for it. Calls block until their deadline
// and so belong on a worker thread; one connection is used by one thread at a time.
class BrokerConnection {
public:
    using Clock = std::chrono::steady_clock;
    using Deadline = Clock::time_point;

    // Kafka's socket.request.max.bytes default: no answer Groupscope asks for is larger,
    // and a frame that says it is larger is refused before anything is allocated for it.
    static constexpr int32_t maximumFrameSize = ResponseFrame::maximumSize;

    static Result<std::unique_ptr<BrokerConnection>>
    open(const BrokerAddress& address, const ConnectionSecurity& security, Deadline deadline,
         const std::atomic<bool>* cancelled = nullptr);
    ~BrokerConnection();
    BrokerConnection(const BrokerConnection&) = delete;
    BrokerConnection& operator=(const BrokerConnection&) = delete;

    // The newest version of `api` both Groupscope and the broker speak; nullopt when they
    // share none (the broker is too old for the feature).
    std::optional<int16_t> version(const ApiSpec& api) const;
    // The same, no newer than `newest` (a version whose layout the caller does not use).
    std::optional<int16_t> version(const ApiSpec& api, int16_t newest) const;

    // Sends `request` in `version` and waits for the answer. A transport failure closes
    // the connection (later calls fail at once); a broker's error codes are in the answer.
    Result<Struct> call(const ApiSpec& api, int16_t version, const Struct& request,
                        Deadline deadline);
    // The same in the newest negotiated version; an error when the broker lacks the API.
    Result<Struct> call(const ApiSpec& api, const Struct& request, Deadline deadline);

    // A request sent whose answer is still to be read, or why it could not be sent.
    struct PendingAnswer {
        const ApiSpec* api = nullptr;
        int16_t version = 0;
        int32_t correlationId = 0;
        KafkaError sendFailure;
    };
    // call() in its two halves, so that one thread can have requests out to several
    // brokers at once and each broker works while the others' answers are read. A broker
    // answers a connection's requests in the order they came, so they are received in the
    // order they were sent, and nothing else is called on the connection in between.
    // receive() of a request that could not be sent returns why.
    PendingAnswer send(const ApiSpec& api, int16_t version, const Struct& request,
                       Deadline deadline);
    PendingAnswer send(const ApiSpec& api, const Struct& request, Deadline deadline);
    // With `streamed`, the elements of that top-level array of the answer go to its sink
    // as they are decoded, for answers too big to hold decoded whole
    // (MessageCodec::decodeStreaming).
    Result<Struct> receive(const PendingAnswer& pending, Deadline deadline,
                           const MessageCodec::StreamedArray* streamed = nullptr);

    const BrokerAddress& address() const { return m_address; }
    // The node id of a bootstrap connection, once the metadata tells which broker it is.
    void setNodeId(int32_t nodeId) { m_address.nodeId = nodeId; }
    // Connected, and within the SASL session's lifetime (see setSessionLifetime).
    bool isOpen() const;
    // The flag that cancels the waits of this connection's calls (nullptr: none); a
    // cancelled call closes the connection, whose answer would still come.
    void setCancelFlag(const std::atomic<bool>* cancelled) { m_cancelled = cancelled; }
    // The lifetime the broker gave the SASL session (KIP-368: connections.max.reauth.ms,
    // for OAUTHBEARER at most the token's); 0 for none. The broker closes the connection
    // at the first request after it, so isOpen() says false from 90 % of it on, and the
    // caller opens (and authenticates) a new connection instead of failing a request.
    void setSessionLifetime(std::chrono::milliseconds lifetime);

    // Observes every request sent by every connection (API key, broker address), on the
    // sending thread: tests and benchmarks count requests with it. Set before the work to
    // observe; an empty function removes it.
    using RequestObserver = std::function<void(ApiKey api, const QString& broker)>;
    static void setRequestObserver(RequestObserver observer);

private:
    BrokerConnection(BrokerAddress address, const std::atomic<bool>* cancelled);

    Status connectSocket(const ConnectionSecurity& security, Deadline deadline);
    Status negotiateVersions(Deadline deadline);
    // `api` names the request in errors.
    Status writeFrame(const QByteArray& frame, const char* api, Deadline deadline);
    Result<QByteArray> readFrame(const char* api, Deadline deadline);
    // Waits for the socket (ready read or bytes written), in slices so that the cancel
    // flag is seen within about 100 ms.
    Status waitFor(bool forWrite, Deadline deadline, const QString& what);
    KafkaError transportError(const QString& what);
    bool isConnected() const;
    void close();

    BrokerAddress m_address;
    const std::atomic<bool>* m_cancelled = nullptr;
    std::unique_ptr<QTcpSocket> m_socket;
    int32_t m_nextCorrelationId = 1;
    std::optional<Deadline> m_sessionEnd;
    // The broker's version range per API key.
    QHash<int16_t, std::pair<int16_t, int16_t>> m_brokerVersions;
};

} // namespace groupscope::kafka::protocol
