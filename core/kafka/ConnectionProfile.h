#pragma once

#include "kafka/Result.h"

#include <QList>
#include <QPair>
#include <QString>

namespace groupscope::kafka {

// Where and how to connect to a cluster. Turned into librdkafka properties by
// toProperties(); secrets live here in memory only and are never written out by this type.
struct ConnectionProfile {
    QString name;
    QString bootstrapServers;
    QString securityProtocol; // PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL; empty = default
    QString saslMechanism;    // PLAIN, SCRAM-SHA-256, SCRAM-SHA-512
    QString saslUsername;
    QString saslPassword;
    QString sslCaLocation;
    QString sslCertificateLocation;
    QString sslKeyLocation;
    QString sslKeyPassword;
    // Over TLS, check the broker's certificate chain against the CA and that it was issued
    // for the host connected to. Turning this off is an explicit per-profile choice
    // (enable.ssl.certificate.verification=false in a command config, the connection
    // dialog's checkbox) and verificationWarning() then says what it costs.
    bool tlsVerification = true;
    // Further librdkafka properties, in order; they win over the fields above.
    QList<QPair<QString, QString>> extraProperties;

    QList<QPair<QString, QString>> toProperties() const;
    // The value `key` ends up with in toProperties() (the last one wins), trimmed; empty
    // when it is not set. The group protocol client reads its settings this way, so a
    // property means the same to it as to librdkafka.
    QString effectiveProperty(const QString& key) const;

    // True when the effective security.protocol (fields and extra properties) is SSL or
    // SASL_SSL.
    bool usesTls() const;
    // Empty unless this profile talks TLS without fully verifying the broker: then the
    // warning to show the user (which check is off and what that exposes).
    QString verificationWarning() const;

    // Reads a --command-config file: `key=value` lines as librdkafka properties, `#` and
    // `!` comments, blank lines. Recognised keys fill the fields above; others become
    // extraProperties. An error names the file, the line number and the key. Overloads
    // rather than default arguments: GCC cannot use the member initialisers above in a
    // default argument of the class's own type.
    static Result<ConnectionProfile> fromCommandConfigFile(const QString& path);
    static Result<ConnectionProfile> fromCommandConfigFile(const QString& path,
                                                           ConnectionProfile base);
    static Result<ConnectionProfile> fromCommandConfigText(const QString& text,
                                                           const QString& sourceName);
    static Result<ConnectionProfile>
    fromCommandConfigText(const QString& text, const QString& sourceName, ConnectionProfile base);

    // True for property names whose values must never be printed or stored in clear.
    static bool isSecretProperty(const QString& key);
    // True for Groupscope's own properties ("groupscope.*"), which librdkafka never sees.
    static bool isGroupscopeProperty(const QString& key);
};

} // namespace groupscope::kafka
