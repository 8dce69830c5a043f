// The exporter's HTTP side: the request head parser (a pure function, also fuzzed), routing,
// and the server on a loopback port driven by raw sockets: a scrape, 404/405, garbage, a
// client that sends nothing or far too much, and one that never reads, none of which holds
// up another scrape.

#include "cli/ExporterCommand.h"
#include "export/HttpRequestParser.h"
#include "export/MetricsHttpServer.h"

#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>

using namespace groupscope;
using exporter::HttpParseResult;
using exporter::HttpRoute;
using exporter::parseHttpRequest;
using Status = HttpParseResult::Status;

namespace {

// Sends `request` and reads until the server closes, while this thread's event loop (which
// the server runs on) turns; empty when it never answers in time.
QByteArray exchange(quint16 port, const QByteArray& request, int timeoutMs = 5000) {
    QTcpSocket socket;
    QByteArray answer;
    QObject::connect(&socket, &QTcpSocket::readyRead, [&] { answer += socket.readAll(); });
    QObject::connect(&socket, &QTcpSocket::connected, [&] { socket.write(request); });
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!QTest::qWaitFor([&] { return socket.state() == QAbstractSocket::UnconnectedState; },
                         timeoutMs))
        return {};
    answer += socket.readAll();
    return answer;
}

int statusOf(const QByteArray& answer) {
    return answer.startsWith("HTTP/1.1 ") ? answer.mid(9, 3).toInt() : -1;
}

} // namespace

class TestHttpRequestParser : public QObject {
    Q_OBJECT

private slots:
    void acceptEncodingAdmitsGzip_data() {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<bool>("gzip");
        QTest::newRow("Prometheus") << QByteArray("gzip") << true;
        QTest::newRow("curl --compressed") << QByteArray("deflate, gzip, br, zstd") << true;
        QTest::newRow("case and weight") << QByteArray("GZIP;q=0.5") << true;
        QTest::newRow("any coding") << QByteArray("*") << true;
        QTest::newRow("refused") << QByteArray("gzip;q=0, identity") << false;
        QTest::newRow("refused with zeros") << QByteArray("gzip; q=0.000") << false;
        QTest::newRow("bad weight") << QByteArray("gzip;q=x") << false;
        QTest::newRow("other codings") << QByteArray("br, zstd") << false;
        QTest::newRow("absent") << QByteArray() << false;
        QTest::newRow("a name that contains it") << QByteArray("gzipx") << false;
    }

    void acceptEncodingAdmitsGzip() {
        QFETCH(QByteArray, value);
        QFETCH(bool, gzip);
        QCOMPARE(exporter::acceptsGzip(value), gzip);
    }

    void aScrapeRequestParses() {
        const QByteArray bytes = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:9308\r\n"
                                 "User-Agent: Prometheus/2.42.0\r\nAccept: text/plain\r\n"
                                 "X-Prometheus-Scrape-Timeout-Seconds:   10  \r\n\r\nextra";
        const HttpParseResult parsed = parseHttpRequest(bytes);
        QCOMPARE(parsed.status, Status::Complete);
        QCOMPARE(parsed.request.method, QByteArray("GET"));
        QCOMPARE(parsed.request.path, QByteArray("/metrics"));
        QCOMPARE(parsed.request.minorVersion, 1);
        QCOMPARE(parsed.request.header("user-agent"), QByteArray("Prometheus/2.42.0"));
        QCOMPARE(parsed.request.header("x-prometheus-scrape-timeout-seconds"), QByteArray("10"));
        QCOMPARE(parsed.request.headBytes, bytes.size() - 5);
        QCOMPARE(exporter::routeHttpRequest(parsed.request), HttpRoute::Metrics);
    }

    void everyPrefixOfAValidHeadIsIncomplete() {
        const QByteArray bytes = "GET /metrics?x=1 HTTP/1.0\nAccept: */*\n\n";
        for (qsizetype size = 0; size < bytes.size(); ++size)
            QCOMPARE(parseHttpRequest(QByteArrayView(bytes).first(size)).status,
                     Status::Incomplete);
        const HttpParseResult parsed = parseHttpRequest(bytes);
        QCOMPARE(parsed.status, Status::Complete);
        // Bare LF line ends, HTTP/1.0 without Host, a query: all fine.
        QCOMPARE(parsed.request.path, QByteArray("/metrics"));
        QCOMPARE(parsed.request.target, QByteArray("/metrics?x=1"));
        QCOMPARE(parsed.request.minorVersion, 0);
    }

