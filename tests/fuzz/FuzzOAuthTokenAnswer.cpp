// libFuzzer target for the OIDC token endpoint's answer and a JWT's claims: the endpoint, or
// whoever answers in its place, chooses these bytes. Input: two bytes of HTTP status (mapped
// onto 200 and a few error codes), then the body.
#include "FuzzCheck.h"
#include "kafka/protocol/OAuthTokenAnswer.h"

#include <cstddef>
#include <cstdint>

using namespace groupscope::kafka::protocol;

using groupscope::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2)
        return 0;
    static const int statuses[] = {200, 200, 200, 400, 401, 500};
    const int status = statuses[(data[0] | (data[1] << 8)) % 6];
    const QByteArray body(reinterpret_cast<const char*>(data + 2), qsizetype(size - 2));
    constexpr qint64 nowMs = 1'780'000'000'000; // a fixed "now": reproducible runs
    const auto answer = OAuthTokenAnswer::read(status, body, nowMs);
    if (const QString* problem = std::get_if<QString>(&answer)) {
        // Names the status or the endpoint's error code, never echoes the body at length.
        check(!problem->isEmpty() && problem->size() <= 120);
        return 0;
    }
    const OAuthTokenAnswer& read = std::get<OAuthTokenAnswer>(answer);
    check(status == 200 && !read.token.isEmpty());
    if (read.lifetime)
        check(read.lifetime->count() > 0);
    // The body as a token too: a JWT's claims, whatever its payload says.
    const JwtClaims claims = JwtClaims::of(QString::fromUtf8(body));
    if (claims.expiresAtMs)
        check(*claims.expiresAtMs > 0);
    return 0;
}
