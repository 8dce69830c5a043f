#pragma once

#include "kafka/Result.h"
#include "kafka/protocol/ConnectionSecurity.h"

#include <QString>

#include <memory>

class QSslSocket;

namespace groupscope::kafka::protocol {

// TLS sockets configured from a profile: the CA (or the system's trust store), the broker's
// certificate and host name verified unless the profile turned that off, and a client
// certificate whose key may be encrypted with a passphrase.
class TlsSocketFactory {
public:
    // An error names the file that could not be read or the key that could not be opened.
    static Result<std::unique_ptr<QSslSocket>> create(const ConnectionSecurity& security);
    // Why a handshake failed, in words: the certificate errors OpenSSL found (untrusted
    // issuer, host name mismatch, expired) or the socket's error.
    static QString describeFailure(const QSslSocket& socket);
};

} // namespace groupscope::kafka::protocol
