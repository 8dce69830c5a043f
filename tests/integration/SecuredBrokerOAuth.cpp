// TestSecuredBroker, continued: SASL/OAUTHBEARER against the secured test broker (Kafka's
// unsecured validator accepts an unsigned JWT whose "sub" is one of its users) through both
// group clients, in the three ways a profile gives a token: a ready one, librdkafka's
// unsecured JWT, and OIDC client credentials from a loopback token endpoint
// (tests/support/oidc-token-endpoint). A refused token and a wrong client secret fail fast
// without showing either. Then the profiles only librdkafka speaks (a PKCS#12 keystore,
// GSSAPI): the groups are read through librdkafka, and the CLI says once what that costs.
#include "TestSecuredBroker.h"

#include "kafka/GroupClientChoice.h"
#include "kafka/GroupProtocolClient.h"
#include "kafka/protocol/Apis.h"
#include "kafka/protocol/BrokerConnection.h"
#include "kafka/protocol/ConnectionSecurity.h"
#include "kafka/protocol/MessageCodec.h"
#include "kafka/protocol/OAuthTokenSource.h"

#include <QDateTime>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTest>
#include <QUuid>

using namespace groupscope;
using namespace std::chrono_literals;
using kafka::protocol::BrokerConnection;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");
const QString tokenEndpointScript =
    QStringLiteral(GROUPSCOPE_TESTBED_DIR "/../support/oidc-token-endpoint");
const QString oidcClientId = QStringLiteral("groupscope-test");

QString randomSecret() {
    return QUuid::createUuid().toString(QUuid::Id128);
}

QByteArray base64Url(const QJsonObject& object) {
    return QJsonDocument(object)
        .toJson(QJsonDocument::Compact)
        .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

// What Kafka's unsecured validator accepts: {"alg":"none"}, "sub", an "exp" ahead, no
// signature. Written here, not by the code under test.
QString unsignedToken(const QString& subject) {
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    return QString::fromLatin1(base64Url({{QStringLiteral("alg"), QStringLiteral("none")}}) + '.' +
                               base64Url({{QStringLiteral("sub"), subject},
                                          {QStringLiteral("iat"), now},
                                          {QStringLiteral("exp"), now + 3600}}) +
                               '.');
}

// tests/support/oidc-token-endpoint for one test function; stopped when it goes.
class TokenEndpoint {
public:
    ~TokenEndpoint() {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }

    // Tokens for `subject`, to oidcClientId with `secret`; false when it did not start.
    bool start(const QString& subject, const QString& secret) {
        m_process.start(QStringLiteral("/usr/bin/python3"),
                        {tokenEndpointScript, subject, oidcClientId});
        if (!m_process.waitForStarted(10000))
            return false;
        m_process.write(secret.toUtf8() + '\n');
        return test::waitFor(
                   [&] {
                       m_process.waitForReadyRead(100);
                       m_output += m_process.readAllStandardOutput();
                       return m_output.contains('\n') || m_process.state() == QProcess::NotRunning;
                   },
                   20s) &&
               m_output.startsWith("port=");
    }

    QString url() const {
        const QByteArray port = m_output.left(m_output.indexOf('\n')).mid(5);
        return QStringLiteral("http://127.0.0.1:%1/token").arg(QString::fromLatin1(port));
    }

    // The token requests answered so far. Each is printed before it is answered, so every
    // request a finished call made is in the pipe by now.
    int requests() {
        while (m_process.waitForReadyRead(200))
            m_output += m_process.readAllStandardOutput();
        m_output += m_process.readAllStandardOutput();
        return int(m_output.count("token-request"));
    }

private:
    QProcess m_process;
    QByteArray m_output;
};

} // namespace

QString TestSecuredBroker::oauthConfig(const QStringList& lines) {
    return writeConfig(QStringList{QStringLiteral("bootstrap.servers=") + m_broker.bootstrap(),
                                   QStringLiteral("security.protocol=SASL_SSL"),
                                   QStringLiteral("sasl.mechanism=OAUTHBEARER"),
                                   QStringLiteral("ssl.ca.location=") + m_broker.caFile()} +
                       lines);
}

