// Connection profiles: saved with QSettings but never with their secrets; without a
// keychain the secret is asked once per session and kept in memory, and the dialog says
// so; "Test connection" runs on a worker and reports the cluster it reached.

#include "TestBroker.h"

#include "dialogs/ConnectionManagerDialog.h"
#include "dialogs/FileChooser.h"
#include "dialogs/TextPrompt.h"
#include "settings/ConnectionStore.h"
#include "settings/SecretStore.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QToolButton>

using namespace groupscope;
using groupscope::ui::ConnectionManagerDialog;
using groupscope::ui::SavedConnection;

class TestConnectionManager : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        qputenv("GROUPSCOPE_NO_KEYCHAIN", "1");
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("GroupscopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("TestConnectionManager"));
        QSettings().clear();
    }

    void secretsNeverReachTheSettingsFile() {
        ConnectionManagerDialog dialog;
        SavedConnection connection;
        connection.profile.name = QStringLiteral("prod");
        connection.profile.bootstrapServers = QStringLiteral("kafka-1:9093");
        connection.profile.securityProtocol = QStringLiteral("SASL_SSL");
        connection.profile.saslMechanism = QStringLiteral("SCRAM-SHA-512");
        connection.profile.saslUsername = QStringLiteral("oncall");
        connection.profile.saslPassword = QStringLiteral("s3cret-Passw0rd");
        connection.profile.extraProperties = {
            {QStringLiteral("client.id"), QStringLiteral("gs")},
            {QStringLiteral("sasl.password"), QStringLiteral("leaked-Passw0rd")}};
        connection.readOnly = true;
        connection.refreshInterval = std::chrono::seconds(5);
        dialog.setCurrentConnection(connection);
        QCOMPARE(dialog.currentConnection().profile.saslPassword,
                 QStringLiteral("s3cret-Passw0rd"));
        // Save through the dialog's Save button.
        const auto buttons = dialog.findChildren<QAbstractButton*>();
        for (QAbstractButton* button : buttons)
            if (button->text() == QStringLiteral("&Save"))
                button->click();

        const QList<SavedConnection> loaded = ui::ConnectionStore::load();
        QCOMPARE(loaded.size(), 1);
        QCOMPARE(loaded.first().profile.bootstrapServers, QStringLiteral("kafka-1:9093"));
        QCOMPARE(loaded.first().profile.saslMechanism, QStringLiteral("SCRAM-SHA-512"));
        QVERIFY(loaded.first().readOnly);
        QVERIFY(loaded.first().refreshInterval == std::chrono::milliseconds(5000));
        QVERIFY(loaded.first().profile.saslPassword.isEmpty());
        QSettings settings;
        settings.sync();
        QFile file(settings.fileName());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray stored = file.readAll();
        QVERIFY(!stored.contains("s3cret-Passw0rd"));
        QVERIFY(!stored.contains("leaked-Passw0rd"));
        QVERIFY(stored.contains("client.id=gs"));

        // No keychain here: the dialog says secrets live for this session only.
        QVERIFY(ui::SecretStore::instance().sessionOnly());
        auto* note = dialog.findChild<QLabel*>(QStringLiteral("secretStorageNote"));
        QVERIFY(note && note->text().contains(QStringLiteral("this session only")));
    }

    void certificateFilesArePickedWithBrowse() {
        ui::ConnectionManagerDialog dialog;
        SavedConnection connection;
        connection.profile.bootstrapServers = QStringLiteral("kafka-1:9093");
        connection.profile.securityProtocol = QStringLiteral("SSL");
        dialog.setCurrentConnection(connection);
        auto* browse = dialog.findChild<QToolButton*>(QStringLiteral("caPathBrowse"));
        QVERIFY(browse);
        QVERIFY(browse->isEnabled());
        ui::FileChooser::setNextFileName(QStringLiteral("/etc/kafka/ca.pem"));
        browse->click();
        QCOMPARE(dialog.currentConnection().profile.sslCaLocation,
                 QStringLiteral("/etc/kafka/ca.pem"));
        // Cancel leaves the field as it was.
        ui::FileChooser::setNextFileName(QString());
        browse->click();
        QCOMPARE(dialog.currentConnection().profile.sslCaLocation,
                 QStringLiteral("/etc/kafka/ca.pem"));
        // Without TLS there is nothing to browse for.
        connection.profile.securityProtocol = QStringLiteral("SASL_PLAINTEXT");
        dialog.setCurrentConnection(connection);
        QVERIFY(!browse->isEnabled());
    }

    void passwordInClearIsWarnedAbout() {
        ConnectionManagerDialog dialog;
        auto* warning = dialog.findChild<QLabel*>(QStringLiteral("transportWarning"));
        QVERIFY(warning);
        SavedConnection connection;
        connection.profile.bootstrapServers = QStringLiteral("kafka-1:9092");
        connection.profile.securityProtocol = QStringLiteral("SASL_PLAINTEXT");
        connection.profile.saslMechanism = QStringLiteral("PLAIN");
        dialog.setCurrentConnection(connection);
        QVERIFY(!warning->isHidden());
        QVERIFY2(warning->text().contains(QStringLiteral("in clear")), qPrintable(warning->text()));
        // SCRAM does not send the password, but the session is open to the network path.
        auto* mechanism = dialog.findChild<QComboBox*>(QStringLiteral("saslMechanism"));
        QVERIFY(mechanism);
        mechanism->setCurrentText(QStringLiteral("SCRAM-SHA-512"));
        QVERIFY(!warning->isHidden());
        QVERIFY2(warning->text().contains(QStringLiteral("read and altered")),
                 qPrintable(warning->text()));
        auto* protocol = dialog.findChild<QComboBox*>(QStringLiteral("securityProtocol"));
        QVERIFY(protocol);
        protocol->setCurrentText(QStringLiteral("SASL_SSL"));
        QVERIFY(warning->isHidden());
    }

    void askedOncePerSession() {
        SavedConnection connection;
        connection.profile.name = QStringLiteral("staging");
        connection.profile.securityProtocol = QStringLiteral("SASL_PLAINTEXT");
        ui::TextPrompt::setNextAnswer(QStringLiteral("typed-once"));
        QVERIFY(ConnectionManagerDialog::fillSecrets(nullptr, connection));
        QCOMPARE(connection.profile.saslPassword, QStringLiteral("typed-once"));
        // The second time nothing is asked (no answer is armed, so a prompt would block).
        SavedConnection again = connection;
        again.profile.saslPassword.clear();
        QVERIFY(ConnectionManagerDialog::fillSecrets(nullptr, again));
        QCOMPARE(again.profile.saslPassword, QStringLiteral("typed-once"));
        // Cancel at the prompt cancels the connection.
        SavedConnection other;
        other.profile.name = QStringLiteral("other");
        other.profile.securityProtocol = QStringLiteral("SASL_SSL");
        ui::TextPrompt::setNextAnswer(std::nullopt);
        QVERIFY(!ConnectionManagerDialog::fillSecrets(nullptr, other));
    }

    void testConnectionReportsTheCluster() {
        SKIP_WITHOUT_TEST_BROKER();
        ConnectionManagerDialog dialog;
        SavedConnection good;
        good.profile = test::brokerProfile();
        dialog.setCurrentConnection(good);
        dialog.testConnection();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.testResultText().startsWith(QStringLiteral("Testing")),
                                 30000);
        QVERIFY2(dialog.testResultText().contains(QStringLiteral("Connected")),
                 qPrintable(dialog.testResultText()));

        SavedConnection nowhere;
        nowhere.profile.name = QStringLiteral("nowhere");
        nowhere.profile.bootstrapServers = QStringLiteral("127.0.0.1:1");
        dialog.setCurrentConnection(nowhere);
        dialog.testConnection();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.testResultText().isEmpty() &&
                                     !dialog.testResultText().startsWith(QStringLiteral("Testing")),
                                 30000);
        QVERIFY2(dialog.testResultText().contains(QStringLiteral("127.0.0.1:1")),
                 qPrintable(dialog.testResultText()));
    }
};

QTEST_MAIN(TestConnectionManager)
#include "TestConnectionManager.moc"
