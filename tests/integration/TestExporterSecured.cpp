// The exporter exposed with --web-config (the Prometheus exporter toolkit's format): over
// TLS with basic auth, curl gets 401 without credentials or with a wrong password and the
// metrics with the right ones, and only when it trusts the exporter's CA; a real Prometheus
// (Debian's package) scrapes it with its own tls_config and basic_auth. With a client CA the
// exporter also wants the client's certificate.

#include "TestBroker.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace groupscope;
using namespace std::chrono_literals;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");
const QString scrapePassword = QStringLiteral("scrape-Pass-4e1c");

bool writeFile(const QString& path, const QString& text) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text.toUtf8()) >= 0;
}

} // namespace

class TestExporterSecured : public QObject {
    Q_OBJECT

    QString m_bootstrap;
    QString m_skipReason;
    QTemporaryDir m_dir;
    QString m_passwordHash;
    std::vector<std::unique_ptr<QProcess>> m_processes;

    QString path(const QString& name) const { return m_dir.filePath(name); }

    bool openssl(const QStringList& arguments) {
        return test::run(QStringLiteral("openssl"), arguments).ok();
    }

    // A CA, and a certificate it signed for `name` (SAN 127.0.0.1) with `usage`.
    bool makeCertificate(const QString& name, const QString& usage) {
        const QString extensions = path(name + QStringLiteral(".ext"));
        return writeFile(extensions,
                         QStringLiteral("subjectAltName=IP:127.0.0.1\nextendedKeyUsage=%1\n")
                             .arg(usage)) &&
               openssl({QStringLiteral("req"), QStringLiteral("-batch"), QStringLiteral("-newkey"),
                        QStringLiteral("rsa:2048"), QStringLiteral("-nodes"),
                        QStringLiteral("-subj"), QStringLiteral("/CN=%1").arg(name),
                        QStringLiteral("-keyout"), path(name + QStringLiteral(".key")),
                        QStringLiteral("-out"), path(name + QStringLiteral(".csr"))}) &&
               openssl({QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"),
                        path(name + QStringLiteral(".csr")), QStringLiteral("-CA"),
                        path(QStringLiteral("ca.pem")), QStringLiteral("-CAkey"),
                        path(QStringLiteral("ca.key")), QStringLiteral("-CAcreateserial"),
                        QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-extfile"),
                        extensions, QStringLiteral("-out"), path(name + QStringLiteral(".pem"))});
    }

    // Starts the exporter with this web config; its port, or 0 (then `output` says why).
    quint16 startExporter(const QString& webConfig, QByteArray* output) {
        auto process = std::make_unique<QProcess>();
        process->setProgram(cliPath);
        process->setArguments({QStringLiteral("--bootstrap-server"), m_bootstrap,
                               QStringLiteral("exporter"), QStringLiteral("--listen"),
                               QStringLiteral("127.0.0.1:0"), QStringLiteral("--interval"),
                               QStringLiteral("500"), QStringLiteral("--web-config"), webConfig});
        process->start();
        if (!process->waitForStarted(10000))
            return 0;
        const QRegularExpression serving(
            QStringLiteral("Serving https://127\\.0\\.0\\.1:(\\d+)/metrics"));
        quint16 port = 0;
        QProcess* running = process.get();
        m_processes.push_back(std::move(process));
        (void)test::waitFor(
            [&] {
                *output += running->readAllStandardOutput() + running->readAllStandardError();
                const auto match = serving.match(QString::fromUtf8(*output));
                if (match.hasMatch())
                    port = quint16(match.captured(1).toUInt());
                return port != 0 || running->state() == QProcess::NotRunning;
            },
            30s);
        return port;
    }

