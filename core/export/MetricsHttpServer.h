#pragma once

#include "export/HttpRequestParser.h"
#include "export/WebConfig.h"
#include "kafka/Result.h"

#include <QByteArray>
#include <QHostAddress>
#include <QMap>
#include <QObject>
#include <QTcpServer>

#include <chrono>
#include <functional>
#include <memory>

namespace groupscope::exporter {

// The exporter's HTTP server: GET (and HEAD) /metrics answers the text the provider returns,
// / a page linking to it, anything else 404 or 405. Every answer closes its connection
// (`Connection: close`): a scrape is one request, and nothing lingers between scrapes.
//
// Nothing here waits on a client: sockets are read and written from the event loop of the
// thread the server lives on, each connection has a deadline for its request and one for
// its answer (then it is aborted), the bytes read per connection are bounded by the head
// limit, and connections beyond the limit are refused at once. A slow or garbage client
// costs a socket and a timer, never a stalled pipeline or another scrape.
class MetricsHttpServer : public QObject {
    Q_OBJECT
public:
    struct Options {
        HttpRequestLimits limits;
        int maxConnections = 32;
        std::chrono::milliseconds requestTimeout{10'000};  // to send the whole head
        std::chrono::milliseconds responseTimeout{60'000}; // to take the whole answer
    };
    // The body of a /metrics answer, sent in order: `parts` as they are (implicitly shared:
    // the text rendered once per refresh is never copied per scrape), then the pieces `more`
    // makes, one each time the client has taken most of what was sent, until it makes an
    // empty one. A plain scrape's text is inflated that way, a megabyte at a time.
    struct MetricsBody {
        QByteArrayList parts;
        bool gzip = false; // the body is one gzip member (sent with Content-Encoding: gzip)
        std::function<QByteArray()> more = {};
        qsizetype moreBytes = 0; // what `more` makes in all, for Content-Length
    };
    // Called on the server's thread for each GET or HEAD /metrics, with whether the request's
    // Accept-Encoding admits gzip.
    using MetricsProvider = std::function<MetricsBody(bool acceptsGzip)>;

    explicit MetricsHttpServer(MetricsProvider metrics, QObject* parent = nullptr);
    MetricsHttpServer(MetricsProvider metrics, Options options, QObject* parent = nullptr);
    ~MetricsHttpServer() override;

    // Reads the certificate, key and client CA the config names; an error says which file
    // and why, and leaves the server as it was.
    kafka::Status setWebConfig(const WebConfig& config);
    bool listen(const QHostAddress& address, quint16 port);
    QString errorString() const { return m_server->errorString(); }
    quint16 serverPort() const { return m_server->serverPort(); }
    QHostAddress serverAddress() const { return m_server->serverAddress(); }

    // Answers sent so far by status code (200, 400, 404, ...), and connections refused
    // because maxConnections were open; for the exporter's own metrics.
    const QMap<int, qint64>& responsesByStatus() const { return m_responses; }
    qint64 refusedConnections() const { return m_refused; }
    qint64 timedOutConnections() const { return m_timedOut; }
    int openConnections() const { return m_open; }

    // The answer to a request head, as the server sends it (status line, headers, body;
    // `streamedBytes` more follow the body, sent as they are made): pure, for the tests and
    // the fuzz target's neighbours.
    static QByteArrayList response(int status, const QByteArray& contentType,
                                   const QByteArrayList& body, bool headOnly,
                                   const QList<QByteArray>& extraHeaders = {},
                                   qsizetype streamedBytes = 0);
    static const char* reasonPhrase(int status);

private:
    class Connection;
    void acceptConnections();
    struct Answer {
        QByteArrayList parts;
        std::function<QByteArray()> more; // MetricsBody::more, when the body is sent
    };
    Answer answer(const HttpParseResult& parsed);
    bool authorized(const HttpRequest& request);

    MetricsProvider m_metrics;
    Options m_options;
    std::unique_ptr<QTcpServer> m_server;
    QMap<QString, QByteArray> m_users;    // basic auth: name -> bcrypt hash; empty: none asked
    QMap<QString, QByteArray> m_verified; // name -> digest of the last password that matched
    QMap<int, qint64> m_responses;
    qint64 m_refused = 0;
    qint64 m_timedOut = 0;
    int m_open = 0;
};

} // namespace groupscope::exporter
