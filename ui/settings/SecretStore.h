#pragma once

#include <QHash>
#include <QObject>

#include <functional>
#include <optional>

namespace groupscope::ui {

// Where connection secrets (SASL passwords, key passphrases) live: the system keychain
// through QtKeychain, never QSettings. Where no keychain service runs (headless machines,
// or GROUPSCOPE_NO_KEYCHAIN=1) secrets are kept in memory for this session only, and
// sessionOnly() says so, so the UI can tell the user.
class SecretStore : public QObject {
    Q_OBJECT
public:
    static SecretStore& instance();

    // True once the keychain turned out to be unavailable (or was disabled).
    bool sessionOnly() const { return m_sessionOnly; }
    QString storageDescription() const;

    using ReadCallback = std::function<void(std::optional<QString>)>;
    // The secret for `key` ("profile/sasl-password"), from memory, else the keychain.
    void read(const QString& key, QObject* context, ReadCallback done);
    // Keeps the secret in memory and, where possible, in the keychain.
    void write(const QString& key, const QString& secret);
    void forget(const QString& key);
    // Synchronous: what this session already knows.
    std::optional<QString> cached(const QString& key) const;

signals:
    void sessionOnlyChanged(bool sessionOnly);

private:
    SecretStore();
    void markUnavailable();

    QHash<QString, QString> m_memory;
    bool m_sessionOnly = false;
};

} // namespace groupscope::ui
