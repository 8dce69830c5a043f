#include "settings/SecretStore.h"

#include <qt6keychain/keychain.h>

#include <QPointer>

namespace groupscope::ui {

namespace {

const QString serviceName = QStringLiteral("groupscope");

bool isUnavailable(QKeychain::Error error) {
    return error == QKeychain::NoBackendAvailable || error == QKeychain::NotImplemented ||
           error == QKeychain::OtherError || error == QKeychain::AccessDenied;
}

} // namespace

SecretStore& SecretStore::instance() {
    static SecretStore store;
    return store;
}

SecretStore::SecretStore() {
    if (qEnvironmentVariableIntValue("GROUPSCOPE_NO_KEYCHAIN") != 0)
        m_sessionOnly = true;
}

QString SecretStore::storageDescription() const {
    return m_sessionOnly
               ? tr("No keychain service is available: passwords are kept in memory for "
                    "this session only and asked for again next time.")
               : tr("Passwords are stored in the system keychain, never in the settings file.");
}

void SecretStore::markUnavailable() {
    if (m_sessionOnly)
        return;
    m_sessionOnly = true;
    emit sessionOnlyChanged(true);
}

std::optional<QString> SecretStore::cached(const QString& key) const {
    const auto found = m_memory.constFind(key);
    if (found == m_memory.cend())
        return std::nullopt;
    return *found;
}

void SecretStore::read(const QString& key, QObject* context, ReadCallback done) {
    if (auto known = cached(key)) {
        done(known);
        return;
    }
    if (m_sessionOnly) {
        done(std::nullopt);
        return;
    }
    auto* job = new QKeychain::ReadPasswordJob(serviceName, this);
    job->setAutoDelete(true);
    job->setInsecureFallback(false); // a clear-text fallback file is exactly what we avoid
    job->setKey(key);
    QPointer<QObject> guard(context);
    connect(job, &QKeychain::Job::finished, this,
            [this, key, guard, done](QKeychain::Job* finished) {
                std::optional<QString> secret;
                if (finished->error() == QKeychain::NoError) {
                    secret = static_cast<QKeychain::ReadPasswordJob*>(finished)->textData();
                    m_memory.insert(key, *secret);
                } else if (isUnavailable(finished->error())) {
                    markUnavailable();
                }
                if (guard)
                    done(secret);
            });
    job->start();
}

void SecretStore::write(const QString& key, const QString& secret) {
    m_memory.insert(key, secret);
    if (m_sessionOnly)
        return;
    auto* job = new QKeychain::WritePasswordJob(serviceName, this);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(key);
    job->setTextData(secret);
    connect(job, &QKeychain::Job::finished, this, [this](QKeychain::Job* finished) {
        if (isUnavailable(finished->error()))
            markUnavailable();
    });
    job->start();
}

void SecretStore::forget(const QString& key) {
    m_memory.remove(key);
    if (m_sessionOnly)
        return;
    auto* job = new QKeychain::DeletePasswordJob(serviceName, this);
    job->setAutoDelete(true);
    job->setKey(key);
    job->start();
}

} // namespace groupscope::ui
