#include "export/HttpRequestParser.h"

#include <algorithm>

namespace groupscope::exporter {

namespace {

// What a request line may have beyond its target: method, spaces, version.
constexpr qsizetype requestLineSlack = 64;

// RFC 9110 5.6.2: tchar.
bool isTokenChar(char c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    switch (c) {
    case '!':
    case '#':
    case '$':
    case '%':
    case '&':
    case '\'':
    case '*':
    case '+':
    case '-':
    case '.':
    case '^':
    case '_':
    case '`':
    case '|':
    case '~':
        return true;
    default:
        return false;
    }
}

bool isToken(QByteArrayView text) {
    if (text.isEmpty())
        return false;
    for (const char c : text)
        if (!isTokenChar(c))
            return false;
    return true;
}

// Field values: visible characters, obs-text, space and tab; no other control character.
bool isFieldValue(QByteArrayView text) {
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if ((byte < 0x20 && c != '\t') || byte == 0x7f)
            return false;
    }
    return true;
}

QByteArrayView trimmed(QByteArrayView text) {
    qsizetype begin = 0;
    qsizetype end = text.size();
    while (begin < end && (text[begin] == ' ' || text[begin] == '\t'))
        ++begin;
    while (end > begin && (text[end - 1] == ' ' || text[end - 1] == '\t'))
        --end;
    return text.sliced(begin, end - begin);
}

HttpParseResult invalid(int status, const char* why) {
    HttpParseResult result;
    result.status = HttpParseResult::Status::Invalid;
    result.errorStatus = status;
    result.error = QByteArray(why);
    return result;
}

// RFC 9112 3.2.2: the absolute form names the server too; only its path matters here.
std::optional<QByteArrayView> originOf(QByteArrayView target) {
    if (target.startsWith('/'))
        return target;
    for (const QByteArrayView scheme : {QByteArrayView("http://"), QByteArrayView("https://")}) {
        if (target.size() < scheme.size() ||
            target.first(scheme.size()).compare(scheme, Qt::CaseInsensitive) != 0)
            continue;
        const QByteArrayView rest = target.sliced(scheme.size());
        const qsizetype slash = rest.indexOf('/');
        const qsizetype query = rest.indexOf('?');
        if (slash >= 0 && (query < 0 || slash < query))
            return rest.sliced(slash);
        return QByteArrayView("/");
    }
    return std::nullopt;
}

std::optional<HttpParseResult>
parseRequestLine(QByteArrayView line, const HttpRequestLimits& limits, HttpRequest& request) {
    // The same bound parseHttpRequest() applies to a request line still arriving, so a
    // head is refused the same whether it came in one piece or many.
    if (line.size() > limits.maxTargetBytes + requestLineSlack)
        return invalid(414, "the request line is too long");
    const qsizetype firstSpace = line.indexOf(' ');
    const qsizetype lastSpace = line.lastIndexOf(' ');
    if (firstSpace <= 0 || lastSpace == firstSpace)
        return invalid(400, "the request line is not METHOD TARGET VERSION");
    const QByteArrayView method = line.first(firstSpace);
    const QByteArrayView target = line.sliced(firstSpace + 1, lastSpace - firstSpace - 1);
    const QByteArrayView version = line.sliced(lastSpace + 1);
    if (!isToken(method))
        return invalid(400, "the method is not a token");
    if (target.size() > limits.maxTargetBytes)
        return invalid(414, "the request target is too long");
    if (target.isEmpty())
        return invalid(400, "the request target is empty");
    for (const char c : target) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte <= 0x20 || byte >= 0x7f)
            return invalid(400, "the request target has a character it may not have");
    }
    if (version.size() != 8 || !version.startsWith("HTTP/") || version[6] != '.' ||
        version[5] < '0' || version[5] > '9' || version[7] < '0' || version[7] > '9')
        return invalid(400, "the HTTP version is malformed");
    if (version[5] != '1')
        return invalid(505, "only HTTP/1.0 and HTTP/1.1 are served");
    const auto origin = originOf(target);
    if (!origin)
        return invalid(400, "the request target is neither a path nor an absolute URL");
    request.method = method.toByteArray();
    request.target = target.toByteArray();
    qsizetype pathEnd = origin->indexOf('?');
    if (const qsizetype fragment = origin->indexOf('#');
        fragment >= 0 && (pathEnd < 0 || fragment < pathEnd))
        pathEnd = fragment;
    request.path = (pathEnd < 0 ? *origin : origin->first(pathEnd)).toByteArray();
    // RFC 9110 2.5: a later 1.x is answered as the highest minor version served, 1.1.
    request.minorVersion = std::min(version[7] - '0', 1);
    return std::nullopt;
}