    test::ProcessResult curl(quint16 port, const QStringList& options) {
        return test::run(
            QStringLiteral("curl"),
            QStringList{QStringLiteral("--silent"), QStringLiteral("--show-error"),
                        QStringLiteral("--max-time"), QStringLiteral("10"),
                        QStringLiteral("--write-out"), QStringLiteral("\n%{http_code}")} +
                options + QStringList{QStringLiteral("https://127.0.0.1:%1/metrics").arg(port)});
    }
    static QByteArray statusOf(const test::ProcessResult& result) {
        return result.out.mid(result.out.lastIndexOf('\n') + 1).trimmed();
    }

private slots:
    void initTestCase() {
        m_bootstrap = test::bootstrapServers(&m_skipReason);
        if (m_bootstrap.isEmpty())
            QSKIP(qPrintable(m_skipReason));
        QVERIFY(m_dir.isValid());
        QVERIFY(openssl({QStringLiteral("req"), QStringLiteral("-batch"), QStringLiteral("-x509"),
                         QStringLiteral("-newkey"), QStringLiteral("rsa:2048"),
                         QStringLiteral("-nodes"), QStringLiteral("-days"), QStringLiteral("2"),
                         QStringLiteral("-subj"), QStringLiteral("/CN=Exporter test CA"),
                         QStringLiteral("-keyout"), path(QStringLiteral("ca.key")),
                         QStringLiteral("-out"), path(QStringLiteral("ca.pem"))}));
        QVERIFY(makeCertificate(QStringLiteral("server"), QStringLiteral("serverAuth")));
        QVERIFY(makeCertificate(QStringLiteral("client"), QStringLiteral("clientAuth")));
        // The password as htpasswd -B would store it: a bcrypt hash (Python's crypt).
        const auto hashed =
            test::run(QStringLiteral("/usr/bin/python3"),
                      {QStringLiteral("-W"), QStringLiteral("ignore"), QStringLiteral("-c"),
                       QStringLiteral("import crypt,sys; print(crypt.crypt(sys.argv[1], "
                                      "crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=16)))"),
                       scrapePassword});
        m_passwordHash = QString::fromUtf8(hashed.out.trimmed());
        QVERIFY2(m_passwordHash.startsWith(u"$2b$"), hashed.err.constData());
    }

    void cleanupTestCase() {
        for (auto& process : m_processes) {
            process->terminate();
            if (!process->waitForFinished(10000))
                process->kill();
        }
    }

    void curlNeedsTheCaAndTheRightPassword() {
        const QString config = path(QStringLiteral("web.yml"));
        QVERIFY(writeFile(config, QStringLiteral("# the exporter toolkit's format\n"
                                                 "tls_server_config:\n"
                                                 "  cert_file: server.pem\n"
                                                 "  key_file: \"server.key\"\n"
                                                 "basic_auth_users:\n"
                                                 "  prometheus: '%1'\n")
                                      .arg(m_passwordHash)));
        QByteArray output;
        const quint16 port = startExporter(config, &output);
        QVERIFY2(port != 0, output.constData());
        const QString ca = path(QStringLiteral("ca.pem"));
        const QString user = QStringLiteral("prometheus:") + scrapePassword;

        const auto anonymous = curl(port, {QStringLiteral("--cacert"), ca});
        QCOMPARE(statusOf(anonymous), QByteArray("401"));
        const auto wrong = curl(port, {QStringLiteral("--cacert"), ca, QStringLiteral("--user"),
                                       QStringLiteral("prometheus:wrong")});
        QCOMPARE(statusOf(wrong), QByteArray("401"));
        const auto right =
            curl(port, {QStringLiteral("--cacert"), ca, QStringLiteral("--user"), user});
        QCOMPARE(statusOf(right), QByteArray("200"));
        QVERIFY2(right.out.contains("groupscope_exporter_up"), right.out.left(500).constData());
        // Without the CA, curl cannot verify the exporter and sends nothing (exit 60).
        const auto unverified = curl(port, {QStringLiteral("--user"), user});
        QCOMPARE(unverified.exitCode, 60);
        // Plain http on the TLS port gets no metrics.
        const auto plain = test::run(QStringLiteral("curl"),
                                     {QStringLiteral("--silent"), QStringLiteral("--max-time"),
                                      QStringLiteral("10"), QStringLiteral("--user"), user,
                                      QStringLiteral("http://127.0.0.1:%1/metrics").arg(port)});
        QVERIFY(!plain.out.contains("groupscope_exporter_up"));
    }

