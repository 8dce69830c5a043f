#include "kafka/ConnectionProfile.h"

#include "kafka/RdKafkaHandles.h"
#include "kafka/TransportSafety.h"

#include <librdkafka/rdkafka.h>

#include <QFile>
#include <QSet>

namespace groupscope::kafka {

namespace {

void appendIfSet(QList<QPair<QString, QString>>& properties, const char* key,
                 const QString& value) {
    if (!value.isEmpty())
        properties.append({QString::fromLatin1(key), value});
}

const QString certificateVerificationKey = QStringLiteral("enable.ssl.certificate.verification");
const QString hostNameVerificationKey = QStringLiteral("ssl.endpoint.identification.algorithm");

// The value a property ends up with: the last one wins, as in makeConf.
QString effectiveValue(const QList<QPair<QString, QString>>& properties, const QString& key) {
    for (auto it = properties.crbegin(); it != properties.crend(); ++it)
        if (it->first == key)
            return it->second.trimmed();
    return {};
}

bool isFalse(const QString& value) {
    return value.compare(u"false", Qt::CaseInsensitive) == 0 || value == u"0";
}

// Assigns a recognised key to its field; returns false for keys that are not fields.
bool assignField(ConnectionProfile& profile, const QString& key, const QString& value) {
    if (key == certificateVerificationKey) {
        // A value librdkafka rejects is reported by the caller's validation of the line.
        profile.tlsVerification = !isFalse(value.trimmed());
        return true;
    }
    QString* field = nullptr;
    if (key == u"bootstrap.servers")
        field = &profile.bootstrapServers;
    else if (key == u"security.protocol")
        field = &profile.securityProtocol;
    else if (key == u"sasl.mechanism" || key == u"sasl.mechanisms")
        field = &profile.saslMechanism;
    else if (key == u"sasl.username")
        field = &profile.saslUsername;
    else if (key == u"sasl.password")
        field = &profile.saslPassword;
    else if (key == u"ssl.ca.location")
        field = &profile.sslCaLocation;
    else if (key == u"ssl.certificate.location")
        field = &profile.sslCertificateLocation;
    else if (key == u"ssl.key.location")
        field = &profile.sslKeyLocation;
    else if (key == u"ssl.key.password")
        field = &profile.sslKeyPassword;
    if (!field)
        return false;
    *field = value;
    return true;
}

} // namespace

QList<QPair<QString, QString>> ConnectionProfile::toProperties() const {
    QList<QPair<QString, QString>> properties;
    appendIfSet(properties, "bootstrap.servers", bootstrapServers);
    appendIfSet(properties, "security.protocol", securityProtocol);
    appendIfSet(properties, "sasl.mechanism", saslMechanism);
    appendIfSet(properties, "sasl.username", saslUsername);
    appendIfSet(properties, "sasl.password", saslPassword);
    appendIfSet(properties, "ssl.ca.location", sslCaLocation);
    appendIfSet(properties, "ssl.certificate.location", sslCertificateLocation);
    appendIfSet(properties, "ssl.key.location", sslKeyLocation);
    appendIfSet(properties, "ssl.key.password", sslKeyPassword);
    properties.append(extraProperties);
    if (usesTls()) {
        // Set explicitly rather than trusting the library's defaults: librdkafka before 2.0
        // did not check host names by default. Extra properties the user wrote still win.
        QList<QPair<QString, QString>> verification{
            {certificateVerificationKey,
             tlsVerification ? QStringLiteral("true") : QStringLiteral("false")},
            {hostNameVerificationKey,
             tlsVerification ? QStringLiteral("https") : QStringLiteral("none")}};
        properties = verification + properties;
    }
    return properties;
}

QString ConnectionProfile::effectiveProperty(const QString& key) const {
    return effectiveValue(toProperties(), key);
}

bool ConnectionProfile::usesTls() const {
    QString protocol = securityProtocol;
    const QString extra = effectiveValue(extraProperties, QStringLiteral("security.protocol"));
    if (!extra.isEmpty())
        protocol = extra;
    return protocol.endsWith(u"SSL", Qt::CaseInsensitive);
}

QString ConnectionProfile::verificationWarning() const {
    if (!usesTls())
        return {};
    const auto properties = toProperties();
    if (isFalse(effectiveValue(properties, certificateVerificationKey)))
        return QStringLiteral(
                   "TLS verification is off for %1: the broker's certificate and host name are not "
                   "checked, so anyone on the network path can pose as the broker and see the "
                   "credentials and data sent to it")
            .arg(name.isEmpty() ? bootstrapServers : name);
    if (effectiveValue(properties, hostNameVerificationKey).compare(u"none", Qt::CaseInsensitive) ==
        0)
        return QStringLiteral("TLS host name verification is off for %1 "
                              "(ssl.endpoint.identification.algorithm=none): a certificate "
                              "issued for another host is accepted")
            .arg(name.isEmpty() ? bootstrapServers : name);
    return {};
}

bool ConnectionProfile::isSecretProperty(const QString& key) {
    // Every property librdkafka marks sensitive (_RK_SENSITIVE in its rdkafka_conf.c; a test
    // compares this list with the source the build used), also those that are not secret in
    // themselves (a user name, a key's path): librdkafka hides them from its own logs, and
    // so does Groupscope from its files, logs and messages.
    static const QSet<QString> librdkafkaSensitive{
        QStringLiteral("sasl.username"),
        QStringLiteral("sasl.password"),
        QStringLiteral("sasl.oauthbearer.config"),
        QStringLiteral("sasl.oauthbearer.client.secret"),
        QStringLiteral("sasl.oauthbearer.assertion.private.key.file"),
        QStringLiteral("sasl.oauthbearer.assertion.private.key.passphrase"),
        QStringLiteral("sasl.oauthbearer.assertion.private.key.pem"),
        QStringLiteral("ssl.key.location"),
        QStringLiteral("ssl.key.password"),
        QStringLiteral("ssl.key.pem"),
        QStringLiteral("ssl_key"),
        QStringLiteral("ssl.ca.pem"),
        QStringLiteral("ssl.keystore.password"),
    };
    const QString name = key.trimmed().toLower();
    if (librdkafkaSensitive.contains(name))
        return true;
    // The names Kafka's Java client gives secrets, for properties a later librdkafka may
    // add: passwords, secrets, passphrases, JAAS configurations (which hold passwords) and
    // key material in PEM.
    return name.contains(u"password") || name.contains(u"secret") || name.contains(u"passphrase") ||
           name.endsWith(u"jaas.config") || (name.endsWith(u".pem") && name.contains(u"key"));
}

bool ConnectionProfile::isGroupscopeProperty(const QString& key) {
    return key.startsWith(u"groupscope.");
}

Result<ConnectionProfile> ConnectionProfile::fromCommandConfigFile(const QString& path) {
    return fromCommandConfigFile(path, ConnectionProfile());
}

Result<ConnectionProfile> ConnectionProfile::fromCommandConfigText(const QString& text,
                                                                   const QString& sourceName) {
    return fromCommandConfigText(text, sourceName, ConnectionProfile());
}

Result<ConnectionProfile> ConnectionProfile::fromCommandConfigFile(const QString& path,
                                                                   ConnectionProfile base) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return KafkaError::invalidArgument(
            QStringLiteral("cannot read command config %1: %2").arg(path, file.errorString()));
    return fromCommandConfigText(QString::fromUtf8(file.readAll()), path, std::move(base));
}

