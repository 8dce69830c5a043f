// What the group protocol client reads from a connection profile (ConnectionSecurity), the
// tokens it makes for OAUTHBEARER (OAuthTokenSource), and which client reads the groups
// (GroupClientChoice): the same librdkafka property names, refusals that name the setting
// and never a secret, and the note that says what the librdkafka fallback costs.
#include "kafka/GroupClientChoice.h"
#include "kafka/protocol/ConnectionSecurity.h"
#include "kafka/protocol/OAuthTokenAnswer.h"
#include "kafka/protocol/OAuthTokenSource.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace groupscope;
using kafka::GroupClientChoice;
using kafka::protocol::ConnectionSecurity;
using kafka::protocol::JwtClaims;
using kafka::protocol::OAuthTokenSource;

namespace {

kafka::ConnectionProfile profileOf(const QString& text) {
    auto profile = kafka::ConnectionProfile::fromCommandConfigText(
        QStringLiteral("bootstrap.servers=127.0.0.1:9092\n") + text, QStringLiteral("test"));
    if (!profile)
        qFatal("%s", qPrintable(profile.error().message));
    return profile.value();
}

QJsonObject decodedPart(const QString& token, int part) {
    return QJsonDocument::fromJson(
               QByteArray::fromBase64(token.section(u'.', part, part).toLatin1(),
                                      QByteArray::Base64UrlEncoding))
        .object();
}

} // namespace

class TestConnectionSecurity : public QObject {
    Q_OBJECT
private slots:
    void init() { qunsetenv(GroupClientChoice::environmentVariable); }
    void cleanup() { qunsetenv(GroupClientChoice::environmentVariable); }

    void tlsAndScramAreReadWithVerificationOn() {
        const auto security = ConnectionSecurity::fromProfile(
            profileOf(QStringLiteral("security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n"
                                     "sasl.username=alice\nsasl.password=secret\n"
                                     "ssl.ca.location=/tmp/ca.pem\n")));
        QVERIFY(security.ok());
        QVERIFY(security.value().tls);
        QVERIFY(security.value().verifyCertificate);
        QVERIFY(security.value().verifyHostName);
        QCOMPARE(security.value().saslMechanism, QStringLiteral("SCRAM-SHA-512"));
        QCOMPARE(security.value().caLocation, QStringLiteral("/tmp/ca.pem"));
    }

    void hostNameCheckCanBeTurnedOffAlone() {
        const auto security = ConnectionSecurity::fromProfile(profileOf(
            QStringLiteral("security.protocol=SSL\nssl.endpoint.identification.algorithm=none\n")));
        QVERIFY(security.ok());
        QVERIFY(security.value().verifyCertificate);
        QVERIFY(!security.value().verifyHostName);
    }

