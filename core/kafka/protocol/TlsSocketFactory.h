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
    // Qt reads "127.1" or "0x7f.1" as the address 127.0.0.1 (inet_aton's spellings) and
    // matches it against the certificate's IP entries. OpenSSL, and so librdkafka, takes
    // only a dotted quad for an IPv4 address and any other spelling for a host name, which
    // a certificate for IP:127.0.0.1 was not issued for. For such a name this checks the
    // certificate as OpenSSL would (its DNS entries; its common name only when it has
    // none) once the handshake is done: empty when it matches or `host` needs no check
    // beyond Qt's, else why not.
    static QString hostNameMismatch(const QSslSocket& socket, const QString& host);
};

} // namespace groupscope::kafka::protocol