std::optional<HttpParseResult> parseField(QByteArrayView line, HttpRequest& request) {
    if (line.startsWith(' ') || line.startsWith('\t'))
        return invalid(400, "folded header lines are not accepted");
    const qsizetype colon = line.indexOf(':');
    if (colon < 0)
        return invalid(400, "a header line has no colon");
    const QByteArrayView name = line.first(colon);
    if (!isToken(name))
        return invalid(400, "a header name is not a token");
    const QByteArrayView value = trimmed(line.sliced(colon + 1));
    if (!isFieldValue(value))
        return invalid(400, "a header value has a control character");
    request.headers.append({name.toByteArray().toLower(), value.toByteArray()});
    return std::nullopt;
}

std::optional<HttpParseResult> checkHead(const HttpRequest& request) {
    int hosts = 0;
    for (const auto& [name, value] : request.headers) {
        if (name == "host")
            ++hosts;
        else if (name == "transfer-encoding")
            return invalid(400, "a request body is not accepted");
        else if (name == "content-length" && value != "0")
            return invalid(400, "a request body is not accepted");
    }
    // RFC 9112 3.2: an HTTP/1.1 request without exactly one Host field gets 400.
    if (hosts > 1 || (request.minorVersion >= 1 && hosts == 0))
        return invalid(400, "an HTTP/1.1 request needs exactly one Host header");
    return std::nullopt;
}

} // namespace

QByteArray HttpRequest::header(QByteArrayView lowerCaseName) const {
    for (auto it = headers.crbegin(); it != headers.crend(); ++it)
        if (it->first == lowerCaseName)
            return it->second;
    return {};
}

HttpParseResult parseHttpRequest(QByteArrayView bytes, const HttpRequestLimits& limits) {
    HttpRequest request;
    qsizetype position = 0;
    bool requestLineSeen = false;
    while (true) {
        const qsizetype lineEnd = bytes.indexOf('\n', position);
        if (lineEnd < 0) {
            // The line so far already breaks a limit: no need to wait for the rest. A request
            // line too long says so rather than the head as a whole.
            if (!requestLineSeen &&
                bytes.size() - position > limits.maxTargetBytes + requestLineSlack + 1)
                return invalid(414, "the request line is too long");
            if (bytes.size() > limits.maxHeadBytes)
                return invalid(431, "the request head is too large");
            return {};
        }
        if (lineEnd + 1 > limits.maxHeadBytes)
            return invalid(431, "the request head is too large");
        QByteArrayView line = bytes.sliced(position, lineEnd - position);
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.contains('\r'))
            return invalid(400, "a bare carriage return in the request head");
        position = lineEnd + 1;
        if (!requestLineSeen) {
            if (line.isEmpty()) // RFC 9112 2.2: empty lines before the request line are ignored
                continue;
            if (auto failed = parseRequestLine(line, limits, request))
                return *failed;
            requestLineSeen = true;
            continue;
        }
        if (line.isEmpty())
            break;
        if (request.headers.size() >= limits.maxHeaderFields)
            return invalid(431, "too many header fields");
        if (auto failed = parseField(line, request))
            return *failed;
    }
    if (auto failed = checkHead(request))
        return *failed;
    request.headBytes = position;
    HttpParseResult result;
    result.status = HttpParseResult::Status::Complete;
    result.request = std::move(request);
    return result;
}

HttpRoute routeHttpRequest(const HttpRequest& request) {
    const bool known = request.path == "/metrics" || request.path == "/";
    if (!known)
        return HttpRoute::NotFound;
    if (request.method != "GET" && request.method != "HEAD")
        return HttpRoute::MethodNotAllowed;
    return request.path == "/" ? HttpRoute::Index : HttpRoute::Metrics;
}

bool acceptsGzip(QByteArrayView acceptEncoding) {
    for (const QByteArray& coding : acceptEncoding.toByteArray().split(',')) {
        const QList<QByteArray> parts = coding.split(';');
        const QByteArray name = parts.first().trimmed().toLower();
        if (name != "gzip" && name != "x-gzip" && name != "*")
            continue;
        bool refused = false;
        for (qsizetype i = 1; i < parts.size(); ++i) {
            const QByteArray parameter = parts.at(i).trimmed().toLower();
            if (parameter.startsWith("q=")) {
                bool ok = false;
                const double q = parameter.mid(2).toDouble(&ok);
                refused = !ok || q <= 0;
            }
        }
        if (!refused)
            return true;
    }
    return false;
}

} // namespace groupscope::exporter
