// libFuzzer target for the exporter's HTTP request head parser: whatever a client sends, the
// parser returns one of its three answers without reading past the bytes or its limits, and
// a complete head parses the same alone, in pieces, and under tight limits it fits.
#include "FuzzCheck.h"
#include "export/HttpRequestParser.h"

#include <cstddef>
#include <cstdint>

using namespace groupscope::exporter;
using groupscope::fuzz::check;

namespace {

void checkOne(QByteArrayView bytes, const HttpRequestLimits& limits) {
    const HttpParseResult parsed = parseHttpRequest(bytes, limits);
    switch (parsed.status) {
    case HttpParseResult::Status::Incomplete:
        // Waiting for more is only right while the limits still allow more.
        check(bytes.size() <= limits.maxHeadBytes);
        break;
    case HttpParseResult::Status::Invalid:
        check(parsed.errorStatus >= 400 && parsed.errorStatus < 600 && !parsed.error.isEmpty());
        break;
    case HttpParseResult::Status::Complete: {
        const HttpRequest& request = parsed.request;
        check(request.headBytes > 0 && request.headBytes <= bytes.size());
        check(request.headBytes <= limits.maxHeadBytes);
        check(request.target.size() <= limits.maxTargetBytes);
        check(request.headers.size() <= limits.maxHeaderFields);
        check(request.path.startsWith('/'));
        check(request.minorVersion == 0 || request.minorVersion == 1);
        (void)routeHttpRequest(request);
        // gzip is sent only to a client that named it (or any coding).
        const QByteArray acceptEncoding = request.header("accept-encoding").toLower();
        if (acceptsGzip(acceptEncoding))
            check(acceptEncoding.contains("gzip") || acceptEncoding.contains('*'));
        // The head alone parses to the same request.
        const HttpParseResult alone = parseHttpRequest(bytes.first(request.headBytes), limits);
        check(alone.status == HttpParseResult::Status::Complete);
        check(alone.request.method == request.method && alone.request.path == request.path &&
              alone.request.headers == request.headers);
        // Any shorter piece of it is only incomplete: a head that arrives slowly is
        // treated as one that arrives at once.
        for (const qsizetype cut :
             {qsizetype(0), request.headBytes / 3, request.headBytes / 2, request.headBytes - 1})
            check(parseHttpRequest(bytes.first(cut), limits).status ==
                  HttpParseResult::Status::Incomplete);
        break;
    }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QByteArrayView bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    checkOne(bytes, HttpRequestLimits());
    // Tight limits, so the fuzzer reaches every refusal with short inputs.
    HttpRequestLimits tight;
    tight.maxHeadBytes = 96;
    tight.maxTargetBytes = 16;
    tight.maxHeaderFields = 3;
    checkOne(bytes, tight);
    return 0;
}
