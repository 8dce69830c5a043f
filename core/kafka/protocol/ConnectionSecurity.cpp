#include "kafka/protocol/ConnectionSecurity.h"

#include <librdkafka/rdkafka.h>

namespace groupscope::kafka::protocol {

namespace {

bool isFalse(const QString& value) {
    return value.compare(u"false", Qt::CaseInsensitive) == 0 || value == u"0";
}

KafkaError unsupported(const QString& what) {
    return KafkaError::fromCode(RD_KAFKA_RESP_ERR__NOT_IMPLEMENTED,
                                QStringLiteral("Groupscope's own group protocol client does not "
                                               "support %1")
                                    .arg(what));
}

// "key=value key2=value2" (librdkafka's sasl.oauthbearer.config) → the value of `key`.
QString configValue(const QString& config, const QString& key) {
    const QStringList parts = config.split(u' ', Qt::SkipEmptyParts);
    for (const QString& part : parts) {
        const qsizetype equals = part.indexOf(u'=');
        if (equals > 0 && part.left(equals) == key)
            return part.mid(equals + 1);
    }
    return {};
}

} // namespace

Result<ConnectionSecurity> ConnectionSecurity::fromProfile(const ConnectionProfile& profile) {
    auto property = [&](const char* key) {
        return profile.effectiveProperty(QString::fromLatin1(key));
    };
    ConnectionSecurity security;
    const QString protocol = property("security.protocol").toUpper();
    if (!protocol.isEmpty() && protocol != u"PLAINTEXT" && protocol != u"SSL" &&
        protocol != u"SASL_PLAINTEXT" && protocol != u"SASL_SSL")
        return unsupported(QStringLiteral("security.protocol=%1").arg(protocol));
    security.tls = protocol.endsWith(u"SSL");
    const bool sasl = protocol.startsWith(u"SASL");

    if (security.tls) {
        security.caLocation = property("ssl.ca.location");
        security.certificateLocation = property("ssl.certificate.location");
        security.keyLocation = property("ssl.key.location");
        security.keyPassword = property("ssl.key.password");
        security.verifyCertificate = !isFalse(property("enable.ssl.certificate.verification"));
        security.verifyHostName =
            security.verifyCertificate && property("ssl.endpoint.identification.algorithm")
                                                  .compare(u"none", Qt::CaseInsensitive) != 0;
        for (const char* key : {"ssl.keystore.location", "ssl.certificate.pem", "ssl.key.pem",
                                "ssl.ca.pem", "ssl.engine.location", "ssl.providers"}) {
            if (!property(key).isEmpty())
                return unsupported(QString::fromLatin1(key));
        }
        if (security.caLocation.compare(u"probe", Qt::CaseInsensitive) == 0)
            security.caLocation.clear(); // librdkafka's "probe": the system's trust store
    }

    if (sasl) {
        security.saslMechanism = property("sasl.mechanism").toUpper();
        if (security.saslMechanism.isEmpty())
            security.saslMechanism = property("sasl.mechanisms").toUpper();
        if (security.saslMechanism.isEmpty())
            security.saslMechanism = QStringLiteral("GSSAPI"); // librdkafka's default
        security.username = property("sasl.username");
        security.password = property("sasl.password");
        if (security.saslMechanism == u"OAUTHBEARER") {
            const QString method = property("sasl.oauthbearer.method").toLower();
            if (method == u"oidc") {
                security.oauthTokenEndpoint = property("sasl.oauthbearer.token.endpoint.url");
                security.oauthClientId = property("sasl.oauthbearer.client.id");
                security.oauthClientSecret = property("sasl.oauthbearer.client.secret");
                security.oauthScope = property("sasl.oauthbearer.scope");
            } else {
                // librdkafka's unsecured default: "principal=... token=..." is ours only in
                // its token= form (a ready token the user obtained).
                security.oauthStaticToken =
                    configValue(property("sasl.oauthbearer.config"), QStringLiteral("token"));
                if (security.oauthStaticToken.isEmpty())
                    return unsupported(QStringLiteral(
                        "OAUTHBEARER without a token (sasl.oauthbearer.config token=...) or "
                        "OIDC client credentials (sasl.oauthbearer.method=oidc)"));
            }
        } else if (security.saslMechanism != u"PLAIN" &&
                   security.saslMechanism != u"SCRAM-SHA-256" &&
                   security.saslMechanism != u"SCRAM-SHA-512") {
            return unsupported(QStringLiteral("SASL mechanism %1").arg(security.saslMechanism));
        }
    }
    return security;
}

} // namespace groupscope::kafka::protocol
