#include "settings/ConnectionStore.h"

#include "settings/SecretStore.h"

#include <QSettings>

namespace groupscope::ui {

namespace {

const QString groupName = QStringLiteral("connections");

} // namespace

const QString ConnectionStore::saslPasswordKey = QStringLiteral("sasl-password");
const QString ConnectionStore::keyPasswordKey = QStringLiteral("ssl-key-password");

QString ConnectionStore::secretKey(const QString& profileName, const QString& which) {
    return profileName + QLatin1Char('/') + which;
}

QString ConnectionStore::propertySecretKey(const QString& profileName, const QString& property) {
    return secretKey(profileName, QStringLiteral("property/") + property);
}

SavedConnection ConnectionStore::keepSecrets(const SavedConnection& connection) {
    SavedConnection kept = connection;
    kafka::ConnectionProfile& profile = kept.profile;
    auto& store = SecretStore::instance();
    if (!profile.saslPassword.isEmpty())
        store.write(secretKey(profile.name, saslPasswordKey), profile.saslPassword);
    if (!profile.sslKeyPassword.isEmpty())
        store.write(secretKey(profile.name, keyPasswordKey), profile.sslKeyPassword);
    profile.saslPassword.clear();
    profile.sslKeyPassword.clear();
    QList<QPair<QString, QString>> plain;
    for (const auto& [key, value] : std::as_const(profile.extraProperties)) {
        if (!kafka::ConnectionProfile::isSecretProperty(key)) {
            plain.append({key, value});
            continue;
        }
        store.write(propertySecretKey(profile.name, key), value);
        if (!kept.secretProperties.contains(key))
            kept.secretProperties.append(key);
    }
    profile.extraProperties = plain;
    return kept;
}

void ConnectionStore::forgetSecrets(const SavedConnection& connection) {
    auto& store = SecretStore::instance();
    const QString& name = connection.profile.name;
    store.forget(secretKey(name, saslPasswordKey));
    store.forget(secretKey(name, keyPasswordKey));
    for (const QString& property : connection.secretProperties)
        store.forget(propertySecretKey(name, property));
}

QList<SavedConnection> ConnectionStore::load() {
    QSettings settings;
    QList<SavedConnection> connections;
    bool foundSecretInClear = false;
    const int count = settings.beginReadArray(groupName);
    for (int i = 0; i < count; ++i) {
        settings.setArrayIndex(i);
        SavedConnection saved;
        kafka::ConnectionProfile& profile = saved.profile;
        profile.name = settings.value(QStringLiteral("name")).toString();
        profile.bootstrapServers = settings.value(QStringLiteral("bootstrapServers")).toString();
        profile.securityProtocol = settings.value(QStringLiteral("securityProtocol")).toString();
        profile.saslMechanism = settings.value(QStringLiteral("saslMechanism")).toString();
        profile.saslUsername = settings.value(QStringLiteral("saslUsername")).toString();
        profile.sslCaLocation = settings.value(QStringLiteral("sslCaLocation")).toString();
        profile.sslCertificateLocation =
            settings.value(QStringLiteral("sslCertificateLocation")).toString();
        profile.sslKeyLocation = settings.value(QStringLiteral("sslKeyLocation")).toString();
        // Profiles saved before the option existed verify, as every new one does.
        profile.tlsVerification = settings.value(QStringLiteral("tlsVerification"), true).toBool();
        const QStringList extra = settings.value(QStringLiteral("extraProperties")).toStringList();
        for (const QString& line : extra) {
            const qsizetype equals = line.indexOf(QLatin1Char('='));
            if (equals <= 0)
                continue;
            profile.extraProperties.append({line.left(equals), line.mid(equals + 1)});
            if (kafka::ConnectionProfile::isSecretProperty(line.left(equals)))
                foundSecretInClear = true;
        }
        saved.secretProperties = settings.value(QStringLiteral("secretProperties")).toStringList();
        saved.readOnly = settings.value(QStringLiteral("readOnly"), false).toBool();
        saved.refreshInterval = std::chrono::milliseconds(
            settings.value(QStringLiteral("refreshMs"), 2000).toLongLong());
        saved.colour = settings.value(QStringLiteral("colour")).toString();
        saved.production = settings.value(QStringLiteral("production"), false).toBool();
        saved.isSavedProfile = true;
        if (!profile.name.isEmpty())
            connections.append(keepSecrets(saved));
    }
    settings.endArray();
    if (foundSecretInClear)
        save(connections); // the clear copies leave the file now that SecretStore has them
    return connections;
}

void ConnectionStore::save(const QList<SavedConnection>& connections) {
    QSettings settings;
    settings.remove(groupName);
    settings.beginWriteArray(groupName, int(connections.size()));
    for (int i = 0; i < connections.size(); ++i) {
        settings.setArrayIndex(i);
        const SavedConnection connection = keepSecrets(connections.at(i));
        const kafka::ConnectionProfile& profile = connection.profile;
        settings.setValue(QStringLiteral("name"), profile.name);
        settings.setValue(QStringLiteral("bootstrapServers"), profile.bootstrapServers);
        settings.setValue(QStringLiteral("securityProtocol"), profile.securityProtocol);
        settings.setValue(QStringLiteral("saslMechanism"), profile.saslMechanism);
        settings.setValue(QStringLiteral("saslUsername"), profile.saslUsername);
        settings.setValue(QStringLiteral("sslCaLocation"), profile.sslCaLocation);
        settings.setValue(QStringLiteral("sslCertificateLocation"), profile.sslCertificateLocation);
        settings.setValue(QStringLiteral("sslKeyLocation"), profile.sslKeyLocation);
        settings.setValue(QStringLiteral("tlsVerification"), profile.tlsVerification);
        QStringList extra;
        for (const auto& [key, value] : profile.extraProperties)
            extra.append(key + QLatin1Char('=') + value);
        settings.setValue(QStringLiteral("extraProperties"), extra);
        settings.setValue(QStringLiteral("secretProperties"), connection.secretProperties);
        settings.setValue(QStringLiteral("readOnly"), connection.readOnly);
        settings.setValue(QStringLiteral("refreshMs"),
                          qlonglong(connection.refreshInterval.count()));
        settings.setValue(QStringLiteral("colour"), connection.colour);
        settings.setValue(QStringLiteral("production"), connection.production);
    }
    settings.endArray();
}

QString ConnectionStore::lastUsed() {
    return QSettings().value(QStringLiteral("connection/lastProfile")).toString();
}

void ConnectionStore::setLastUsed(const QString& name) {
    QSettings().setValue(QStringLiteral("connection/lastProfile"), name);
}

} // namespace groupscope::ui
