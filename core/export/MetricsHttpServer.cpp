#include "export/MetricsHttpServer.h"

#include "export/PrometheusText.h"

#include <QCryptographicHash>
#include <QFile>
#include <QSslCertificate>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
#include <QTcpSocket>
#include <QTimer>

#include <sys/socket.h>

namespace groupscope::exporter {

namespace {

const QByteArray indexPage = QByteArrayLiteral(
    "<!DOCTYPE html>\n<html><head><title>Groupscope exporter</title></head><body>\n"
    "<h1>Groupscope exporter</h1>\n<p><a href=\"/metrics\">Metrics</a></p>\n</body></html>\n");

} // namespace

// One client: its bytes until the head is complete, then its answer until written, then a
// short linger. The write side is shut down once the answer is out, and what the client still
// sends is read and dropped until it closes: closing a socket with unread bytes would reset
// the connection and could destroy the answer before the client read it.
class MetricsHttpServer::Connection : public QObject {
public:
    static constexpr std::chrono::milliseconds linger{2000};
    static constexpr qsizetype streamAhead = 1 << 20;

    Connection(MetricsHttpServer* server, QTcpSocket* socket)
        : QObject(server)
        , m_server(server)
        , m_socket(socket) {
        m_socket->setParent(this);
        // Qt stops reading from the kernel once this much is buffered: a flood stays there.
        m_socket->setReadBufferSize(server->m_options.limits.maxHeadBytes + 1);
        m_deadline.setSingleShot(true);
        connect(&m_deadline, &QTimer::timeout, this, [this] {
            if (!m_writeClosed)
                ++m_server->m_timedOut;
            m_socket->abort();
            finish();
        });
        connect(m_socket, &QTcpSocket::readyRead, this, &Connection::read);
        connect(m_socket, &QTcpSocket::bytesWritten, this, [this] {
            writeMore();
            if (m_answered && !m_more && m_socket->bytesToWrite() == 0)
                closeWriteSide();
        });
        connect(m_socket, &QTcpSocket::disconnected, this, &Connection::finish);
        connect(m_socket, &QAbstractSocket::errorOccurred, this, [this] {
            if (m_socket->state() == QAbstractSocket::UnconnectedState)
                finish();
        });
        m_deadline.start(server->m_options.requestTimeout);
        ++m_server->m_open;
        read(); // bytes may have arrived with the connection
    }

private:
    void read() {
        if (m_answered) {
            m_socket->readAll(); // after the answer: dropped
            return;
        }
        const qsizetype room = m_server->m_options.limits.maxHeadBytes + 1 - m_buffer.size();
        if (room > 0)
            m_buffer.append(m_socket->read(room));
        const HttpParseResult parsed = parseHttpRequest(m_buffer, m_server->m_options.limits);
        if (parsed.status == HttpParseResult::Status::Incomplete)
            return;
        m_answered = true;
        m_buffer.clear();
        m_deadline.start(m_server->m_options.responseTimeout);
        // Each part as it is: QIODevice keeps a large QByteArray shared instead of copying it.
        Answer answer = m_server->answer(parsed);
        for (const QByteArray& part : std::as_const(answer.parts))
            m_socket->write(part);
        m_more = std::move(answer.more);
        writeMore();
        m_socket->readAll();
    }

    // Keeps about `streamAhead` bytes queued while the body has more to make: enough that
    // the kernel never waits for the next piece, little enough that a slow client does not
    // make the exporter hold the whole text.
    void writeMore() {
        while (m_more && m_socket->bytesToWrite() < streamAhead) {
            const QByteArray piece = m_more();
            if (piece.isEmpty())
                m_more = nullptr;
            else
                m_socket->write(piece);
        }
    }

    void closeWriteSide() {
        if (m_writeClosed)
            return;
        m_writeClosed = true;
        if (qobject_cast<QSslSocket*>(m_socket)) {
            // TLS ends with its own close_notify, which disconnectFromHost sends.
            m_socket->disconnectFromHost();
            m_deadline.start(linger);
            return;
        }
        // Everything is with the kernel: FIN follows the answer; the client closes on it.
        ::shutdown(int(m_socket->socketDescriptor()), SHUT_WR);
        m_deadline.start(linger);
    }

