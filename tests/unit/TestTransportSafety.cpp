// A profile whose password can be read on the network path is warned about; an OIDC token
// endpoint over plain http on another host is refused unless the user accepts it by name.
#include "kafka/ClientConf.h"
#include "kafka/ConnectionProfile.h"
#include "kafka/GroupProtocolClient.h"
#include "kafka/TransportSafety.h"

#include "TestBroker.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace groupscope::kafka;

namespace {

ConnectionProfile saslProfile(const QString& protocol, const QString& mechanism,
                              const QString& servers) {
    ConnectionProfile profile;
    profile.bootstrapServers = servers;
    profile.securityProtocol = protocol;
    profile.saslMechanism = mechanism;
    profile.saslUsername = QStringLiteral("alice");
    profile.saslPassword = QStringLiteral("alice-secret");
    return profile;
}

ConnectionProfile oidcProfile(const QString& endpoint) {
    ConnectionProfile profile;
    profile.bootstrapServers = QStringLiteral("127.0.0.1:9092");
    profile.securityProtocol = QStringLiteral("SASL_SSL");
    profile.saslMechanism = QStringLiteral("OAUTHBEARER");
    profile.extraProperties = {
        {QStringLiteral("sasl.oauthbearer.method"), QStringLiteral("oidc")},
        {QStringLiteral("sasl.oauthbearer.token.endpoint.url"), endpoint},
        {QStringLiteral("sasl.oauthbearer.client.id"), QStringLiteral("groupscope")},
        {QStringLiteral("sasl.oauthbearer.client.secret"), QStringLiteral("client-secret")},
    };
    return profile;
}

} // namespace

class TestTransportSafety : public QObject {
    Q_OBJECT
private slots:
    void passwordsReadableOnTheWayAreWarnedAbout_data();
    void passwordsReadableOnTheWayAreWarnedAbout();
    void plainHttpTokenEndpointsElsewhereAreRefused_data();
    void plainHttpTokenEndpointsElsewhereAreRefused();
    void bothClientStacksRefuseThem();
    void groupscopePropertiesAreCheckedAndKeptFromLibrdkafka();
    void theCliSaysSoOnStderr();
};

void TestTransportSafety::passwordsReadableOnTheWayAreWarnedAbout_data() {
    QTest::addColumn<QString>("protocol");
    QTest::addColumn<QString>("mechanism");
    QTest::addColumn<QString>("servers");
    QTest::addColumn<QString>("warning"); // a part of it; empty: no warning
    QTest::newRow("PLAIN in clear") << "SASL_PLAINTEXT"
                                    << "PLAIN"
                                    << "kafka1:9092"
                                    << "sends the password";
    QTest::newRow("PLAIN in clear, also on loopback") << "SASL_PLAINTEXT"
                                                      << "PLAIN"
                                                      << "127.0.0.1:9092"
                                                      << "sends the password";
    QTest::newRow("PLAIN over TLS") << "SASL_SSL"
                                    << "PLAIN"
                                    << "kafka1:9092"
                                    << "";
    QTest::newRow("SCRAM in clear to another host") << "SASL_PLAINTEXT"
                                                    << "SCRAM-SHA-512"
                                                    << "localhost:9092,kafka2:9092"
                                                    << "read and altered";
    QTest::newRow("SCRAM in clear on loopback") << "SASL_PLAINTEXT"
                                                << "SCRAM-SHA-256"
                                                << "localhost:9092,[::1]:9093"
                                                << "";
    QTest::newRow("SCRAM over TLS") << "SASL_SSL"
                                    << "SCRAM-SHA-256"
                                    << "kafka1:9092"
                                    << "";
    QTest::newRow("no SASL") << "PLAINTEXT"
                             << ""
                             << "kafka1:9092"
                             << "";
}

void TestTransportSafety::passwordsReadableOnTheWayAreWarnedAbout() {
    QFETCH(QString, protocol);
    QFETCH(QString, mechanism);
    QFETCH(QString, servers);
    QFETCH(QString, warning);
    const QString said = cleartextCredentialsWarning(saslProfile(protocol, mechanism, servers));
    if (warning.isEmpty())
        QVERIFY2(said.isEmpty(), qPrintable(said));
    else
        QVERIFY2(said.contains(warning) && said.contains(u"SASL_SSL"), qPrintable(said));
    QVERIFY(!said.contains(u"alice-secret"));
}

void TestTransportSafety::plainHttpTokenEndpointsElsewhereAreRefused_data() {
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<bool>("allowed");
    QTest::newRow("https") << "https://idp.example/token" << true;
    QTest::newRow("http on loopback") << "http://127.0.0.1:8080/token" << true;
    QTest::newRow("http on localhost") << "http://localhost:8080/token" << true;
    QTest::newRow("http elsewhere") << "http://idp.example/token" << false;
    QTest::newRow("HTTP elsewhere") << "HTTP://10.1.2.3/token" << false;
}

