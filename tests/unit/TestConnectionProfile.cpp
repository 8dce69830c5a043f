#include "kafka/ConnectionProfile.h"

#include "kafka/ClientConf.h"

#include <librdkafka/rdkafka.h>

#include <QTemporaryDir>
#include <QTest>

using groupscope::kafka::ConnectionProfile;

class TestConnectionProfile : public QObject {
    Q_OBJECT
private slots:
    void recognisedKeysFillFields() {
        const auto profile = ConnectionProfile::fromCommandConfigText(
            QStringLiteral("# comment\n! also a comment\n\nsecurity.protocol=SASL_SSL\n"
                           "sasl.mechanism = SCRAM-SHA-512\nsasl.username=alice\n"
                           "sasl.password=s3cr=et\nssl.ca.location=/tmp/ca.pem\n"
                           "socket.timeout.ms=1234\r\n"),
            QStringLiteral("cfg"));
        QVERIFY2(profile.ok(), qPrintable(profile.ok() ? QString() : profile.error().message));
        QCOMPARE(profile.value().securityProtocol, QStringLiteral("SASL_SSL"));
        QCOMPARE(profile.value().saslMechanism, QStringLiteral("SCRAM-SHA-512"));
        QCOMPARE(profile.value().saslUsername, QStringLiteral("alice"));
        QCOMPARE(profile.value().saslPassword,
                 QStringLiteral("s3cr=et")); // only the first '=' splits
        QCOMPARE(profile.value().sslCaLocation, QStringLiteral("/tmp/ca.pem"));
        QCOMPARE(profile.value().extraProperties.size(), 1);
        QCOMPARE(profile.value().extraProperties.first().first,
                 QStringLiteral("socket.timeout.ms"));
        QCOMPARE(profile.value().extraProperties.first().second, QStringLiteral("1234"));
    }

    void errorsNameLineAndKey_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown key") << QStringLiteral("security.protocol=SSL\n\nfoo.bar=1\n")
                                     << QStringLiteral("cfg:3: property \"foo.bar\"");
        QTest::newRow("no equals")
            << QStringLiteral("a.b.c\n") << QStringLiteral("cfg:1: expected key=value");
        QTest::newRow("bad value") << QStringLiteral("#\nsecurity.protocol=BOGUS\n")
                                   << QStringLiteral("cfg:2: property \"security.protocol\"");
        QTest::newRow("empty key")
            << QStringLiteral("=x\n") << QStringLiteral("cfg:1: expected key=value");
        QTest::newRow("space in key")
            << QStringLiteral("socket timeout=1\n")
            << QStringLiteral("cfg:1: key \"socket timeout\" contains a space");
    }
    void errorsNameLineAndKey() {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const auto profile = ConnectionProfile::fromCommandConfigText(text, QStringLiteral("cfg"));
        QVERIFY(!profile.ok());
        QVERIFY2(profile.error().message.startsWith(expected), qPrintable(profile.error().message));
    }

    void malformedSecretLineDoesNotEchoTheSecret() {
        const auto profile = ConnectionProfile::fromCommandConfigText(
            QStringLiteral("sasl.password\n"), QStringLiteral("cfg"));
        QVERIFY(!profile.ok());
        QVERIFY(!profile.error().message.contains(QStringLiteral("sasl.password\"")));
    }

    void missingFileIsAClearError() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("absent.properties"));
        const auto profile = ConnectionProfile::fromCommandConfigFile(path);
        QVERIFY(!profile.ok());
        QVERIFY(profile.error().message.contains(path));
    }

    void profileWinsOverDefaults() {
        ConnectionProfile profile;
        profile.bootstrapServers = QStringLiteral("127.0.0.1:9");
        profile.extraProperties.append({QStringLiteral("client.id"), QStringLiteral("mine")});
        auto conf = groupscope::kafka::makeConf(
            profile, {{QStringLiteral("client.id"), QStringLiteral("default")}});
        QVERIFY(conf.ok());
        char value[64];
        size_t size = sizeof value;
        QCOMPARE(rd_kafka_conf_get(conf.value().get(), "client.id", value, &size),
                 RD_KAFKA_CONF_OK);
        QCOMPARE(QString::fromUtf8(value), QStringLiteral("mine"));
    }
};

QTEST_GUILESS_MAIN(TestConnectionProfile)
#include "TestConnectionProfile.moc"