    void finish() {
        if (m_finished)
            return;
        m_finished = true;
        m_deadline.stop();
        --m_server->m_open;
        deleteLater();
    }

    MetricsHttpServer* m_server;
    QTcpSocket* m_socket;
    QTimer m_deadline;
    QByteArray m_buffer;
    std::function<QByteArray()> m_more; // the rest of the body, made as it is sent
    bool m_answered = false;
    bool m_writeClosed = false;
    bool m_finished = false;
};

MetricsHttpServer::MetricsHttpServer(MetricsProvider metrics, QObject* parent)
    : MetricsHttpServer(std::move(metrics), Options(), parent) {}

MetricsHttpServer::MetricsHttpServer(MetricsProvider metrics, Options options, QObject* parent)
    : QObject(parent)
    , m_metrics(std::move(metrics))
    , m_options(options)
    , m_server(std::make_unique<QTcpServer>()) {
    connect(m_server.get(), &QTcpServer::pendingConnectionAvailable, this,
            &MetricsHttpServer::acceptConnections);
}

MetricsHttpServer::~MetricsHttpServer() = default;

namespace {

kafka::Result<QSslKey> readKey(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return kafka::KafkaError::invalidArgument(
            QStringLiteral("cannot read key_file %1: %2").arg(path, file.errorString()));
    const QByteArray pem = file.readAll();
    for (const QSsl::KeyAlgorithm algorithm : {QSsl::Rsa, QSsl::Ec, QSsl::Dsa}) {
        QSslKey key(pem, algorithm, QSsl::Pem, QSsl::PrivateKey);
        if (!key.isNull())
            return key;
    }
    return kafka::KafkaError::invalidArgument(
        QStringLiteral("key_file %1 holds no unencrypted PEM private key").arg(path));
}

kafka::Result<QList<QSslCertificate>> readCertificates(const QString& path, const char* what) {
    const QList<QSslCertificate> certificates = QSslCertificate::fromPath(path, QSsl::Pem);
    if (certificates.isEmpty())
        return kafka::KafkaError::invalidArgument(
            QStringLiteral("%1 %2 holds no PEM certificate (or cannot be read)")
                .arg(QLatin1String(what), path));
    return certificates;
}

} // namespace

kafka::Status MetricsHttpServer::setWebConfig(const WebConfig& config) {
    std::unique_ptr<QTcpServer> server;
    if (config.usesTls()) {
        auto chain = readCertificates(config.certFile, "cert_file");
        if (!chain)
            return chain.error();
        auto key = readKey(config.keyFile);
        if (!key)
            return key.error();
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setLocalCertificateChain(chain.value());
        tls.setPrivateKey(key.value());
        tls.setProtocol(QSsl::TlsV1_2OrLater);
        if (config.requireClientCertificate) {
            auto authorities = readCertificates(config.clientCaFile, "client_ca_file");
            if (!authorities)
                return authorities.error();
            tls.setCaCertificates(authorities.value());
            tls.setPeerVerifyMode(QSslSocket::VerifyPeer);
        } else {
            tls.setPeerVerifyMode(QSslSocket::VerifyNone);
        }
        auto ssl = std::make_unique<QSslServer>();
        ssl->setSslConfiguration(tls);
        ssl->setHandshakeTimeout(int(m_options.requestTimeout.count()));
        server = std::move(ssl);
    } else {
        server = std::make_unique<QTcpServer>();
    }
    connect(server.get(), &QTcpServer::pendingConnectionAvailable, this,
            &MetricsHttpServer::acceptConnections);
    m_server = std::move(server);
    m_users = config.basicAuthUsers;
    m_verified.clear();
    return kafka::Done{};
}

bool MetricsHttpServer::listen(const QHostAddress& address, quint16 port) {
    return m_server->listen(address, port);
}

bool MetricsHttpServer::authorized(const HttpRequest& request) {
    if (m_users.isEmpty())
        return true;
    const QByteArray header = request.header("authorization");
    if (!header.startsWith("Basic ") && !header.startsWith("basic "))
        return false;
    const auto decoded = QByteArray::fromBase64Encoding(header.mid(6).trimmed(),
                                                        QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return false;
    const QByteArray credentials = decoded.decoded;
    const qsizetype colon = credentials.indexOf(':');
    if (colon < 0)
        return false;
    const QString user = QString::fromUtf8(credentials.left(colon));
    const QByteArray password = credentials.mid(colon + 1);
    const auto hash = m_users.constFind(user);
    if (hash == m_users.cend())
        return false;
    // bcrypt costs tens of milliseconds by design: a password that matched once is known by
    // its digest, so that scrapes every few seconds do not pay it each time.
    const QByteArray digest =
        QCryptographicHash::hash(*hash + '\0' + password, QCryptographicHash::Sha256);
    if (m_verified.value(user) == digest)
        return true;
    if (!bcryptMatches(password, *hash))
        return false;
    m_verified.insert(user, digest);
    return true;
}

void MetricsHttpServer::acceptConnections() {
    while (QTcpSocket* socket = m_server->nextPendingConnection()) {
        if (m_open >= m_options.maxConnections) {
            ++m_refused;
            socket->abort();
            socket->deleteLater();
            continue;
        }
        new Connection(this, socket);
    }
}

const char* MetricsHttpServer::reasonPhrase(int status) {
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 414:
        return "URI Too Long";
    case 431:
        return "Request Header Fields Too Large";
    case 501:
        return "Not Implemented";
    case 505:
        return "HTTP Version Not Supported";
    default:
        return "Error";
    }
}

QByteArrayList MetricsHttpServer::response(int status, const QByteArray& contentType,
                                           const QByteArrayList& body, bool headOnly,
                                           const QList<QByteArray>& extraHeaders,
                                           qsizetype streamedBytes) {
    qsizetype length = streamedBytes;
    for (const QByteArray& part : body)
        length += part.size();
    QByteArray head;
    head.append("HTTP/1.1 ").append(QByteArray::number(status)).append(' ');
    head.append(reasonPhrase(status)).append("\r\n");
    head.append("Content-Type: ").append(contentType).append("\r\n");
    head.append("Content-Length: ").append(QByteArray::number(length)).append("\r\n");
    for (const QByteArray& header : extraHeaders)
        head.append(header).append("\r\n");
    head.append("Connection: close\r\n\r\n");
    if (headOnly)
        return {head};
    return QByteArrayList{head} + body;
}

MetricsHttpServer::Answer MetricsHttpServer::answer(const HttpParseResult& parsed) {
    const QByteArray plain = QByteArrayLiteral("text/plain; charset=utf-8");
    int status = 200;
    Answer reply;
    if (parsed.status == HttpParseResult::Status::Invalid) {
        status = parsed.errorStatus;
        reply.parts = response(status, plain, {parsed.error + '\n'}, false);
    } else {
        const bool headOnly = isHeadRequest(parsed.request);
        if (!authorized(parsed.request)) {
            status = 401;
            reply.parts =
                response(status, plain, {QByteArrayLiteral("authentication required\n")}, headOnly,
                         {QByteArrayLiteral("WWW-Authenticate: Basic realm=\"groupscope\"")});
            ++m_responses[status];
            return reply;
        }
        switch (routeHttpRequest(parsed.request)) {
        case HttpRoute::Metrics: {
            const MetricsBody body =
                m_metrics(acceptsGzip(parsed.request.header("accept-encoding")));
            QList<QByteArray> headers{QByteArrayLiteral("Vary: Accept-Encoding")};
            if (body.gzip)
                headers.append(QByteArrayLiteral("Content-Encoding: gzip"));
            reply.parts = response(200, PrometheusTextWriter::contentType, body.parts, headOnly,
                                   headers, body.moreBytes);
            if (!headOnly)
                reply.more = body.more;
            break;
        }
        case HttpRoute::Index:
            reply.parts =
                response(200, QByteArrayLiteral("text/html; charset=utf-8"), {indexPage}, headOnly);
            break;
        case HttpRoute::NotFound:
            status = 404;
            reply.parts =
                response(status, plain, {QByteArrayLiteral("not found: try /metrics\n")}, headOnly);
            break;
        case HttpRoute::MethodNotAllowed:
            status = 405;
            reply.parts =
                response(status, plain, {QByteArrayLiteral("only GET and HEAD are served\n")},
                         headOnly, {QByteArrayLiteral("Allow: GET, HEAD")});
            break;
        }
    }
    ++m_responses[status];
    return reply;
}

} // namespace groupscope::exporter
