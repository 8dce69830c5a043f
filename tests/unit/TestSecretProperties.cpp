// One rule says which connection properties are secret (never in a file, a log or a
// message). It must cover every property librdkafka itself marks sensitive: this reads
// librdkafka's configuration table from the source the build used, so a librdkafka that
// adds a sensitive property fails here until the rule knows it.
#include "kafka/ConnectionProfile.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

using groupscope::kafka::ConnectionProfile;

class TestSecretProperties : public QObject {
    Q_OBJECT
private slots:
    void everyPropertyLibrdkafkaMarksSensitiveIsSecret();
    void kafkaClientSecretNamesAreSecret_data();
    void kafkaClientSecretNamesAreSecret();
};

void TestSecretProperties::everyPropertyLibrdkafkaMarksSensitiveIsSecret() {
#ifndef GROUPSCOPE_RDKAFKA_CONF_SOURCE
    QSKIP("built against the system's librdkafka, whose source is not at hand");
#else
    QFile source(QStringLiteral(GROUPSCOPE_RDKAFKA_CONF_SOURCE));
    QVERIFY2(source.open(QIODevice::ReadOnly), qPrintable(source.fileName()));
    const QString table = QString::fromUtf8(source.readAll());
    // A table entry: {SCOPE flags, "name", type, ...}, the name sometimes on the next line.
    static const QRegularExpression entry(
        QStringLiteral("\\{\\s*([A-Z_|\\s]*_RK_SENSITIVE[A-Z_|\\s]*),\\s*\"([^\"]+)\""));
    QStringList sensitive;
    for (auto match = entry.globalMatch(table); match.hasNext();)
        sensitive.append(match.next().captured(2));
    // Parsing sanity: librdkafka 2.14 marks 13; fewer means the table's layout changed.
    QVERIFY2(sensitive.size() >= 13, qPrintable(sensitive.join(u", ")));
    QVERIFY(sensitive.contains(QStringLiteral("sasl.password")));
    QStringList notSecret;
    for (const QString& name : std::as_const(sensitive))
        if (!ConnectionProfile::isSecretProperty(name))
            notSecret.append(name);
    QVERIFY2(notSecret.isEmpty(),
             qPrintable(QStringLiteral("librdkafka marks these sensitive, Groupscope does not "
                                       "treat them as secret: %1")
                            .arg(notSecret.join(u", "))));
#endif
}

void TestSecretProperties::kafkaClientSecretNamesAreSecret_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("secret");
    QTest::newRow("truststore password") << "ssl.truststore.password" << true;
    QTest::newRow("JAAS config") << "sasl.jaas.config" << true;
    QTest::newRow("listener JAAS config")
        << "listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config" << true;
    QTest::newRow("client secret") << "sasl.oauthbearer.client.secret" << true;
    QTest::newRow("a future passphrase") << "ssl.engine.key.passphrase" << true;
    QTest::newRow("key material in PEM") << "ssl.keystore.key.pem" << true;
    QTest::newRow("upper case, spaces") << "  SASL.PASSWORD " << true;
    QTest::newRow("client id") << "client.id" << false;
    QTest::newRow("bootstrap servers") << "bootstrap.servers" << false;
    QTest::newRow("host name check") << "ssl.endpoint.identification.algorithm" << false;
    QTest::newRow("a certificate") << "ssl.certificate.pem" << false;
}

void TestSecretProperties::kafkaClientSecretNamesAreSecret() {
    QFETCH(QString, name);
    QFETCH(bool, secret);
    QCOMPARE(ConnectionProfile::isSecretProperty(name), secret);
}

QTEST_GUILESS_MAIN(TestSecretProperties)
#include "TestSecretProperties.moc"
