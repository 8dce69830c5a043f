// Secrets (SASL passwords, the TLS key passphrase) go to the keychain or stay in memory:
// nothing Groupscope writes may contain them. This drives the CLI through every command
// that touches a secured broker, plus the failures that are most tempted to echo their
// input, and the GUI's profile saving where the GUI is built; then it reads every file
// written under a private HOME (settings, audit log, caches) and every captured output.
#include "TestBroker.h"

#ifdef GROUPSCOPE_TEST_WITH_UI
#include "dialogs/ConnectionManagerDialog.h"
#include "dialogs/TextPrompt.h"
#include "settings/ConnectionStore.h"
#include "settings/SecretStore.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QLabel>
#include <QSettings>
#endif

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace groupscope;
using namespace std::chrono_literals;

namespace {

const QString cliPath = QStringLiteral(GROUPSCOPE_BINARY_DIR "/app/groupscope-cli");

// One property of each kind of secret a profile's extra properties can hold (the names
// librdkafka marks sensitive and matches neither "password" nor "secret" included).
QList<QPair<QString, QString>> secretPropertyValues() {
    return {
        {QStringLiteral("ssl.keystore.password"), QStringLiteral("extra-Secret-93ad")},
        {QStringLiteral("sasl.oauthbearer.client.secret"), QStringLiteral("oauth-Client-5e1b07")},
        {QStringLiteral("sasl.oauthbearer.assertion.private.key.passphrase"),
         QStringLiteral("assertion-Phrase-2c9d")},
        {QStringLiteral("sasl.oauthbearer.assertion.private.key.pem"),
         QStringLiteral("MIIEvQIBADANBgkqhkiG9w0-fake-key-8a41")},
    };
}

} // namespace

class TestSecretsNeverWritten : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();

    void cliCommandsKeepSecretsOut();
    void failingConfigurationsKeepSecretsOut();
    void librdkafkaLogsKeepSecretsOut();
#ifdef GROUPSCOPE_TEST_WITH_UI
    void savedProfilesKeepSecretsOut();
    void verificationChoiceIsPersistedPerProfile();
    void secretsLeftInClearMoveOutOfTheSettingsFile(); // replaces the saved profiles
#endif
    // Last: reads what all of the above wrote.
    void noFileWrittenHoldsASecret();

private:
    test::ProcessResult cli(const QString& config, const QStringList& arguments);
    void expectNoSecret(const QByteArray& bytes, const QString& where);
    QString copyConfig(const QString& user, const QStringList& extraLines);

    test::SecureBroker m_broker;
    QTemporaryDir m_home;    // HOME, XDG_* and GROUPSCOPE_DATA_DIR: everything we write
    QTemporaryDir m_configs; // the test's own config copies, which do hold the secrets
    QStringList m_secrets;
    QString m_topic;
    QString m_group;
    int m_configCount = 0;
    int m_outputsChecked = 0;
};

test::ProcessResult TestSecretsNeverWritten::cli(const QString& config,
                                                 const QStringList& arguments) {
    auto result = test::run(cliPath, QStringList{QStringLiteral("--command-config"), config} +
                                         test::afterSetupCommits(arguments));
    const QString where = QStringLiteral("groupscope-cli %1").arg(arguments.join(u' '));
    expectNoSecret(result.out, where + QStringLiteral(" (stdout)"));
    expectNoSecret(result.err, where + QStringLiteral(" (stderr)"));
    return result;
}

void TestSecretsNeverWritten::expectNoSecret(const QByteArray& bytes, const QString& where) {
    ++m_outputsChecked;
    for (const QString& secret : std::as_const(m_secrets))
        QVERIFY2(!bytes.contains(secret.toUtf8()),
                 qPrintable(QStringLiteral("a secret appears in %1").arg(where)));
}