void TestSecuredBroker::oauthBearerListsAndDescribes_data() {
    QTest::addColumn<QString>("way");
    QTest::addColumn<bool>("librdkafka");
    for (const bool librdkafka : {false, true})
        for (const char* way : {"ready token", "unsecured JWT", "OIDC"})
            QTest::addRow("%s, %s", way, librdkafka ? "librdkafka" : "own client")
                << QString::fromLatin1(way) << librdkafka;
}

void TestSecuredBroker::oauthBearerListsAndDescribes() {
    QFETCH(QString, way);
    QFETCH(bool, librdkafka);
    const GroupClientOfRow groupClient(librdkafka);
    kafka::protocol::OAuthTokenSource::clearCache();
    TokenEndpoint endpoint;
    QString config;
    if (way == u"ready token") {
        config = oauthConfig({QStringLiteral("sasl.oauthbearer.config=token=") +
                              unsignedToken(QStringLiteral("alice"))});
    } else if (way == u"unsecured JWT") {
        config = oauthConfig({QStringLiteral("enable.sasl.oauthbearer.unsecure.jwt=true"),
                              QStringLiteral("sasl.oauthbearer.config=principal=alice "
                                             "scope=groups,offsets lifeSeconds=600")});
    } else {
        const QString secret = randomSecret();
        QVERIFY(endpoint.start(QStringLiteral("alice"), secret));
        config =
            oauthConfig({QStringLiteral("sasl.oauthbearer.method=oidc"),
                         QStringLiteral("sasl.oauthbearer.token.endpoint.url=") + endpoint.url(),
                         QStringLiteral("sasl.oauthbearer.client.id=") + oidcClientId,
                         QStringLiteral("sasl.oauthbearer.client.secret=") + secret,
                         QStringLiteral("sasl.oauthbearer.scope=groups")});
    }
    auto client = adminFor(config);
    QVERIFY(client);
    checkGroupIsRead(*client);
    // Log offsets are librdkafka's in both cases: its handle has the token as well.
    const auto logOffsets = client->logOffsets({{m_topic, 0}});
    QVERIFY2(logOffsets.ok(),
             qPrintable(logOffsets.ok() ? QString() : logOffsets.error().toString()));
    QCOMPARE(logOffsets.value().size(), 1);
    QCOMPARE(logOffsets.value().first().logEndOffset, 10);
    if (way == u"OIDC")
        QVERIFY(endpoint.requests() >= 1);
}

void TestSecuredBroker::refusedOAuthTokenFailsFast() {
    QFETCH(bool, librdkafka);
    const GroupClientOfRow groupClient(librdkafka);
    // Not a JWT: the broker's validator refuses it (status invalid_token).
    const QString token = QStringLiteral("not-a-jwt-") + randomSecret();
    listFailsFastWith(oauthConfig({QStringLiteral("sasl.oauthbearer.config=token=") + token}),
                      {"authentication failed", "invalid_token"}, "refused OAuth token",
                      {token.toUtf8()});
}

void TestSecuredBroker::wrongOidcClientSecretFailsFast() {
    QFETCH(bool, librdkafka);
    const GroupClientOfRow groupClient(librdkafka);
    kafka::protocol::OAuthTokenSource::clearCache();
    TokenEndpoint endpoint;
    const QString secret = randomSecret();
    QVERIFY(endpoint.start(QStringLiteral("alice"), secret));
    const QString wrong = randomSecret();
    listFailsFastWith(
        oauthConfig({QStringLiteral("sasl.oauthbearer.method=oidc"),
                     QStringLiteral("sasl.oauthbearer.token.endpoint.url=") + endpoint.url(),
                     QStringLiteral("sasl.oauthbearer.client.id=") + oidcClientId,
                     QStringLiteral("sasl.oauthbearer.client.secret=") + wrong}),
        {"authentication failed", "token", "invalid_client"}, "wrong client secret",
        {wrong.toUtf8(), secret.toUtf8()});
    QVERIFY(endpoint.requests() >= 1);
}