    void routes() {
        auto route = [](const QByteArray& requestLine) {
            const auto parsed = parseHttpRequest(requestLine + "\r\nHost: h\r\n\r\n");
            return parsed.status == Status::Complete ? exporter::routeHttpRequest(parsed.request)
                                                     : HttpRoute::NotFound;
        };
        QCOMPARE(route("HEAD /metrics HTTP/1.1"), HttpRoute::Metrics);
        QCOMPARE(route("GET / HTTP/1.1"), HttpRoute::Index);
        QCOMPARE(route("GET http://127.0.0.1:9308/metrics HTTP/1.1"), HttpRoute::Metrics);
        QCOMPARE(route("GET /metrics/ HTTP/1.1"), HttpRoute::NotFound);
        QCOMPARE(route("GET /Metrics HTTP/1.1"), HttpRoute::NotFound);
        QCOMPARE(route("POST /metrics HTTP/1.1"), HttpRoute::MethodNotAllowed);
        QCOMPARE(route("get /metrics HTTP/1.1"), HttpRoute::MethodNotAllowed); // case-sensitive
        QCOMPARE(route("DELETE /nothing HTTP/1.1"), HttpRoute::NotFound);
    }

    void badHeadsGetTheirStatus_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("status");
        QTest::newRow("no version") << QByteArray("GET /metrics\r\n\r\n") << 400;
        QTest::newRow("two spaces")
            << QByteArray("GET  /metrics HTTP/1.1\r\nHost: h\r\n\r\n") << 400;
        QTest::newRow("HTTP/2") << QByteArray("GET /metrics HTTP/2.0\r\nHost: h\r\n\r\n") << 505;
        QTest::newRow("not HTTP") << QByteArray("GET /metrics FTP/1.1\r\n\r\n") << 400;
        QTest::newRow("no host in 1.1") << QByteArray("GET /metrics HTTP/1.1\r\n\r\n") << 400;
        QTest::newRow("two hosts")
            << QByteArray("GET /metrics HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n") << 400;
        QTest::newRow("folded header")
            << QByteArray("GET /metrics HTTP/1.1\r\nHost: a\r\n b\r\n\r\n") << 400;
        QTest::newRow("space before colon")
            << QByteArray("GET /metrics HTTP/1.1\r\nHost : a\r\n\r\n") << 400;
        QTest::newRow("control in value")
            << QByteArray("GET /metrics HTTP/1.1\r\nHost: a\x01\r\n\r\n") << 400;
        QTest::newRow("bare CR") << QByteArray("GET /metrics HTTP/1.1\rHost: a\r\n\r\n") << 400;
        QTest::newRow("NUL in target") << QByteArray("GET /met\0rics HTTP/1.1\r\n\r\n", 26) << 400;
        QTest::newRow("asterisk") << QByteArray("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n") << 400;
        QTest::newRow("a body")
            << QByteArray("GET /metrics HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello")
            << 400;
        QTest::newRow("chunked")
            << QByteArray("GET /metrics HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n")
            << 400;
        QTest::newRow("long target")
            << QByteArray("GET /" + QByteArray(3000, 'a') + " HTTP/1.1\r\nHost: h\r\n\r\n") << 414;
        // Too long already before its line ends: refused without waiting for the rest.
        QTest::newRow("endless request line") << QByteArray("GET /" + QByteArray(5000, 'a')) << 414;
        QTest::newRow("endless header")
            << QByteArray("GET / HTTP/1.1\r\nHost: h\r\nX: " + QByteArray(20000, 'a')) << 431;
        QByteArray manyFields = "GET / HTTP/1.1\r\nHost: h\r\n";
        for (int i = 0; i < 70; ++i)
            manyFields += "X-" + QByteArray::number(i) + ": v\r\n";
        QTest::newRow("too many fields") << manyFields + "\r\n" << 431;
        QTest::newRow("endless empty lines") << QByteArray(20000, '\n') << 431;
    }

    void badHeadsGetTheirStatus() {
        QFETCH(QByteArray, bytes);
        QFETCH(int, status);
        const HttpParseResult parsed = parseHttpRequest(bytes);
        QCOMPARE(parsed.status, Status::Invalid);
        QCOMPARE(parsed.errorStatus, status);
        QVERIFY(!parsed.error.isEmpty());
    }

    void listenAddressesAreLoopbackUnlessGiven() {
        QString error;
        auto parsed = cli::parseListenAddress(QStringLiteral("9308"), &error);
        QVERIFY(parsed);
        QCOMPARE(parsed->address, QHostAddress(QHostAddress::LocalHost));
        QCOMPARE(parsed->port, quint16(9308));
        parsed = cli::parseListenAddress(QStringLiteral("0.0.0.0:80"), &error);
        QVERIFY(parsed);
        QCOMPARE(parsed->address, QHostAddress(QHostAddress::AnyIPv4));
        parsed = cli::parseListenAddress(QStringLiteral("[::1]:9308"), &error);
        QVERIFY(parsed);
        QCOMPARE(parsed->address, QHostAddress(QHostAddress::LocalHostIPv6));
        QVERIFY(!cli::parseListenAddress(QStringLiteral("prometheus.example:9308"), &error));
        QVERIFY2(error.contains(QStringLiteral("not an IP address")), qPrintable(error));
        QVERIFY(!cli::parseListenAddress(QStringLiteral("127.0.0.1:99999"), &error));
        QVERIFY(!cli::parseListenAddress(QStringLiteral("::1:9308"), &error));
    }

    void aBadGroupFilterNamesTheOptionAndThePosition() {
        QString error;
        const QString groupFilter = QStringLiteral("--group-filter");
        QVERIFY(cli::parseFilter(groupFilter, QStringLiteral("^billing-(eu|us)$"), &error));
        QVERIFY(!cli::parseFilter(groupFilter, QStringLiteral("billing-(eu"), &error));
        QVERIFY2(error.startsWith(QStringLiteral("--group-filter: ")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("at offset 11")), qPrintable(error));
        QVERIFY(
            !cli::parseFilter(QStringLiteral("--topic-filter"), QStringLiteral("[orders"), &error));
        QVERIFY2(error.startsWith(QStringLiteral("--topic-filter: ")), qPrintable(error));
    }

    void theServerAnswersScrapesAndRefusesTheRest() {
        int scrapes = 0;
        bool lastAskedForGzip = true;
        exporter::MetricsHttpServer server([&](bool acceptsGzip) {
            ++scrapes;
            lastAskedForGzip = acceptsGzip;
            // In two parts, as the exporter answers (its view's text, then its own figures).
            return exporter::MetricsHttpServer::MetricsBody{
                {"# HELP x X.\n# TYPE x gauge\n", "x 1\n"}};
        });
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        const quint16 port = server.serverPort();
        QByteArray answer = exchange(port, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
        QCOMPARE(statusOf(answer), 200);
        QVERIFY(answer.contains("\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"));
        QVERIFY(answer.contains("\r\nContent-Length: 31\r\n"));
        QVERIFY(answer.endsWith("\r\n\r\n# HELP x X.\n# TYPE x gauge\nx 1\n"));
        QVERIFY(!lastAskedForGzip);
        QVERIFY(!answer.contains("Content-Encoding"));
        // What Prometheus sends: the provider is told, and its gzip body is labelled so.
        exporter::MetricsHttpServer gzipServer([](bool acceptsGzip) {
            return exporter::MetricsHttpServer::MetricsBody{{acceptsGzip ? "gz" : "plain"},
                                                            acceptsGzip};
        });
        QVERIFY(gzipServer.listen(QHostAddress::LocalHost, 0));
        answer = exchange(gzipServer.serverPort(),
                          "GET /metrics HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n");
        QVERIFY(answer.contains("\r\nContent-Encoding: gzip\r\n"));
        QVERIFY(answer.contains("\r\nVary: Accept-Encoding\r\n"));
        QVERIFY(answer.endsWith("\r\n\r\ngz"));
        answer = exchange(port, "HEAD /metrics HTTP/1.0\r\n\r\n");
        QCOMPARE(statusOf(answer), 200);
        QVERIFY(answer.endsWith("Connection: close\r\n\r\n")); // no body
        answer = exchange(port, "POST /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
        QCOMPARE(statusOf(answer), 405);
        QVERIFY(answer.contains("\r\nAllow: GET, HEAD\r\n"));
        QCOMPARE(statusOf(exchange(port, "GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n")), 404);
        QCOMPARE(statusOf(exchange(port, QByteArray("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"
                                                    "garbage\r\n\r\n",
                                                    22))),
                 400);
        QCOMPARE(statusOf(exchange(port, QByteArray(100'000, 'A'))), 414);

        // A client that connects and sends nothing, and one that sends half a head and
        // stops: a scrape beside them is answered at once all the same.
        QTcpSocket silent;
        silent.connectToHost(QHostAddress::LocalHost, port);
        QTcpSocket trickle;
        QObject::connect(&trickle, &QTcpSocket::connected, [&] { trickle.write("GET /metr"); });
        trickle.connectToHost(QHostAddress::LocalHost, port);
        QTRY_COMPARE_WITH_TIMEOUT(server.openConnections(), 2, 5000);
        QCOMPARE(statusOf(exchange(port, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 3000)), 200);
        QCOMPARE(scrapes, 3); // GET, HEAD and this one; the trickle's head is not complete
    }

    // A body with pieces made as it is sent (the exporter's plain scrape): the client reads
    // every piece in order after the parts, under one Content-Length; a HEAD makes none.
    void aStreamedBodyArrivesWholeAndInOrder() {
        constexpr int pieceCount = 6;
        constexpr qsizetype pieceBytes = 700 * 1024;
        int made = 0;
        exporter::MetricsHttpServer server([&](bool) {
            exporter::MetricsHttpServer::MetricsBody body;
            body.parts = {"first\n"};
            body.moreBytes = pieceCount * pieceBytes;
            body.more = [&] {
                if (made == pieceCount)
                    return QByteArray();
                return QByteArray(pieceBytes, char('a' + made++));
            };
            return body;
        });
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));

        QByteArray answer =
            exchange(server.serverPort(), "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 10000);
        QCOMPARE(statusOf(answer), 200);
        QVERIFY(answer.contains(QByteArray("\r\nContent-Length: ") +
                                QByteArray::number(6 + pieceCount * pieceBytes)));
        const QByteArray body = answer.mid(answer.indexOf("\r\n\r\n") + 4);
        QCOMPARE(body.size(), 6 + pieceCount * pieceBytes);
        QVERIFY(body.startsWith("first\n"));
        for (int i = 0; i < pieceCount; ++i)
            QCOMPARE(body.mid(6 + i * pieceBytes, pieceBytes),
                     QByteArray(pieceBytes, char('a' + i)));
        QCOMPARE(made, pieceCount);

        made = 0;
        answer = exchange(server.serverPort(), "HEAD /metrics HTTP/1.0\r\n\r\n");
        QCOMPARE(statusOf(answer), 200);
        QVERIFY(answer.endsWith("Connection: close\r\n\r\n"));
        QCOMPARE(made, 0);
    }

    void stuckClientsAreCutOffAtTheirDeadline() {
        exporter::MetricsHttpServer::Options options;
        options.requestTimeout = std::chrono::milliseconds(300);
        options.maxConnections = 2;
        exporter::MetricsHttpServer server(
            [](bool) { return exporter::MetricsHttpServer::MetricsBody{{"x 1\n"}}; }, options);
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        QTcpSocket first;
        QTcpSocket second;
        QTcpSocket third;
        for (QTcpSocket* socket : {&first, &second, &third})
            socket->connectToHost(QHostAddress::LocalHost, server.serverPort());
        QTRY_COMPARE_WITH_TIMEOUT(server.openConnections(), 2, 5000);
        // The third is over the limit: closed at once.
        QTRY_COMPARE_WITH_TIMEOUT(third.state(), QAbstractSocket::UnconnectedState, 5000);
        QCOMPARE(server.refusedConnections(), 1);
        // The two that never send a head are aborted at the request deadline.
        QTRY_COMPARE_WITH_TIMEOUT(server.openConnections(), 0, 5000);
        QCOMPARE(server.timedOutConnections(), 2);
        QTRY_COMPARE_WITH_TIMEOUT(first.state(), QAbstractSocket::UnconnectedState, 5000);
    }
};

QTEST_GUILESS_MAIN(TestHttpRequestParser)
#include "TestHttpRequestParser.moc"