Result<ConnectionProfile> ConnectionProfile::fromCommandConfigText(const QString& text,
                                                                   const QString& sourceName,
                                                                   ConnectionProfile base) {
    ConnectionProfile profile = std::move(base);
    const QStringList lines = text.split(u'\n');
    for (qsizetype index = 0; index < lines.size(); ++index) {
        const QString line = lines[index].trimmed();
        const int lineNumber = int(index) + 1;
        if (line.isEmpty() || line.startsWith(u'#') || line.startsWith(u'!'))
            continue;
        const qsizetype separator = line.indexOf(u'=');
        const QString key = (separator < 0 ? line : line.left(separator)).trimmed();
        if (separator < 0 || key.isEmpty())
            return KafkaError::invalidArgument(
                QStringLiteral("%1:%2: expected key=value, got \"%3\"")
                    .arg(sourceName)
                    .arg(lineNumber)
                    .arg(isSecretProperty(key) ? QStringLiteral("<hidden>") : line.left(80)));
        const QString value = line.mid(separator + 1).trimmed();
        if (key.contains(u' '))
            return KafkaError::invalidArgument(QStringLiteral("%1:%2: key \"%3\" contains a space")
                                                   .arg(sourceName)
                                                   .arg(lineNumber)
                                                   .arg(key));
        if (!assignField(profile, key, value))
            profile.extraProperties.append({key, value});
        if (isGroupscopeProperty(key)) {
            if (key != allowInsecureTokenEndpointKey)
                return KafkaError::invalidArgument(
                    QStringLiteral("%1:%2: unknown Groupscope property \"%3\"")
                        .arg(sourceName)
                        .arg(lineNumber)
                        .arg(key));
            continue;
        }
        // Validate each property as it comes, so the error names the line it came from.
        ConfHandle probe(rd_kafka_conf_new());
        char reason[512] = {};
        if (rd_kafka_conf_set(probe.get(), key.toUtf8().constData(), value.toUtf8().constData(),
                              reason, sizeof reason) != RD_KAFKA_CONF_OK)
            return KafkaError::invalidArgument(QStringLiteral("%1:%2: property \"%3\": %4")
                                                   .arg(sourceName)
                                                   .arg(lineNumber)
                                                   .arg(key, QString::fromUtf8(reason)));
    }
    return profile;
}

} // namespace groupscope::kafka