QString TestSecretsNeverWritten::copyConfig(const QString& user, const QStringList& extraLines) {
    QFile source(m_broker.clientConfig(user));
    if (!source.open(QIODevice::ReadOnly))
        return {};
    const QString path =
        m_configs.filePath(QStringLiteral("config-%1.properties").arg(++m_configCount));
    QFile target(path);
    if (!target.open(QIODevice::WriteOnly))
        return {};
    target.write(source.readAll() + '\n' + extraLines.join(u'\n').toUtf8() + '\n');
    return path;
}

void TestSecretsNeverWritten::initTestCase() {
    QVERIFY(m_home.isValid() && m_configs.isValid());
    // The broker first, with the real HOME: its jars come from ~/.m2.
    QVERIFY2(m_broker.start(), qPrintable(m_broker.error()));
    for (const QString& user : {QStringLiteral("alice"), QStringLiteral("bob")})
        m_secrets << m_broker.clientProperty(user, QStringLiteral("sasl.password"));
    m_secrets << m_broker.clientProperty(QStringLiteral("alice"),
                                         QStringLiteral("ssl.key.password"));
    m_secrets << QStringLiteral("wrong-Passw0rd-7c1e") << QStringLiteral("extra-Secret-93ad");
    for (const auto& [property, value] : secretPropertyValues())
        m_secrets << value;
    for (const QString& secret : std::as_const(m_secrets))
        QVERIFY2(secret.size() >= 16, "the broker's users need their secrets");

    // From here on everything this process and its children write lands under m_home.
    const QString home = m_home.path();
    qputenv("HOME", home.toUtf8());
    qputenv("XDG_CONFIG_HOME", (home + QStringLiteral("/.config")).toUtf8());
    qputenv("XDG_DATA_HOME", (home + QStringLiteral("/.local/share")).toUtf8());
    qputenv("XDG_CACHE_HOME", (home + QStringLiteral("/.cache")).toUtf8());
    qputenv("XDG_STATE_HOME", (home + QStringLiteral("/.local/state")).toUtf8());
    qputenv("GROUPSCOPE_DATA_DIR", (home + QStringLiteral("/.local/share/groupscope")).toUtf8());
    qputenv("GROUPSCOPE_NO_KEYCHAIN", "1");
    QCoreApplication::setOrganizationName(QStringLiteral("Groupscope"));
    QCoreApplication::setApplicationName(QStringLiteral("groupscope"));

    m_topic = test::uniqueName(QStringLiteral("secrets"));
    m_group = test::uniqueName(QStringLiteral("secrets-group"));
    const QString internal = m_broker.internalBootstrap();
    QVERIFY(test::createTopic(m_topic, 2, internal));
    QVERIFY(test::produce(m_topic, 10, 0, internal));
    QVERIFY(test::produce(m_topic, 10, 1, internal));
    const auto committed = test::runPython(QStringLiteral(R"(
from kafka import KafkaConsumer, TopicPartition
from kafka.structs import OffsetAndMetadata
c = KafkaConsumer(bootstrap_servers=BOOTSTRAP, group_id='%1', enable_auto_commit=False)
c.commit({TopicPartition('%2', p): OffsetAndMetadata(5, None) for p in range(2)})
c.close()
)")
                                               .arg(m_group, m_topic),
                                           120s, internal);
    QVERIFY2(committed.ok(), committed.err.constData());
}

void TestSecretsNeverWritten::cleanupTestCase() {
    m_broker.stop();
}