// The connections to every broker share one token until 80 % of its lifetime: one request
// to the endpoint for the bootstrap, broker and coordinator connections of two clients.
// (An AdminClient's librdkafka handle fetches its own token as well, so the group
// protocol clients are used alone here.)
void TestSecuredBroker::oidcTokenIsFetchedOncePerLifetime() {
    const GroupClientOfRow groupClient(false);
    kafka::protocol::OAuthTokenSource::clearCache();
    TokenEndpoint endpoint;
    const QString secret = randomSecret();
    QVERIFY(endpoint.start(QStringLiteral("alice"), secret));
    const auto profile = kafka::ConnectionProfile::fromCommandConfigFile(
        oauthConfig({QStringLiteral("sasl.oauthbearer.method=oidc"),
                     QStringLiteral("sasl.oauthbearer.token.endpoint.url=") + endpoint.url(),
                     QStringLiteral("sasl.oauthbearer.client.id=") + oidcClientId,
                     QStringLiteral("sasl.oauthbearer.client.secret=") + secret}));
    QVERIFY(profile.ok());
    for (int round = 0; round < 2; ++round) {
        auto client = kafka::GroupProtocolClient::create(profile.value(), 20s);
        QVERIFY(client.ok());
        QVERIFY(client.value()->listGroups().ok());
        const auto committed = client.value()->committedOffsets({m_group});
        QVERIFY2(committed.ok(),
                 qPrintable(committed.ok() ? QString() : committed.error().toString()));
        QCOMPARE(committed.value().value(m_group).size(), 3);
    }
    QCOMPARE(endpoint.requests(), 1);
}

// The broker ends an OAUTHBEARER session when its token expires (KIP-368; the test broker
// sets connections.max.reauth.ms): the own client sees the lifetime it was given and logs
// in again on a new connection instead of failing a request.
void TestSecuredBroker::expiredSaslSessionIsReopened() {
    const GroupClientOfRow groupClient(false);
    const QString config =
        oauthConfig({QStringLiteral("enable.sasl.oauthbearer.unsecure.jwt=true"),
                     QStringLiteral("sasl.oauthbearer.config=principal=alice lifeSeconds=2")});
    const auto profile = kafka::ConnectionProfile::fromCommandConfigFile(config);
    QVERIFY(profile.ok());
    auto groups = kafka::GroupProtocolClient::create(profile.value(), 20s);
    QVERIFY(groups.ok());
    QVERIFY(groups.value()->listGroups().ok());

    // A connection of its own, opened after the client's: once it is past its lifetime,
    // so are theirs.
    const auto security = kafka::protocol::ConnectionSecurity::fromProfile(profile.value());
    QVERIFY(security.ok());
    const QString bootstrap = m_broker.bootstrap();
    const kafka::protocol::BrokerAddress address{bootstrap.section(u':', 0, 0),
                                                 bootstrap.section(u':', 1).toInt()};
    auto probe =
        BrokerConnection::open(address, security.value(), BrokerConnection::Clock::now() + 20s);
    QVERIFY2(probe.ok(), qPrintable(probe.ok() ? QString() : probe.error().message));
    QVERIFY(probe.value()->isOpen());
    QVERIFY(test::waitFor([&] { return !probe.value()->isOpen(); }, 20s));
    // The broker means it: a request on the old session is refused soon after.
    const auto& metadata = kafka::protocol::metadataApi();
    auto request = kafka::protocol::MessageCodec::make(metadata.request);
    request.set("Topics", kafka::protocol::StructList());
    request.setBool("AllowAutoTopicCreation", false);
    QVERIFY(test::waitFor(
        [&] {
            return !probe.value()->call(metadata, request, BrokerConnection::Clock::now() + 5s);
        },
        20s));

    const auto again = groups.value()->listGroups();
    QVERIFY2(again.ok(), qPrintable(again.ok() ? QString() : again.error().toString()));
    QVERIFY(
        std::any_of(again.value().cbegin(), again.value().cend(),
                    [&](const kafka::GroupListing& group) { return group.groupId == m_group; }));
}

