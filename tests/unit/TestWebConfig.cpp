// The exporter's --web-config file: the exporter toolkit's format, relative paths from the
// file's directory, every unsupported or malformed line refused with its number; basic-auth
// passwords checked against bcrypt hashes.
#include "export/WebConfig.h"

#include <QTest>

using namespace groupscope::exporter;

namespace {

// bcrypt of "scrape-pass", cost 4 (Python's crypt with METHOD_BLOWFISH).
const QByteArray knownHash = "$2b$04$gL.YfyixrVYaqH3nCWsHBuL7mEVKQq8pUXgwPwArzlYAxlWsXfPxy";

} // namespace

class TestWebConfig : public QObject {
    Q_OBJECT
private slots:
    void readsTheToolkitsFormat() {
        const auto config =
            WebConfig::parse("# exporter toolkit\n"
                             "---\n"
                             "tls_server_config:\n"
                             "  cert_file: tls/server.pem   # relative\n"
                             "  key_file: \"/etc/exporter/server.key\"\n"
                             "  client_auth_type: RequireAndVerifyClientCert\n"
                             "  client_ca_file: 'ca.pem'\n"
                             "\n"
                             "basic_auth_users:\n"
                             "  prometheus: " +
                                 knownHash + "\n  \"other user\": '" + knownHash + "'\n",
                             QStringLiteral("/srv/config/web.yml"));
        QVERIFY2(config.ok(), config ? "" : qPrintable(config.error().message));
        QCOMPARE(config.value().certFile, QStringLiteral("/srv/config/tls/server.pem"));
        QCOMPARE(config.value().keyFile, QStringLiteral("/etc/exporter/server.key"));
        QCOMPARE(config.value().clientCaFile, QStringLiteral("/srv/config/ca.pem"));
        QVERIFY(config.value().requireClientCertificate);
        QVERIFY(config.value().usesTls());
        QCOMPARE(config.value().basicAuthUsers.value(QStringLiteral("prometheus")), knownHash);
        QCOMPARE(config.value().basicAuthUsers.value(QStringLiteral("other user")), knownHash);
    }

    void refusesWhatItDoesNotUnderstand_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("clear password")
            << QByteArray("basic_auth_users:\n  alice: hunter2\n")
            << "web.yml:2: the password of user \"alice\" must be a bcrypt hash";
        QTest::newRow("unknown section") << QByteArray("http_server_config:\n  http2: false\n")
                                         << "web.yml:1: \"http_server_config\" is not supported";
        QTest::newRow("unknown TLS setting")
            << QByteArray(
                   "tls_server_config:\n  cert_file: a\n  key_file: b\n  min_version: TLS13\n")
            << "web.yml:4: tls_server_config \"min_version\" is not supported";
        QTest::newRow("tab") << QByteArray("tls_server_config:\n\tcert_file: a\n")
                             << "web.yml:2: indent with spaces, not tabs";
        QTest::newRow("open quote") << QByteArray("basic_auth_users:\n  alice: '$2b$04$x\n")
                                    << "web.yml:2: a quote is not closed";
        QTest::newRow("no key file") << QByteArray("tls_server_config:\n  cert_file: a\n")
                                     << "needs both cert_file and key_file";
        QTest::newRow("client auth without CA")
            << QByteArray("tls_server_config:\n  cert_file: a\n  key_file: b\n"
                          "  client_auth_type: RequireAndVerifyClientCert\n")
            << "RequireAndVerifyClientCert needs client_ca_file";
        QTest::newRow("unsupported client auth")
            << QByteArray("tls_server_config:\n  cert_file: a\n  key_file: b\n"
                          "  client_auth_type: VerifyClientCertIfGiven\n")
            << "client_auth_type VerifyClientCertIfGiven is not supported";
        QTest::newRow("outside a section")
            << QByteArray("  cert_file: a\n") << "web.yml:1: indented line outside a section";
    }

    void refusesWhatItDoesNotUnderstand() {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        const auto config = WebConfig::parse(text, QStringLiteral("web.yml"));
        QVERIFY(!config);
        QVERIFY2(config.error().message.contains(message), qPrintable(config.error().message));
        QVERIFY(!config.error().message.contains(u"hunter2"));
    }

    void checksPasswordsAgainstBcryptHashes() {
        QVERIFY(bcryptMatches("scrape-pass", knownHash));
        QVERIFY(!bcryptMatches("scrape-pasS", knownHash));
        QVERIFY(!bcryptMatches("", knownHash));
        // crypt() would stop at the NUL: the rest must not be ignored.
        QVERIFY(!bcryptMatches(QByteArray("scrape-pass\0more", 16), knownHash));
        // htpasswd writes $2y$, the same algorithm.
        QByteArray apache = knownHash;
        apache[2] = 'y';
        QVERIFY(bcryptMatches("scrape-pass", apache));
        QVERIFY(!bcryptMatches("scrape-pass", "$1$not-bcrypt"));
        QVERIFY(!bcryptMatches("scrape-pass", "scrape-pass"));
    }
};

QTEST_GUILESS_MAIN(TestWebConfig)
#include "TestWebConfig.moc"
