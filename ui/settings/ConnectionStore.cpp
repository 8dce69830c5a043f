#include "settings/ConnectionStore.h"

#include <QSettings>

namespace groupscope::ui {

namespace {

const QString groupName = QStringLiteral("connections");

} // namespace

QList<SavedConnection> ConnectionStore::load() {
    QSettings settings;
    QList<SavedConnection> connections;
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
            if (equals > 0)
                profile.extraProperties.append({line.left(equals), line.mid(equals + 1)});
        }
        saved.readOnly = settings.value(QStringLiteral("readOnly"), false).toBool();
        saved.refreshInterval = std::chrono::milliseconds(
            settings.value(QStringLiteral("refreshMs"), 2000).toLongLong());
        saved.colour = settings.value(QStringLiteral("colour")).toString();
        saved.production = settings.value(QStringLiteral("production"), false).toBool();
        saved.isSavedProfile = true;
        if (!profile.name.isEmpty())
            connections.append(saved);
    }
    settings.endArray();
    return connections;
}

void ConnectionStore::save(const QList<SavedConnection>& connections) {
    QSettings settings;
    settings.remove(groupName);
    settings.beginWriteArray(groupName, int(connections.size()));
    for (int i = 0; i < connections.size(); ++i) {
        settings.setArrayIndex(i);
        const kafka::ConnectionProfile& profile = connections.at(i).profile;
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
            // A secret typed into the extra properties is not stored either.
            if (!kafka::ConnectionProfile::isSecretProperty(key))
                extra.append(key + QLatin1Char('=') + value);
        settings.setValue(QStringLiteral("extraProperties"), extra);
        settings.setValue(QStringLiteral("readOnly"), connections.at(i).readOnly);
        settings.setValue(QStringLiteral("refreshMs"),
                          qlonglong(connections.at(i).refreshInterval.count()));
        settings.setValue(QStringLiteral("colour"), connections.at(i).colour);
        settings.setValue(QStringLiteral("production"), connections.at(i).production);
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
