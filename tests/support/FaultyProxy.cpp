#include "FaultyProxy.h"

#include "kafka/protocol/Apis.h"
#include "kafka/protocol/MessageCodec.h"
#include "kafka/protocol/ResponseFrame.h"
#include "kafka/protocol/WireReader.h"
#include "kafka/protocol/WireWriter.h"

#include <QHostAddress>
#include <QMutex>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <list>
#include <vector>

namespace groupscope::test {

using kafka::protocol::ApiKey;
using kafka::protocol::ApiSpec;
using kafka::protocol::FieldName;
using kafka::protocol::MessageCodec;
using kafka::protocol::ResponseFrame;
using kafka::protocol::Struct;
using kafka::protocol::StructList;
using kafka::protocol::WireReader;
using kafka::protocol::WireWriter;
using Clock = std::chrono::steady_clock;

namespace {

// The APIs whose answers the proxy decodes: the ones it rewrites addresses in, and the
// ones that answer per group.
const ApiSpec* apiOf(ApiKey key) {
    using namespace kafka::protocol;
    for (const ApiSpec* api :
         {&metadataApi(), &findCoordinatorApi(), &describeGroupsApi(), &consumerGroupDescribeApi(),
          &shareGroupDescribeApi(), &streamsGroupDescribeApi(), &offsetFetchApi(),
          &describeShareGroupOffsetsApi(), &listGroupsApi(), &listOffsetsApi()}) {
        if (api->key == key)
            return api;
    }
    return nullptr;
}

bool hasField(const Struct& message, FieldName name) {
    if (!message.fields())
        return false;
    for (const auto& field : *message.fields()) {
        if (std::strcmp(field.name, name.c_str()) == 0)
            return true;
    }
    return false;
}

// A full frame (size prefix and all) at the start of `buffer`, taken out of it; empty
// while the frame has not all arrived.
QByteArray takeFrame(QByteArray& buffer) {
    if (buffer.size() < ResponseFrame::sizePrefixBytes)
        return {};
    kafka::protocol::WireReader reader(buffer);
    const qsizetype size = qsizetype(uint32_t(reader.readInt32("size")));
    if (buffer.size() < ResponseFrame::sizePrefixBytes + size)
        return {};
    QByteArray frame = buffer.left(ResponseFrame::sizePrefixBytes + size);
    buffer.remove(0, frame.size());
    return frame;
}

} // namespace

class FaultyProxy::Worker {
public:
    explicit Worker(const QString& upstream) {
        const qsizetype colon = upstream.lastIndexOf(u':');
        m_upstreamHost = upstream.left(colon);
        m_upstreamPort = quint16(upstream.mid(colon + 1).toUInt());
        m_context.moveToThread(&m_thread);
        m_thread.start();
    }