void TestSecretsNeverWritten::cliCommandsKeepSecretsOut() {
    const QString alice = m_broker.clientConfig(QStringLiteral("alice"));
    QVERIFY(cli(alice, {QStringLiteral("list"), QStringLiteral("--state")}).ok());
    QVERIFY(cli(alice, {QStringLiteral("describe"), QStringLiteral("--group"), m_group,
                        QStringLiteral("--members"), QStringLiteral("--json")})
                .ok());
    const QStringList reset{QStringLiteral("reset"),
                            QStringLiteral("--group"),
                            m_group,
                            QStringLiteral("--topic"),
                            m_topic,
                            QStringLiteral("--shift-by"),
                            QStringLiteral("-2")};
    // The Kafka command line names the command config file; it must not inline its content.
    QVERIFY(cli(alice, reset + QStringList{QStringLiteral("--as-kafka-command")}).ok());
    QVERIFY(cli(alice, reset + QStringList{QStringLiteral("--export")}).ok());
    const auto applied = cli(alice, reset + QStringList{QStringLiteral("--execute")});
    QVERIFY2(applied.ok(), applied.err.constData());
    const auto history = cli(alice, {QStringLiteral("history"), QStringLiteral("--json")});
    QVERIFY2(history.ok(), history.err.constData());
    const auto entry = QRegularExpression(QStringLiteral("undo --entry (\\S+)\\)"))
                           .match(QString::fromUtf8(applied.err));
    QVERIFY2(entry.hasMatch(), applied.err.constData());
    QVERIFY(cli(alice, {QStringLiteral("undo"), QStringLiteral("--entry"), entry.captured(1),
                        QStringLiteral("--execute")})
                .ok());
    QVERIFY(cli(alice, {QStringLiteral("timeline"), QStringLiteral("--group"), m_group,
                        QStringLiteral("--json")})
                .ok());
    QVERIFY(cli(alice, {QStringLiteral("watch"), QStringLiteral("--group"), m_group,
                        QStringLiteral("--count"), QStringLiteral("1"), QStringLiteral("--json")})
                .ok());
    QVERIFY(
        cli(m_broker.clientConfig(QStringLiteral("bob")),
            {QStringLiteral("describe"), QStringLiteral("--all-groups"), QStringLiteral("--state")})
            .ok());
}

void TestSecretsNeverWritten::failingConfigurationsKeepSecretsOut() {
    const QString wrongPassword =
        copyConfig(QStringLiteral("alice"), {QStringLiteral("sasl.password=wrong-Passw0rd-7c1e")});
    QCOMPARE(cli(wrongPassword, {QStringLiteral("list")}).exitCode, 1);
    // A property librdkafka rejects, on a line after the secrets: the error names the line.
    const QString badProperty =
        copyConfig(QStringLiteral("alice"), {QStringLiteral("no.such.property=extra-Secret-93ad")});
    QCOMPARE(cli(badProperty, {QStringLiteral("list")}).exitCode, 1);
    // A secret-looking property librdkafka rejects: its value is not echoed either.
    const QString badSecret = copyConfig(
        QStringLiteral("alice"), {QStringLiteral("ssl.keystore.password=extra-Secret-93ad"),
                                  QStringLiteral("ssl.keystore.location=/nonexistent.p12")});
    QVERIFY(cli(badSecret, {QStringLiteral("list")}).exitCode != 0);
    // A wrong key passphrase.
    const QString wrongPassphrase = copyConfig(
        QStringLiteral("alice"), {QStringLiteral("ssl.key.password=wrong-Passw0rd-7c1e")});
    QVERIFY(cli(wrongPassphrase, {QStringLiteral("list")}).exitCode != 0);
    // Verification off: the warning names the profile, not its credentials.
    const QString unverified = copyConfig(
        QStringLiteral("bob"), {QStringLiteral("enable.ssl.certificate.verification=false")});
    const auto listed = cli(unverified, {QStringLiteral("list")});
    QVERIFY(listed.ok());
    QVERIFY(listed.err.contains("Warning"));
}

void TestSecretsNeverWritten::librdkafkaLogsKeepSecretsOut() {
    // Every librdkafka debug context, printed to stderr: it dumps the configuration. The
    // cluster is read through librdkafka (the fallback), whose log this is.
    qputenv("GROUPSCOPE_KAFKA_LOG", "1");
    qputenv("GROUPSCOPE_GROUP_CLIENT", "librdkafka");
    const QString debug = copyConfig(QStringLiteral("alice"), {QStringLiteral("debug=all")});
    const auto listed = cli(debug, {QStringLiteral("list")});
    qunsetenv("GROUPSCOPE_KAFKA_LOG");
    qunsetenv("GROUPSCOPE_GROUP_CLIENT");
    QVERIFY2(listed.ok(), listed.err.right(2000).constData());
    QVERIFY2(listed.err.contains("librdkafka"), "no librdkafka log was printed");
}

