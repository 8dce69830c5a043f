#pragma once
// The exporter's HTTP/1.x request head parser: a pure function of the bytes a client sent so
// far, so that what arrives from the network is parsed in one place that a fuzz target covers
// (tests/fuzz/FuzzHttpRequest.cpp). It reads the request line and the header fields up to
// the empty line (RFC 9112 sections 2 to 5) and nothing else: the exporter answers GET and
// HEAD only, which carry no body.

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

#include <optional>

namespace groupscope::exporter {

struct HttpRequestLimits {
    qsizetype maxHeadBytes = 16 * 1024; // request line and header fields together
    qsizetype maxTargetBytes = 2048;
    int maxHeaderFields = 64;
};

struct HttpRequest {
    QByteArray method;    // as sent: methods are case-sensitive
    QByteArray target;    // the request target as sent (origin form: /path?query)
    QByteArray path;      // the target without its query
    int minorVersion = 1; // HTTP/1.minorVersion: 0 or 1 (a later 1.x counts as 1)
    QList<QPair<QByteArray, QByteArray>> headers; // names lower-cased, values trimmed
    qsizetype headBytes = 0; // bytes the head took, up to and including the empty line

    // The value of the last field named `lowerCaseName`; a null array when absent.
    QByteArray header(QByteArrayView lowerCaseName) const;
};

struct HttpParseResult {
    enum class Status {
        Incomplete, // no empty line yet and within limits: wait for more bytes
        Complete,   // `request` holds the head
        Invalid,    // answer `errorStatus` and close
    };
    Status status = Status::Incomplete;
    HttpRequest request;
    int errorStatus = 0; // 400, 414, 431, 501 or 505
    QByteArray error;    // why, for the response body
};

// Parses the head at the start of `bytes`. Lines end in CRLF or a bare LF (RFC 9112 2.2
// allows both); empty lines before the request line are skipped.
HttpParseResult parseHttpRequest(QByteArrayView bytes, const HttpRequestLimits& limits = {});

// What the exporter does with a parsed request.
enum class HttpRoute {
    Metrics,          // GET or HEAD /metrics
    Index,            // GET or HEAD /: a page linking to /metrics
    NotFound,         // 404
    MethodNotAllowed, // 405 with Allow: GET, HEAD
};
HttpRoute routeHttpRequest(const HttpRequest& request);

// Whether the response should carry no body (HEAD).
inline bool isHeadRequest(const HttpRequest& request) {
    return request.method == "HEAD";
}

// Whether an Accept-Encoding header's value admits gzip: a `gzip`, `x-gzip` or `*` coding
// whose weight (q) is not 0.
bool acceptsGzip(QByteArrayView acceptEncoding);

} // namespace groupscope::exporter