void TestTransportSafety::plainHttpTokenEndpointsElsewhereAreRefused() {
    QFETCH(QString, endpoint);
    QFETCH(bool, allowed);
    ConnectionProfile profile = oidcProfile(endpoint);
    const Status checked = checkTokenEndpoint(profile);
    QCOMPARE(checked.ok(), allowed);
    if (!allowed) {
        const QString message = checked.error().message;
        QVERIFY2(message.contains(allowInsecureTokenEndpointKey), qPrintable(message));
        QVERIFY(!message.contains(u"client-secret"));
        // Accepted when the user says so, by name.
        profile.extraProperties.append({allowInsecureTokenEndpointKey, QStringLiteral("true")});
        QVERIFY(checkTokenEndpoint(profile).ok());
    }
}

void TestTransportSafety::bothClientStacksRefuseThem() {
    const ConnectionProfile profile = oidcProfile(QStringLiteral("http://idp.example/token"));
    const auto conf = makeConf(profile);
    QVERIFY(!conf);
    QVERIFY2(conf.error().message.contains(u"plain http"), qPrintable(conf.error().message));
    const auto client = GroupProtocolClient::create(profile, std::chrono::seconds(1));
    QVERIFY(!client);
    QVERIFY2(client.error().message.contains(u"plain http"), qPrintable(client.error().message));
}

void TestTransportSafety::groupscopePropertiesAreCheckedAndKeptFromLibrdkafka() {
    const auto accepted = ConnectionProfile::fromCommandConfigText(
        QStringLiteral("bootstrap.servers=127.0.0.1:9092\n%1=true\n")
            .arg(allowInsecureTokenEndpointKey),
        QStringLiteral("client.properties"));
    QVERIFY2(accepted.ok(), accepted ? "" : qPrintable(accepted.error().message));
    // librdkafka would reject a property it does not know: it never sees this one.
    const auto conf = makeConf(accepted.value());
    QVERIFY2(conf.ok(), conf ? "" : qPrintable(conf.error().message));

    const auto misspelt = ConnectionProfile::fromCommandConfigText(
        QStringLiteral("bootstrap.servers=127.0.0.1:9092\ngroupscope.allow.insecure=true\n"),
        QStringLiteral("client.properties"));
    QVERIFY(!misspelt);
    QVERIFY2(misspelt.error().message.contains(
                 u"client.properties:2: unknown Groupscope property \"groupscope.allow.insecure\""),
             qPrintable(misspelt.error().message));
}

void TestTransportSafety::theCliSaysSoOnStderr() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    auto write = [&](const QString& name, const QString& text) {
        QFile file(dir.filePath(name));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text.toUtf8());
    };
    // Nothing listens on port 1 of this machine: the command fails after its warning.
    write(QStringLiteral("plain.properties"),
          QStringLiteral("bootstrap.servers=127.0.0.1:1\nsecurity.protocol=SASL_PLAINTEXT\n"
                         "sasl.mechanism=PLAIN\nsasl.username=alice\n"
                         "sasl.password=alice-secret\n"));
    const QString cli = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");
    const auto plain = groupscope::test::run(
        cli, {QStringLiteral("--command-config"), dir.filePath(QStringLiteral("plain.properties")),
              QStringLiteral("--timeout"), QStringLiteral("1000"), QStringLiteral("list")});
    QVERIFY2(plain.err.contains("Warning: SASL/PLAIN over SASL_PLAINTEXT sends the password"),
             plain.err.constData());
    QVERIFY(!plain.err.contains("alice-secret") && !plain.out.contains("alice-secret"));

    // Refused before anything is sent: no request reaches the token endpoint's host.
    write(QStringLiteral("oidc.properties"),
          QStringLiteral("bootstrap.servers=127.0.0.1:1\nsecurity.protocol=SASL_SSL\n"
                         "sasl.mechanism=OAUTHBEARER\nsasl.oauthbearer.method=oidc\n"
                         "sasl.oauthbearer.token.endpoint.url=http://idp.example/token\n"
                         "sasl.oauthbearer.client.id=groupscope\n"
                         "sasl.oauthbearer.client.secret=client-secret\n"));
    const auto oidc = groupscope::test::run(
        cli, {QStringLiteral("--command-config"), dir.filePath(QStringLiteral("oidc.properties")),
              QStringLiteral("--timeout"), QStringLiteral("1000"), QStringLiteral("list")});
    QVERIFY(!oidc.ok());
    QVERIFY2(oidc.err.contains("is plain http") &&
                 oidc.err.contains(allowInsecureTokenEndpointKey.toUtf8()),
             oidc.err.constData());
    QVERIFY(!oidc.err.contains("client-secret"));
}

QTEST_GUILESS_MAIN(TestTransportSafety)
#include "TestTransportSafety.moc"
