#include "kafka/TransportSafety.h"

#include <QHostAddress>
#include <QUrl>

namespace groupscope::kafka {

namespace {

// The hosts of a "host:port,[v6]:port" bootstrap list.
QStringList bootstrapHosts(const QString& servers) {
    QStringList hosts;
    for (const QString& entry : servers.split(u',', Qt::SkipEmptyParts)) {
        QString host = entry.trimmed();
        if (const qsizetype scheme = host.indexOf(QLatin1String("://")); scheme >= 0)
            host = host.mid(scheme + 3);
        if (host.startsWith(u'['))
            host = host.mid(1, host.indexOf(u']') - 1);
        else if (host.count(u':') == 1)
            host = host.left(host.indexOf(u':'));
        hosts.append(host);
    }
    return hosts;
}

bool isTrue(const QString& value) {
    return value.compare(u"true", Qt::CaseInsensitive) == 0 || value == u"1";
}

} // namespace

bool isLoopbackHost(const QString& host) {
    if (host.compare(u"localhost", Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

QString cleartextCredentialsWarning(const ConnectionProfile& profile) {
    if (profile.effectiveProperty(QStringLiteral("security.protocol"))
            .compare(u"SASL_PLAINTEXT", Qt::CaseInsensitive) != 0)
        return {};
    QString mechanism = profile.effectiveProperty(QStringLiteral("sasl.mechanism")).toUpper();
    if (mechanism.isEmpty())
        mechanism = profile.effectiveProperty(QStringLiteral("sasl.mechanisms")).toUpper();
    const QString who = profile.name.isEmpty() ? profile.bootstrapServers : profile.name;
    if (mechanism == u"PLAIN")
        return QStringLiteral("SASL/PLAIN over SASL_PLAINTEXT sends the password for %1 in "
                              "clear: anyone on the network path can read it. Use SASL_SSL")
            .arg(who);
    const QStringList hosts = bootstrapHosts(profile.bootstrapServers);
    const bool allLoopback =
        !hosts.isEmpty() && std::all_of(hosts.cbegin(), hosts.cend(), &isLoopbackHost);
    if (mechanism.startsWith(u"SCRAM") && !allLoopback)
        return QStringLiteral("SCRAM over SASL_PLAINTEXT to %1 is not encrypted: the password "
                              "is not sent, but the session and every record can be read and "
                              "altered on the network path. Use SASL_SSL")
            .arg(who);
    return {};
}

Status checkTokenEndpoint(const ConnectionProfile& profile) {
    if (profile.effectiveProperty(QStringLiteral("sasl.oauthbearer.method"))
            .compare(u"oidc", Qt::CaseInsensitive) != 0)
        return Done{};
    const QUrl endpoint(
        profile.effectiveProperty(QStringLiteral("sasl.oauthbearer.token.endpoint.url")));
    if (endpoint.scheme().compare(u"http", Qt::CaseInsensitive) != 0 ||
        isLoopbackHost(endpoint.host()))
        return Done{};
    if (isTrue(profile.effectiveProperty(allowInsecureTokenEndpointKey)))
        return Done{};
    return KafkaError::invalidArgument(
        QStringLiteral("the OIDC token endpoint %1 is plain http: the client secret would cross "
                       "the network in clear. Use https, or set %2=true to accept that")
            .arg(endpoint.toString(QUrl::RemoveUserInfo | QUrl::RemoveQuery),
                 allowInsecureTokenEndpointKey));
}

} // namespace groupscope::kafka