    void prometheusScrapesOverTlsWithBasicAuth() {
        const QString prometheus = QStandardPaths::findExecutable(QStringLiteral("prometheus"));
        if (prometheus.isEmpty())
            QSKIP("prometheus is not installed (Debian package prometheus)");
        const QString config = path(QStringLiteral("web-prometheus.yml"));
        QVERIFY(writeFile(config, QStringLiteral("tls_server_config:\n"
                                                 "  cert_file: server.pem\n"
                                                 "  key_file: server.key\n"
                                                 "basic_auth_users:\n"
                                                 "  prometheus: %1\n")
                                      .arg(m_passwordHash)));
        QByteArray output;
        const quint16 port = startExporter(config, &output);
        QVERIFY2(port != 0, output.constData());

        const quint16 prometheusPort = test::freeLoopbackPort();
        QVERIFY(prometheusPort != 0);
        const QString prometheusConfig = path(QStringLiteral("prometheus.yml"));
        QVERIFY(writeFile(prometheusConfig, QStringLiteral("global:\n"
                                                           "  scrape_interval: 1s\n"
                                                           "  scrape_timeout: 1s\n"
                                                           "scrape_configs:\n"
                                                           "  - job_name: secured\n"
                                                           "    scheme: https\n"
                                                           "    tls_config:\n"
                                                           "      ca_file: %1\n"
                                                           "    basic_auth:\n"
                                                           "      username: prometheus\n"
                                                           "      password: %2\n"
                                                           "    static_configs:\n"
                                                           "      - targets: ['127.0.0.1:%3']\n")
                                                .arg(path(QStringLiteral("ca.pem")), scrapePassword)
                                                .arg(port)));
        auto server = std::make_unique<QProcess>();
        server->setProgram(prometheus);
        server->setArguments(
            {QStringLiteral("--config.file=") + prometheusConfig,
             QStringLiteral("--storage.tsdb.path=") + path(QStringLiteral("tsdb")),
             QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(prometheusPort),
             QStringLiteral("--log.level=warn")});
        server->start();
        QVERIFY(server->waitForStarted(10000));
        QProcess* running = server.get();
        m_processes.push_back(std::move(server));
        // up is 1 once a scrape succeeded: TLS verified against the CA and basic auth passed.
        QString lastAnswer;
        const bool scraped = test::waitFor(
            [&] {
                const auto answer = test::run(
                    QStringLiteral("curl"),
                    {QStringLiteral("--silent"), QStringLiteral("--max-time"), QStringLiteral("5"),
                     QStringLiteral("--get"), QStringLiteral("--data-urlencode"),
                     QStringLiteral("query=groupscope_exporter_up{job=\"secured\"}"),
                     QStringLiteral("http://127.0.0.1:%1/api/v1/query").arg(prometheusPort)});
                lastAnswer = QString::fromUtf8(answer.out);
                const QJsonArray result = QJsonDocument::fromJson(answer.out)
                                              .object()
                                              .value(u"data")
                                              .toObject()
                                              .value(u"result")
                                              .toArray();
                return !result.isEmpty() || running->state() == QProcess::NotRunning;
            },
            60s);
        QVERIFY2(scraped && running->state() == QProcess::Running,
                 qPrintable(lastAnswer + QString::fromUtf8(running->readAllStandardError())));
    }

    void clientCertificatesAreRequiredWithAClientCa() {
        const QString config = path(QStringLiteral("web-mtls.yml"));
        QVERIFY(writeFile(config, QStringLiteral("tls_server_config:\n"
                                                 "  cert_file: server.pem\n"
                                                 "  key_file: server.key\n"
                                                 "  client_auth_type: RequireAndVerifyClientCert\n"
                                                 "  client_ca_file: ca.pem\n")));
        QByteArray output;
        const quint16 port = startExporter(config, &output);
        QVERIFY2(port != 0, output.constData());
        const QString ca = path(QStringLiteral("ca.pem"));
        const auto without = curl(port, {QStringLiteral("--cacert"), ca});
        QVERIFY2(statusOf(without) != "200", without.out.constData());
        const auto with = curl(port, {QStringLiteral("--cacert"), ca, QStringLiteral("--cert"),
                                      path(QStringLiteral("client.pem")), QStringLiteral("--key"),
                                      path(QStringLiteral("client.key"))});
        QCOMPARE(statusOf(with), QByteArray("200"));
    }

    void badWebConfigsAreRefusedWithTheirLine() {
        const QString config = path(QStringLiteral("web-bad.yml"));
        QVERIFY(writeFile(config, QStringLiteral("tls_server_config:\n"
                                                 "  cert_file: server.pem\n"
                                                 "  key_file: server.key\n"
                                                 "basic_auth_users:\n"
                                                 "  prometheus: plain-text-password\n")));
        const auto refused = test::run(
            cliPath, {QStringLiteral("--bootstrap-server"), m_bootstrap, QStringLiteral("exporter"),
                      QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                      QStringLiteral("--web-config"), config});
        QVERIFY(!refused.ok());
        QVERIFY2(refused.err.contains("web-bad.yml:5: the password of user \"prometheus\" must "
                                      "be a bcrypt hash"),
                 refused.err.constData());
        QVERIFY(!refused.out.contains("Serving"));
    }
};

QTEST_GUILESS_MAIN(TestExporterSecured)
#include "TestExporterSecured.moc"