#ifdef GROUPSCOPE_TEST_WITH_UI
void TestSecretsNeverWritten::savedProfilesKeepSecretsOut() {
    auto profile = kafka::ConnectionProfile::fromCommandConfigFile(
        m_broker.clientConfig(QStringLiteral("alice")));
    QVERIFY(profile.ok());
    ui::SavedConnection connection;
    connection.profile = profile.value();
    connection.profile.name = QStringLiteral("secured");
    connection.profile.extraProperties.append(secretPropertyValues());
    connection.profile.extraProperties.append({QStringLiteral("client.id"), QStringLiteral("gs")});
    ui::ConnectionManagerDialog dialog;
    dialog.setCurrentConnection(connection);
    const auto buttons = dialog.findChildren<QAbstractButton*>();
    for (QAbstractButton* button : buttons)
        if (button->text() == QStringLiteral("&Save"))
            button->click();
    QSettings().sync();
    QVERIFY(QFile::exists(QSettings().fileName()));
    QVERIFY2(QSettings().fileName().startsWith(m_home.path()), qPrintable(QSettings().fileName()));
    // The secrets are still there for this session, from memory.
    QCOMPARE(ui::SecretStore::instance().cached(ui::ConnectionStore::secretKey(
                 QStringLiteral("secured"), QStringLiteral("sasl-password"))),
             std::optional<QString>(profile.value().saslPassword));
    QFile settingsFile(QSettings().fileName());
    QVERIFY(settingsFile.open(QIODevice::ReadOnly));
    expectNoSecret(settingsFile.readAll(), QStringLiteral("the settings file"));
    const auto loaded = ui::ConnectionStore::load();
    QCOMPARE(loaded.size(), 1);
    QVERIFY(loaded.first().profile.saslPassword.isEmpty());
    QVERIFY(loaded.first().profile.sslKeyPassword.isEmpty());
    QCOMPARE(loaded.first().profile.sslKeyLocation, profile.value().sslKeyLocation);
    QCOMPARE(loaded.first().profile.extraProperties,
             (QList<QPair<QString, QString>>{{QStringLiteral("client.id"), QStringLiteral("gs")}}));

    // Every secret comes back when the profile is used: from this session's memory, and
    // asked for again where the session does not know it (a restart without a keychain).
    const QString asked = QStringLiteral("sasl.oauthbearer.assertion.private.key.passphrase");
    ui::SecretStore::instance().forget(
        ui::ConnectionStore::propertySecretKey(QStringLiteral("secured"), asked));
    ui::TextPrompt::setNextAnswer(QStringLiteral("assertion-Phrase-2c9d"));
    ui::SavedConnection used = loaded.first();
    QVERIFY(ui::ConnectionManagerDialog::fillSecrets(nullptr, used));
    QCOMPARE(used.profile.saslPassword, profile.value().saslPassword);
    QCOMPARE(used.profile.sslKeyPassword, profile.value().sslKeyPassword);
    for (const auto& secret : secretPropertyValues())
        QVERIFY2(used.profile.extraProperties.contains(secret), qPrintable(secret.first));
}