    ~Worker() {
        QMetaObject::invokeMethod(
            &m_context,
            [this] {
                for (Link& link : m_links)
                    closeLink(link);
                m_links.clear();
                m_server.reset();
            },
            Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }

    bool start() {
        QMetaObject::invokeMethod(
            &m_context,
            [this] {
                m_server = std::make_unique<QTcpServer>();
                QObject::connect(m_server.get(), &QTcpServer::newConnection, &m_context,
                                 [this] { accept(); });
                if (m_server->listen(QHostAddress::LocalHost, 0))
                    m_port = m_server->serverPort();
            },
            Qt::BlockingQueuedConnection);
        return m_port != 0;
    }

    QString address() const { return QStringLiteral("127.0.0.1:%1").arg(m_port); }

    void setFault(const Fault& fault) {
        QMutexLocker lock(&m_mutex);
        m_fault = fault;
        m_applied = 0;
    }
    int faultsApplied() const {
        QMutexLocker lock(&m_mutex);
        return m_applied;
    }
    int connectionsAccepted() const {
        QMutexLocker lock(&m_mutex);
        return m_accepted;
    }
    void setFaultObserver(FaultObserver observer) {
        QMutexLocker lock(&m_mutex);
        m_faultObserver = std::move(observer);
    }
    void setFrameObserver(FrameObserver observer) {
        QMutexLocker lock(&m_mutex);
        m_frameObserver = std::move(observer);
    }

private:
    struct Request {
        ApiKey api;
        int16_t version;
        int32_t correlationId;
        int8_t isolationLevel = 0; // ListOffsets v2+: 1 is READ_COMMITTED
    };
    struct Outgoing {
        QByteArray bytes;
        Clock::time_point readyAt;
        int closeAfter = -1; // cut off after this many bytes and close
    };
    // One client connection and its connection to the broker. Lives on the proxy's thread.
    struct Link {
        QTcpSocket* client = nullptr;
        QTcpSocket* broker = nullptr;
        QByteArray fromClient;
        QByteArray fromBroker;
        QByteArray toBroker; // until the broker connection is up
        QByteArray held;     // requests HoldRequest keeps from the broker
        bool holding = false;
        bool brokerConnected = false;
        bool closed = false;
        std::deque<Request> requests;
        std::deque<Outgoing> outgoing;
        QTimer* timer = nullptr;
    };

    void accept() {
        while (QTcpSocket* client = m_server->nextPendingConnection()) {
            {
                QMutexLocker lock(&m_mutex);
                ++m_accepted;
            }
            m_links.emplace_back();
            Link& link = m_links.back();
            link.client = client;
            link.broker = new QTcpSocket(client);
            link.timer = new QTimer(client);
            link.timer->setSingleShot(true);
            QObject::connect(link.timer, &QTimer::timeout, &m_context,
                             [this, &link] { pump(link); });
            QObject::connect(client, &QTcpSocket::readyRead, &m_context,
                             [this, &link] { readClient(link); });
            QObject::connect(client, &QTcpSocket::disconnected, &m_context,
                             [this, &link] { closeLink(link); });
            QObject::connect(link.broker, &QTcpSocket::connected, &m_context, [&link] {
                link.brokerConnected = true;
                link.broker->write(link.toBroker);
                link.toBroker.clear();
            });
            QObject::connect(link.broker, &QTcpSocket::readyRead, &m_context,
                             [this, &link] { readBroker(link); });
            QObject::connect(link.broker, &QTcpSocket::disconnected, &m_context,
                             [this, &link] { closeLink(link); });
            QObject::connect(link.broker, &QTcpSocket::errorOccurred, &m_context,
                             [this, &link](QAbstractSocket::SocketError) { closeLink(link); });
            link.broker->connectToHost(m_upstreamHost, m_upstreamPort);
        }
    }

    void closeLink(Link& link) {
        if (link.closed)
            return;
        link.closed = true;
        std::erase(m_holding, &link);
        // Nothing of the link is called back any more: the sockets may go at any time.
        for (QObject* object :
             {static_cast<QObject*>(link.client), static_cast<QObject*>(link.broker),
              static_cast<QObject*>(link.timer)})
            QObject::disconnect(object, nullptr, &m_context, nullptr);
        link.timer->stop();
        link.outgoing.clear();
        link.broker->abort();
        link.client->disconnectFromHost(); // after what was written to it went out
        link.client->deleteLater();        // the broker socket and timer with it
    }

    void readClient(Link& link) {
        if (link.closed)
            return;
        link.fromClient.append(link.client->readAll());
        for (QByteArray frame = takeFrame(link.fromClient); !frame.isEmpty();
             frame = takeFrame(link.fromClient)) {
            // Request header: api key, version, correlation id, then the client id.
            WireReader header(QByteArrayView(frame).sliced(4));
            Request request{ApiKey(header.readInt16("api key")), header.readInt16("version"),
                            header.readInt32("correlation id")};
            if (request.api == ApiKey::ListOffsets && request.version >= 2)
                request.isolationLevel = isolationLevelOf(header, request.version);
            link.requests.push_back(request);
            observeFrame(true, request, frame);
            if (!link.holding)
                holdIfFaulted(link, request);
            if (link.holding)
                link.held.append(frame);
            else
                sendToBroker(link, frame);
        }
    }

    void sendToBroker(Link& link, const QByteArray& frame) {
        if (link.brokerConnected)
            link.broker->write(frame);
        else
            link.toBroker.append(frame);
    }

    void holdIfFaulted(Link& link, const Request& request) {
        Fault fault;
        {
            QMutexLocker lock(&m_mutex);
            fault = m_fault;
            if (fault.mode != Mode::HoldRequest || !hits(fault, request.api))
                return;
        }
        link.holding = true;
        m_holding.push_back(&link);
        QTimer::singleShot(fault.delay, link.client, [this, &link] { release(link); });
        countHit(request.api);
    }

    void release(Link& link) {
        std::erase(m_holding, &link);
        if (link.closed || !link.holding)
            return;
        link.holding = false;
        sendToBroker(link, link.held);
        link.held.clear();
    }

public:
    void releaseHeldRequests() {
        QMetaObject::invokeMethod(
            &m_context,
            [this] {
                for (Link* link : std::vector<Link*>(m_holding))
                    release(*link);
            },
            Qt::BlockingQueuedConnection);
    }

private:
    void readBroker(Link& link) {
        if (link.closed)
            return;
        link.fromBroker.append(link.broker->readAll());
        for (QByteArray frame = takeFrame(link.fromBroker); !frame.isEmpty();
             frame = takeFrame(link.fromBroker)) {
            if (link.requests.empty()) { // not an answer to anything seen: as it is
                link.outgoing.push_back({frame, Clock::now()});
                continue;
            }
            const Request request = link.requests.front();
            link.requests.pop_front();
            observeFrame(false, request, frame);
            Outgoing answer{rewritten(request, frame), Clock::now()};
            applyFault(request, answer);
            link.outgoing.push_back(std::move(answer));
        }
        pump(link);
    }

    // A ListOffsets request's isolation level, read after its header's correlation id:
    // the client id, the header's tagged fields (flexible versions), ReplicaId, then it.
    static int8_t isolationLevelOf(WireReader& request, int16_t version) {
        request.readNullableString("client id", false);
        if (MessageCodec::isFlexible(kafka::protocol::listOffsetsApi().request, version))
            request.skipTaggedFields("header tagged fields");
        request.readInt32("ReplicaId");
        const int8_t level = request.readInt8("IsolationLevel");
        return request.failed() ? 0 : level;
    }

    void observeFrame(bool isRequest, const Request& request, const QByteArray& frame) {
        FrameObserver observer;
        {
            QMutexLocker lock(&m_mutex);
            observer = m_frameObserver;
        }
        if (observer)
            observer(isRequest, request.api, request.version, frame);
    }

    // The answer with the broker addresses pointed at the proxy, and a group's error set
    // when that is the fault; the frame as it came when it is neither or does not decode.
    QByteArray rewritten(const Request& request, const QByteArray& frame) {
        const ApiSpec* api = apiOf(request.api);
        if (!api)
            return frame;
        Fault fault;
        bool groupError = false;
        bool partitionError = false;
        {
            QMutexLocker lock(&m_mutex);
            fault = m_fault;
            groupError = fault.mode == Mode::GroupError && hits(fault, request.api);
            partitionError = fault.mode == Mode::PartitionError && hits(fault, request.api) &&
                             (!fault.onlyReadCommitted || request.isolationLevel == 1);
        }
        const bool addresses =
            request.api == ApiKey::Metadata || request.api == ApiKey::FindCoordinator;
        if (!addresses && !groupError && !partitionError)
            return frame;
        const QByteArrayView body = QByteArrayView(frame).sliced(ResponseFrame::sizePrefixBytes);
        const kafka::Result<qsizetype> bodyStart = ResponseFrame::parseHeader(
            body, *api, request.version, request.correlationId, QStringLiteral("broker"));
        if (!bodyStart)
            return frame;
        kafka::Result<Struct> decoded = ResponseFrame::parseBody(
            body, bodyStart.value(), *api, request.version, QStringLiteral("broker"));
        if (!decoded)
            return frame;
        Struct message = decoded.value();
        if (addresses)
            pointAtProxy(message);
        if (groupError && setGroupError(message, fault))
            countHit(request.api);
        if (partitionError && setPartitionError(message, fault))
            countHit(request.api);
        WireWriter writer;
        const QByteArray encoded = MessageCodec::encode(api->response, request.version, message);
        writer.writeInt32(int32_t(bodyStart.value() + encoded.size()));
        writer.writeRaw(body.first(bodyStart.value()));
        writer.writeRaw(encoded);
        return writer.take();
    }

    void pointAtProxy(Struct& message) {
        const QString host = QStringLiteral("127.0.0.1");
        for (const FieldName list : {FieldName("Brokers"), FieldName("Coordinators")}) {
            if (!hasField(message, list))
                continue;
            StructList elements = message.structs(list);
            for (Struct& element : elements) {
                if (element.integer("NodeId") >= 0)
                    element.set("Host", host).set("Port", int64_t(m_port));
            }
            message.set(list, elements);
        }
        if (hasField(message, "Host") && message.integer("NodeId") >= 0)
            message.set("Host", host).set("Port", int64_t(m_port));
    }

    static bool setGroupError(Struct& message, const Fault& fault) {
        bool set = false;
        for (const FieldName list : {FieldName("Groups"), FieldName("Coordinators")}) {
            if (!hasField(message, list))
                continue;
            StructList elements = message.structs(list);
            for (Struct& element : elements) {
                const FieldName key =
                    hasField(element, "GroupId") ? FieldName("GroupId") : FieldName("Key");
                if (!hasField(element, key) || element.string(key) != fault.groupId)
                    continue;
                element.set("ErrorCode", int64_t(fault.errorCode));
                if (hasField(element, "ErrorMessage"))
                    element.set("ErrorMessage", fault.errorMessage);
                set = true;
            }
            message.set(list, elements);
        }
        return set;
    }

    static bool setPartitionError(Struct& message, const Fault& fault) {
        if (!hasField(message, "Topics"))
            return false;
        bool set = false;
        StructList topics = message.structs("Topics");
        for (Struct& topic : topics) {
            StructList partitions = topic.structs("Partitions");
            for (Struct& partition : partitions) {
                partition.set("ErrorCode", int64_t(fault.errorCode));
                set = true;
            }
            topic.set("Partitions", partitions);
        }
        message.set("Topics", topics);
        return set;
    }

    // Whether `fault` hits an answer to `api` now; m_mutex is held.
    bool hits(const Fault& fault, ApiKey api) const {
        if (fault.api && *fault.api != api)
            return false;
        return fault.times < 0 || m_applied < fault.times;
    }

    void countHit(ApiKey api) {
        FaultObserver observer;
        {
            QMutexLocker lock(&m_mutex);
            ++m_applied;
            observer = m_faultObserver;
        }
        if (observer)
            observer(api);
    }

    void applyFault(const Request& request, Outgoing& answer) {
        Fault fault;
        {
            QMutexLocker lock(&m_mutex);
            fault = m_fault;
            if (fault.mode == Mode::PassThrough || fault.mode == Mode::GroupError ||
                fault.mode == Mode::PartitionError || fault.mode == Mode::HoldRequest ||
                !hits(fault, request.api))
                return;
        }
        if (fault.mode == Mode::CloseMidResponse)
            answer.closeAfter = std::clamp(fault.closeAfterBytes, 0, int(answer.bytes.size()));
        else
            answer.readyAt = Clock::now() + fault.delay;
        countHit(request.api);
    }

    // Sends the answers that are due, in order; waits for the first one held back.
    void pump(Link& link) {
        while (!link.closed && !link.outgoing.empty()) {
            Outgoing& next = link.outgoing.front();
            const auto wait =
                std::chrono::ceil<std::chrono::milliseconds>(next.readyAt - Clock::now());
            if (wait.count() > 0) {
                link.timer->start(int(wait.count()));
                return;
            }
            if (next.closeAfter >= 0) {
                link.client->write(next.bytes.left(next.closeAfter));
                closeLink(link);
                return;
            }
            link.client->write(next.bytes);
            link.outgoing.pop_front();
        }
    }

    QString m_upstreamHost;
    quint16 m_upstreamPort = 0;
    QThread m_thread;
    QObject m_context; // lives on m_thread; everything below the mutex is its
    std::unique_ptr<QTcpServer> m_server;
    std::list<Link> m_links;      // stable addresses for the lambdas that hold them
    std::vector<Link*> m_holding; // links whose requests HoldRequest keeps back
    std::atomic<quint16> m_port{0};

    mutable QMutex m_mutex;
    Fault m_fault;
    int m_applied = 0;
    int m_accepted = 0;
    FaultObserver m_faultObserver;
    FrameObserver m_frameObserver;
};

FaultyProxy::FaultyProxy(const QString& upstream)
    : m_worker(std::make_unique<Worker>(upstream)) {}

FaultyProxy::~FaultyProxy() = default;

bool FaultyProxy::start() {
    return m_worker->start();
}

QString FaultyProxy::address() const {
    return m_worker->address();
}

void FaultyProxy::setFault(const Fault& fault) {
    m_worker->setFault(fault);
}

void FaultyProxy::releaseHeldRequests() {
    m_worker->releaseHeldRequests();
}

int FaultyProxy::faultsApplied() const {
    return m_worker->faultsApplied();
}

int FaultyProxy::connectionsAccepted() const {
    return m_worker->connectionsAccepted();
}

void FaultyProxy::setFaultObserver(FaultObserver observer) {
    m_worker->setFaultObserver(std::move(observer));
}

void FaultyProxy::setFrameObserver(FrameObserver observer) {
    m_worker->setFrameObserver(std::move(observer));
}

} // namespace groupscope::test
