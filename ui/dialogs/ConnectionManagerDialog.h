#pragma once

#include "settings/SavedConnection.h"

#include <QDialog>
#include <QPointer>

#include <optional>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLayout;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace groupscope::monitor {
class AdminTaskRunner;
}

namespace groupscope::ui {

// The connection manager: named profiles (bootstrap servers, security protocol, SASL, TLS
// files, extra librdkafka properties, refresh interval, read-only) saved with QSettings,
// their secrets in SecretStore. "Test connection" runs on a worker and reports clearly.
class ConnectionManagerDialog : public QDialog {
    Q_OBJECT
public:
    explicit ConnectionManagerDialog(QWidget* parent = nullptr);
    ~ConnectionManagerDialog() override;

    // Shows the dialog modally; the profile to connect to (secrets filled in), or nothing.
    static std::optional<SavedConnection> choose(QWidget* parent = nullptr);
    // Test hook: the next choose() returns this at once (std::nullopt stands for Close).
    static void setNextAnswer(std::optional<SavedConnection> answer);

    // Secrets of a profile: from the keychain, else asks for the missing ones (once per
    // session where there is no keychain). False when the user cancelled.
    static bool fillSecrets(QWidget* parent, SavedConnection& connection);

    // The form as a connection (secrets included as typed).
    SavedConnection currentConnection() const;
    void setCurrentConnection(const SavedConnection& connection);
    void testConnection();
    QString testResultText() const;
    bool testIsRunning() const { return !m_tester.isNull(); }

private:
    void buildForm();
    // Object names, placeholders and ranges of the form's fields (tests find them by name).
    void configureFields();
    QLayout* buildProfileList();
    QFormLayout* buildProfileForm();
    QLayout* buildDetailsColumn();
    void loadProfiles();
    void selectProfile(int row);
    void saveCurrent();
    void deleteCurrent();
    void newProfile();
    void updateFieldStates();
    void showTestResult(const QString& text, bool ok);

    QList<SavedConnection> m_connections;
    QListWidget* m_list;
    QLineEdit* m_name;
    QLineEdit* m_servers;
    QComboBox* m_protocol;
    QComboBox* m_mechanism;
    QLineEdit* m_username;
    QLineEdit* m_password;
    QLineEdit* m_caPath;
    QLineEdit* m_certPath;
    QLineEdit* m_keyPath;
    QLineEdit* m_keyPassword;
    QCheckBox* m_verifyTls;
    QLabel* m_verifyWarning;
    QLabel* m_transportWarning; // a password readable on the network path
    QPlainTextEdit* m_extra;
    // Secret properties of the shown profile whose values the keychain has not returned yet.
    QStringList m_pendingSecretProperties;
    QSpinBox* m_refreshSeconds;
    QCheckBox* m_readOnly;
    QComboBox* m_colour;
    QCheckBox* m_production;
    QLabel* m_secretNote;
    QLabel* m_testResult;
    QPushButton* m_testButton;
    QPointer<monitor::AdminTaskRunner> m_tester;
};

} // namespace groupscope::ui