    void whatThisClientDoesNotSpeakIsNamed_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("named");
        QTest::newRow("GSSAPI") << QStringLiteral("security.protocol=SASL_PLAINTEXT\n"
                                                  "sasl.mechanism=GSSAPI\n")
                                << QStringLiteral("SASL mechanism GSSAPI");
        QTest::newRow("no mechanism: librdkafka's GSSAPI")
            << QStringLiteral("security.protocol=SASL_SSL\n")
            << QStringLiteral("SASL mechanism GSSAPI");
        QTest::newRow("PKCS#12 keystore")
            << QStringLiteral("security.protocol=SSL\nssl.keystore.location=/tmp/k.p12\n"
                              "ssl.keystore.password=store-secret\n")
            << QStringLiteral("ssl.keystore.location");
        QTest::newRow("OAUTHBEARER without a token")
            << QStringLiteral("security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\n")
            << QStringLiteral("OAUTHBEARER without a token");
        QTest::newRow("unsecured JWT without a principal")
            << QStringLiteral("security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\n"
                              "enable.sasl.oauthbearer.unsecure.jwt=true\n"
                              "sasl.oauthbearer.config=scope=secret-scope\n")
            << QStringLiteral("without a principal");
        QTest::newRow("unsecured JWT, unknown key")
            << QStringLiteral("security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\n"
                              "enable.sasl.oauthbearer.unsecure.jwt=true\n"
                              "sasl.oauthbearer.config=principal=alice token=secret-token\n")
            << QStringLiteral("sasl.oauthbearer.config key token");
        QTest::newRow("OIDC with a JWT assertion")
            << QStringLiteral("security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\n"
                              "sasl.oauthbearer.method=oidc\n"
                              "sasl.oauthbearer.token.endpoint.url=http://127.0.0.1:1/t\n"
                              "sasl.oauthbearer.client.id=id\n"
                              "sasl.oauthbearer.client.secret=secret-client\n"
                              "sasl.oauthbearer.grant.type=urn:ietf:params:oauth:grant-type:"
                              "jwt-bearer\n")
            << QStringLiteral("sasl.oauthbearer.grant.type=urn:ietf:params:oauth:grant-type:"
                              "jwt-bearer");
    }

    void whatThisClientDoesNotSpeakIsNamed() {
        QFETCH(QString, config);
        QFETCH(QString, named);
        const auto profile = profileOf(config);
        const auto security = ConnectionSecurity::fromProfile(profile);
        QVERIFY(!security.ok());
        QVERIFY2(security.error().message.contains(named), qPrintable(security.error().message));
        QVERIFY2(!security.error().message.contains(u"secret"),
                 qPrintable(security.error().message));

        // The same reason is the fallback's, with what it costs.
        const auto choice = GroupClientChoice::forProfile(profile);
        QVERIFY(!choice.ownClient);
        QVERIFY(choice.fallbackNote().contains(named));
        QVERIFY(choice.fallbackNote().contains(
            QStringLiteral("the cluster is read through librdkafka instead, which cannot show "
                           "share or streams groups, member and group epochs")));
        QVERIFY(!choice.fallbackNote().contains(u"secret"));
    }

    void environmentForcesLibrdkafka() {
        const auto profile = profileOf({});
        QVERIFY(GroupClientChoice::forProfile(profile).ownClient);
        QVERIFY(GroupClientChoice::forProfile(profile).fallbackNote().isEmpty());
        qputenv(GroupClientChoice::environmentVariable, "librdkafka");
        const auto forced = GroupClientChoice::forProfile(profile);
        QVERIFY(!forced.ownClient);
        QVERIFY2(forced.fallbackNote().startsWith(
                     QStringLiteral("GROUPSCOPE_GROUP_CLIENT=librdkafka is set; the cluster is "
                                    "read through librdkafka")),
                 qPrintable(forced.fallbackNote()));
        qputenv(GroupClientChoice::environmentVariable, "own");
        QVERIFY(GroupClientChoice::forProfile(profile).ownClient);
    }

    void readyTokenIsTakenAsItIs() {
        const auto security = ConnectionSecurity::fromProfile(
            profileOf(QStringLiteral("security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\n"
                                     "sasl.oauthbearer.config=token=abc.def.\n")));
        QVERIFY(security.ok());
        QCOMPARE(security.value().oauthStaticToken, QStringLiteral("abc.def."));
        const auto token = OAuthTokenSource::token(security.value(), {});
        QVERIFY(token.ok());
        QCOMPARE(token.value(), QStringLiteral("abc.def."));
    }

    // librdkafka's unsecured JWT: {"alg":"none"}, the principal in its claim, iat and exp
    // lifeSeconds apart, the scope as an array, no signature; extensions go with it.
    void unsecuredTokenIsLibrdkafkas() {
        const auto security = ConnectionSecurity::fromProfile(profileOf(QStringLiteral(
            "security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\n"
            "enable.sasl.oauthbearer.unsecure.jwt=true\n"
            "sasl.oauthbearer.config=principal=alice scope=read,write lifeSeconds=120 "
            "principalClaimName=user extension_traceId=abc\n")));
        QVERIFY2(security.ok(), qPrintable(security.ok() ? QString() : security.error().message));
        QCOMPARE(
            security.value().oauthExtensions,
            (QList<QPair<QString, QString>>{{QStringLiteral("traceId"), QStringLiteral("abc")}}));
        const qint64 before = QDateTime::currentSecsSinceEpoch();
        const auto token = OAuthTokenSource::token(security.value(), {});
        QVERIFY(token.ok());
        QVERIFY(token.value().endsWith(u'.'));
        QCOMPARE(token.value().count(u'.'), 2);
        QCOMPARE(decodedPart(token.value(), 0),
                 (QJsonObject{{QStringLiteral("alg"), QStringLiteral("none")}}));
        const QJsonObject claims = decodedPart(token.value(), 1);
        QCOMPARE(claims.value(u"user").toString(), QStringLiteral("alice"));
        QCOMPARE(claims.value(u"scope").toArray(),
                 (QJsonArray{QStringLiteral("read"), QStringLiteral("write")}));
        const qint64 issued = claims.value(u"iat").toInteger();
        QVERIFY(issued >= before && issued <= before + 5);
        QCOMPARE(claims.value(u"exp").toInteger() - issued, 120);

        const auto read = JwtClaims::of(token.value(), QStringLiteral("user"));
        QCOMPARE(read.principal, QStringLiteral("alice"));
        QCOMPARE(read.expiresAtMs, std::optional<qint64>((issued + 120) * 1000));
        QCOMPARE(JwtClaims::of(QStringLiteral("not a jwt")).expiresAtMs, std::optional<qint64>());
    }

    void oidcSettingsAreRead() {
        const auto security = ConnectionSecurity::fromProfile(profileOf(QStringLiteral(
            "security.protocol=SASL_SSL\nsasl.mechanism=OAUTHBEARER\n"
            "sasl.oauthbearer.method=OIDC\n"
            "sasl.oauthbearer.token.endpoint.url=https://127.0.0.1:1/token\n"
            "sasl.oauthbearer.client.id=groupscope\nsasl.oauthbearer.client.secret=s3\n"
            "sasl.oauthbearer.scope=kafka\nsasl.oauthbearer.extensions=a=1,b=2\n"
            "https.ca.location=/tmp/idp.pem\n")));
        QVERIFY2(security.ok(), qPrintable(security.ok() ? QString() : security.error().message));
        QCOMPARE(security.value().oauthTokenEndpoint, QStringLiteral("https://127.0.0.1:1/token"));
        QCOMPARE(security.value().oauthClientId, QStringLiteral("groupscope"));
        QCOMPARE(security.value().oauthClientSecret, QStringLiteral("s3"));
        QCOMPARE(security.value().oauthScope, QStringLiteral("kafka"));
        QCOMPARE(security.value().oauthCaLocation, QStringLiteral("/tmp/idp.pem"));
        QCOMPARE(security.value().oauthExtensions.size(), 2);
    }

    // Nothing listens on port 1: the fetch fails at once, naming the endpoint without its
    // user info, and never the secret.
    void unreachableTokenEndpointFailsWithoutTheSecret() {
        ConnectionSecurity security;
        security.saslMechanism = QStringLiteral("OAUTHBEARER");
        security.oauthTokenEndpoint = QStringLiteral("http://user:pw@127.0.0.1:1/token?x=y");
        security.oauthClientId = QStringLiteral("groupscope");
        security.oauthClientSecret = QStringLiteral("client-secret-value");
        const auto token = OAuthTokenSource::token(security, std::chrono::steady_clock::now() +
                                                                 std::chrono::seconds(10));
        QVERIFY(!token.ok());
        const QString message = token.error().message;
        QVERIFY2(message.startsWith(QStringLiteral("authentication failed: could not get an OAuth "
                                                   "token from http://127.0.0.1:1/token")),
                 qPrintable(message));
        QVERIFY(!message.contains(u"client-secret-value"));
        QVERIFY(!message.contains(u"pw@"));
    }
};

QTEST_GUILESS_MAIN(TestConnectionSecurity)
#include "TestConnectionSecurity.moc"