// A PKCS#12 keystore (ssl.keystore.location) is librdkafka's alone: the groups are read
// through it, every answer still right, and the CLI says once what that costs.
void TestSecuredBroker::keystoreProfileFallsBackToLibrdkafkaWithOneNote() {
    const GroupClientOfRow groupClient(false); // the profile decides
    const QString keystore = m_scratch.filePath(QStringLiteral("alice.p12"));
    const QString storePassword = randomSecret();
    QProcess openssl;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(
        QStringLiteral("KEY_PASSPHRASE"),
        m_broker.clientProperty(QStringLiteral("alice"), QStringLiteral("ssl.key.password")));
    environment.insert(QStringLiteral("STORE_PASSWORD"), storePassword);
    openssl.setProcessEnvironment(environment);
    openssl.start(
        QStringLiteral("openssl"),
        {QStringLiteral("pkcs12"), QStringLiteral("-export"), QStringLiteral("-in"),
         m_broker.directory() + QStringLiteral("/tls/client.pem"), QStringLiteral("-inkey"),
         m_broker.directory() + QStringLiteral("/tls/client.key"), QStringLiteral("-passin"),
         QStringLiteral("env:KEY_PASSPHRASE"), QStringLiteral("-passout"),
         QStringLiteral("env:STORE_PASSWORD"), QStringLiteral("-out"), keystore});
    QVERIFY(openssl.waitForFinished(30000));
    QVERIFY2(openssl.exitCode() == 0, openssl.readAllStandardError().constData());

    QFile source(m_broker.clientConfig(QStringLiteral("alice")));
    QVERIFY(source.open(QIODevice::ReadOnly));
    QStringList lines;
    for (const QString& line : QString::fromUtf8(source.readAll()).split(u'\n'))
        if (!line.startsWith(u"ssl.certificate.location") && !line.startsWith(u"ssl.key."))
            lines.append(line);
    const QString config =
        writeConfig(lines + QStringList{QStringLiteral("ssl.keystore.location=") + keystore,
                                        QStringLiteral("ssl.keystore.password=") + storePassword});

    const auto profile = kafka::ConnectionProfile::fromCommandConfigFile(config);
    QVERIFY(profile.ok());
    auto client = kafka::AdminClient::create(profile.value(), 20s);
    QVERIFY(client.ok());
    QVERIFY(client.value()->isFallback());
    const QString note = client.value()->fallbackNote();
    QVERIFY2(note.contains(QStringLiteral("ssl.keystore.location")) &&
                 note.contains(QStringLiteral("share or streams groups")),
             qPrintable(note));
    checkGroupIsRead(*client.value());

    const auto listed = cli(config, {QStringLiteral("list")});
    QVERIFY2(listed.ok(), listed.err.constData());
    QVERIFY(QString::fromUtf8(listed.out).split(u'\n').contains(m_group));
    QCOMPARE(listed.err.count("Note: "), 1);
    QVERIFY2(listed.err.contains("Note: Groupscope's own group protocol client does not support "
                                 "ssl.keystore.location; the cluster is read through librdkafka"),
             listed.err.constData());
    QVERIFY(!listed.err.contains(storePassword.toUtf8()));
}

// GSSAPI (Kerberos) is librdkafka's alone, when it was built with it; the note comes
// before anything is sent. (This test bed's librdkafka has no GSSAPI: its error follows.)
void TestSecuredBroker::gssapiProfileIsNotedAsFallback() {
    const GroupClientOfRow groupClient(false);
    const QString config = writeConfig({QStringLiteral("bootstrap.servers=") + m_broker.bootstrap(),
                                        QStringLiteral("security.protocol=SASL_SSL"),
                                        QStringLiteral("sasl.mechanism=GSSAPI"),
                                        QStringLiteral("ssl.ca.location=") + m_broker.caFile()});
    const auto profile = kafka::ConnectionProfile::fromCommandConfigFile(config);
    QVERIFY(profile.ok());
    const auto choice = kafka::GroupClientChoice::forProfile(profile.value());
    QVERIFY(!choice.ownClient);
    QVERIFY2(choice.fallbackNote().contains(QStringLiteral("SASL mechanism GSSAPI")),
             qPrintable(choice.fallbackNote()));

    const auto listed =
        test::run(cliPath, {QStringLiteral("--command-config"), config, QStringLiteral("--timeout"),
                            QStringLiteral("5000"), QStringLiteral("list")});
    QCOMPARE(listed.err.count("Note: "), 1);
    QVERIFY2(listed.err.startsWith("Note: Groupscope's own group protocol client does not support "
                                   "SASL mechanism GSSAPI; the cluster is read through librdkafka "
                                   "instead, which cannot show share or streams groups"),
             listed.err.constData());
}
