#pragma once
// The exporter's --web-config file, in the format of the Prometheus exporter toolkit
// (--web.config.file), so that one file serves Groupscope and the other exporters:
//
//   tls_server_config:
//     cert_file: server.pem           # relative paths: from the file's own directory
//     key_file: server.key
//     client_auth_type: RequireAndVerifyClientCert   # or NoClientCert (the default)
//     client_ca_file: clients-ca.pem
//   basic_auth_users:
//     prometheus: $2y$10$...           # bcrypt hashes (htpasswd -B), never passwords
//
// Read as the small YAML subset the toolkit's examples use: two-level maps of scalars,
// quotes, comments. Anything else is refused with its line, so a setting is never silently
// dropped; the file is read from disk, so the parser is fuzzed.

#include "kafka/Result.h"

#include <QByteArray>
#include <QMap>
#include <QString>

namespace groupscope::exporter {

struct WebConfig {
    QString certFile;
    QString keyFile;
    QString clientCaFile;
    bool requireClientCertificate = false;
    QMap<QString, QByteArray> basicAuthUsers; // name -> bcrypt hash

    bool usesTls() const { return !certFile.isEmpty(); }

    // `text` as read from `fileName` (for errors; relative paths are resolved against its
    // directory).
    static kafka::Result<WebConfig> parse(const QByteArray& text, const QString& fileName);
    static kafka::Result<WebConfig> load(const QString& path);
};

// True when `password` matches the bcrypt `hash` ($2a$, $2b$ or $2y$).
bool bcryptMatches(const QByteArray& password, const QByteArray& hash);

} // namespace groupscope::exporter
