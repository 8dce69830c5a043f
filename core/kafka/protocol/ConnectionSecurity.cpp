#include "kafka/protocol/ConnectionSecurity.h"

#include "kafka/protocol/ProtocolError.h"

#include <librdkafka/rdkafka.h>

#include <algorithm>

namespace groupscope::kafka::protocol {

namespace {

bool isFalse(const QString& value) {
    return value.compare(u"false", Qt::CaseInsensitive) == 0 || value == u"0";
}

KafkaError unsupported(const QString& what) {
    return protocolError(RD_KAFKA_RESP_ERR__NOT_IMPLEMENTED,
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

// RFC 7628 3.1: a key is ALPHA only, "auth" is the token's own; a value is printable
// ASCII, space, tab, CR or LF.
bool isExtension(const QString& key, const QString& value) {
    if (key.isEmpty() || key == u"auth" || !std::all_of(key.cbegin(), key.cend(), [](QChar c) {
            return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z');
        }))
        return false;
    return std::all_of(value.cbegin(), value.cend(), [](QChar c) {
        return (c >= u'\x21' && c <= u'\x7e') || c == u' ' || c == u'\t' || c == u'\r' ||
               c == u'\n';
    });
}

// librdkafka's unsecured JWT settings (its parse_ujws_config): the same keys, the same
// refusals. Error messages name keys only, never values (the config is secret).
Status readUnsecuredConfig(const QString& config, ConnectionSecurity& security) {
    for (const QString& part : config.split(u' ', Qt::SkipEmptyParts)) {
        const qsizetype equals = part.indexOf(u'=');
        const QString key = part.left(equals);
        const QString value = equals < 0 ? QString() : part.mid(equals + 1);
        if (equals <= 0 || value.isEmpty())
            return unsupported(QStringLiteral("a sasl.oauthbearer.config entry without a value"));
        bool number = true;
        if (key == u"principal")
            security.oauthUnsecuredPrincipal = value;
        else if (key == u"principalClaimName")
            security.oauthPrincipalClaim = value;
        else if (key == u"scope")
            security.oauthUnsecuredScope = value.split(u',', Qt::SkipEmptyParts);
        else if (key == u"scopeClaimName")
            security.oauthScopeClaim = value;
        else if (key == u"lifeSeconds")
            security.oauthLifeSeconds = value.toInt(&number);
        else if (key.startsWith(u"extension_") && isExtension(key.mid(10), value))
            security.oauthExtensions.append({key.mid(10), value});
        else
            return unsupported(QStringLiteral("sasl.oauthbearer.config key %1").arg(key));
        if (!number || security.oauthLifeSeconds < 1)
            return unsupported(QStringLiteral("sasl.oauthbearer.config lifeSeconds that is not "
                                              "a positive number"));
    }
    if (security.oauthUnsecuredPrincipal.isEmpty())
        return unsupported(QStringLiteral("an unsecured OAUTHBEARER token without a principal "
                                          "(sasl.oauthbearer.config principal=...)"));
    return Done{};
}

// OAUTHBEARER's settings, one of the three ways ConnectionSecurity describes.
template <typename Property>
Status readOAuth(const Property& property, ConnectionSecurity& security) {
    const QString method = property("sasl.oauthbearer.method").toLower();
    const QString config = property("sasl.oauthbearer.config");
    if (method == u"oidc") {
        security.oauthTokenEndpoint = property("sasl.oauthbearer.token.endpoint.url");
        security.oauthClientId = property("sasl.oauthbearer.client.id");
        security.oauthClientSecret = property("sasl.oauthbearer.client.secret");
        security.oauthScope = property("sasl.oauthbearer.scope");
        // The token endpoint's CA, as librdkafka reads it; "probe" or none: the system's.
        security.oauthCaLocation = property("https.ca.location");
        if (security.oauthCaLocation.compare(u"probe", Qt::CaseInsensitive) == 0)
            security.oauthCaLocation.clear();
        if (!property("https.ca.pem").isEmpty())
            return unsupported(QStringLiteral("https.ca.pem"));
        // Newer librdkafka also fetches tokens with a signed JWT assertion (grant type
        // jwt-bearer) or from a cloud's metadata service: not spoken here.
        for (const char* key :
             {"sasl.oauthbearer.grant.type", "sasl.oauthbearer.metadata.authentication.type"}) {
            const QString value = property(key).toLower();
            if (!value.isEmpty() && value != u"client_credentials" && value != u"none")
                return unsupported(QStringLiteral("%1=%2").arg(QLatin1String(key), value));
        }
        for (const QString& pair :
             property("sasl.oauthbearer.extensions").split(u',', Qt::SkipEmptyParts)) {
            const qsizetype equals = pair.indexOf(u'=');
            const QString key = pair.left(equals).trimmed();
            const QString value = equals < 0 ? QString() : pair.mid(equals + 1);
            if (equals <= 0 || !isExtension(key, value))
                return unsupported(
                    QStringLiteral("the sasl.oauthbearer.extensions entry %1")
                        .arg(key.isEmpty() ? QStringLiteral("without a name") : key));
            security.oauthExtensions.append({key, value});
        }
        if (security.oauthTokenEndpoint.isEmpty() || security.oauthClientId.isEmpty())
            return unsupported(QStringLiteral("OIDC without sasl.oauthbearer.token.endpoint.url "
                                              "and sasl.oauthbearer.client.id"));
        return Done{};
    }
    if (!method.isEmpty() && method != u"default")
        return unsupported(QStringLiteral("sasl.oauthbearer.method=%1").arg(method));
    const QString unsecured = property("enable.sasl.oauthbearer.unsecure.jwt");
    if (unsecured.compare(u"true", Qt::CaseInsensitive) == 0 || unsecured == u"1")
        return readUnsecuredConfig(config, security);
    security.oauthStaticToken = configValue(config, QStringLiteral("token"));
    if (security.oauthStaticToken.isEmpty())
        return unsupported(QStringLiteral(
            "OAUTHBEARER without a token (sasl.oauthbearer.config token=...), an unsecured "
            "token (enable.sasl.oauthbearer.unsecure.jwt=true) or OIDC client credentials "
            "(sasl.oauthbearer.method=oidc)"));
    return Done{};
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
            if (Status read = readOAuth(property, security); !read)
                return read.error();
        } else if (security.saslMechanism != u"PLAIN" &&
                   security.saslMechanism != u"SCRAM-SHA-256" &&
                   security.saslMechanism != u"SCRAM-SHA-512") {
            return unsupported(QStringLiteral("SASL mechanism %1").arg(security.saslMechanism));
        }
    }
    return security;
}

} // namespace groupscope::kafka::protocol