void TestSecretsNeverWritten::secretsLeftInClearMoveOutOfTheSettingsFile() {
    // An older version kept a secret it did not recognise in the extra properties, in clear.
    {
        QSettings settings;
        settings.remove(QStringLiteral("connections"));
        settings.beginWriteArray(QStringLiteral("connections"), 1);
        settings.setArrayIndex(0);
        settings.setValue(QStringLiteral("name"), QStringLiteral("old"));
        settings.setValue(QStringLiteral("bootstrapServers"), QStringLiteral("127.0.0.1:1"));
        settings.setValue(QStringLiteral("extraProperties"),
                          QStringList{QStringLiteral("sasl.oauthbearer.assertion.private.key."
                                                     "passphrase=assertion-Phrase-2c9d"),
                                      QStringLiteral("client.id=gs")});
        settings.endArray();
    }
    QSettings().sync();
    const auto loaded = ui::ConnectionStore::load();
    QCOMPARE(loaded.size(), 1);
    QCOMPARE(loaded.first().secretProperties,
             QStringList{QStringLiteral("sasl.oauthbearer.assertion.private.key.passphrase")});
    QSettings().sync();
    QFile settingsFile(QSettings().fileName());
    QVERIFY(settingsFile.open(QIODevice::ReadOnly));
    const QByteArray contents = settingsFile.readAll();
    QVERIFY(contents.contains("client.id=gs"));
    expectNoSecret(contents, QStringLiteral("the settings file after loading"));
    QCOMPARE(ui::SecretStore::instance().cached(ui::ConnectionStore::propertySecretKey(
                 QStringLiteral("old"), QStringLiteral("sasl.oauthbearer.assertion.private.key."
                                                       "passphrase"))),
             std::optional<QString>(QStringLiteral("assertion-Phrase-2c9d")));
}

void TestSecretsNeverWritten::verificationChoiceIsPersistedPerProfile() {
    ui::ConnectionManagerDialog dialog;
    auto* box = dialog.findChild<QCheckBox*>(QStringLiteral("tlsVerificationBox"));
    auto* warning = dialog.findChild<QLabel*>(QStringLiteral("tlsVerificationWarning"));
    QVERIFY(box && warning);
    ui::SavedConnection connection;
    connection.profile.name = QStringLiteral("test cluster");
    connection.profile.bootstrapServers = m_broker.bootstrap();
    connection.profile.securityProtocol = QStringLiteral("SSL");
    dialog.setCurrentConnection(connection);
    QVERIFY(box->isChecked()); // on unless the user says otherwise
    QVERIFY(warning->isHidden());
    box->setChecked(false);
    QVERIFY(!warning->isHidden());
    QVERIFY(warning->text().contains(QStringLiteral("pose as the broker")));
    QVERIFY(!dialog.currentConnection().profile.tlsVerification);
    const auto buttons = dialog.findChildren<QAbstractButton*>();
    for (QAbstractButton* button : buttons)
        if (button->text() == QStringLiteral("&Save"))
            button->click();
    bool foundOff = false, foundOn = false;
    for (const ui::SavedConnection& saved : ui::ConnectionStore::load()) {
        foundOff = foundOff || (saved.profile.name == QStringLiteral("test cluster") &&
                                !saved.profile.tlsVerification);
        foundOn = foundOn || (saved.profile.name == QStringLiteral("secured") &&
                              saved.profile.tlsVerification);
    }
    QVERIFY(foundOff);
    QVERIFY(foundOn); // the other profile keeps its own choice
}
#endif

void TestSecretsNeverWritten::noFileWrittenHoldsASecret() {
    int files = 0;
    bool sawJournal = false;
    QDirIterator it(m_home.path(), QDir::Files | QDir::Hidden | QDir::NoSymLinks,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile file(path);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
        expectNoSecret(file.readAll(), path);
        ++files;
        sawJournal = sawJournal || path.endsWith(QStringLiteral("journal.sqlite"));
    }
    // The check means something only if the application did write there.
    QVERIFY2(sawJournal, "no write journal was written under the private HOME");
    qInfo("%d file(s) and %d output(s) checked for %lld secret(s)", files, m_outputsChecked,
          qlonglong(m_secrets.size()));
}

QTEST_MAIN(TestSecretsNeverWritten)
#include "TestSecretsNeverWritten.moc"
