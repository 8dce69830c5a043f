#include "export/WebConfig.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QList>

#include <crypt.h>

#include <cstring>

namespace groupscope::exporter {

using kafka::KafkaError;
using kafka::Result;

namespace {

// One "key: value" line of the file, its value unquoted; `indented` for a child of a section.
struct Entry {
    int line = 0;
    bool indented = false;
    QString key;
    QString value;
    bool hasValue = false;
};

// The value without a trailing comment and without its quotes; nullopt when a quote is not
// closed.
std::optional<QString> scalar(QString text) {
    text = text.trimmed();
    if (text.startsWith(u'"') || text.startsWith(u'\'')) {
        const QChar quote = text.front();
        const qsizetype end = text.indexOf(quote, 1);
        if (end < 0)
            return std::nullopt;
        const QString rest = text.mid(end + 1).trimmed();
        if (!rest.isEmpty() && !rest.startsWith(u'#'))
            return std::nullopt;
        return text.mid(1, end - 1);
    }
    if (const qsizetype comment = text.indexOf(QLatin1String(" #")); comment >= 0)
        text = text.left(comment).trimmed();
    return text;
}

KafkaError problem(const QString& fileName, int line, const QString& what) {
    return KafkaError::invalidArgument(
        QStringLiteral("%1:%2: %3").arg(fileName).arg(line).arg(what));
}

Result<QList<Entry>> entriesOf(const QByteArray& text, const QString& fileName) {
    QList<Entry> entries;
    const QList<QByteArray> lines = text.split('\n');
    for (qsizetype index = 0; index < lines.size(); ++index) {
        const int number = int(index) + 1;
        QString line = QString::fromUtf8(lines[index]);
        if (line.endsWith(u'\r'))
            line.chop(1);
        const QString trimmed = line.trimmed();
        if (trimmed.isEmpty() || trimmed.startsWith(u'#') || trimmed == u"---")
            continue;
        if (line.startsWith(u'\t'))
            return problem(fileName, number, QStringLiteral("indent with spaces, not tabs"));
        const qsizetype colon = trimmed.indexOf(u':');
        if (colon <= 0)
            return problem(fileName, number, QStringLiteral("expected \"key: value\""));
        Entry entry;
        entry.line = number;
        entry.indented = line.startsWith(u' ');
        const auto key = scalar(trimmed.left(colon));
        const auto value = scalar(trimmed.mid(colon + 1));
        if (!key || !value)
            return problem(fileName, number, QStringLiteral("a quote is not closed"));
        entry.key = *key;
        entry.value = *value;
        entry.hasValue = !value->isEmpty();
        entries.append(entry);
    }
    return entries;
}

} // namespace

Result<WebConfig> WebConfig::parse(const QByteArray& text, const QString& fileName) {
    auto entries = entriesOf(text, fileName);
    if (!entries)
        return entries.error();
    const QDir base = QFileInfo(fileName).absoluteDir();
    auto path = [&](const QString& value) {
        return value.isEmpty() ? value : QDir::cleanPath(base.absoluteFilePath(value));
    };
    WebConfig config;
    QString section;
    QString clientAuth;
    for (const Entry& entry : std::as_const(entries.value())) {
        if (!entry.indented) {
            if (entry.hasValue)
                return problem(fileName, entry.line,
                               QStringLiteral("\"%1\" is not supported (only tls_server_config "
                                              "and basic_auth_users are)")
                                   .arg(entry.key));
            section = entry.key;
            if (section != u"tls_server_config" && section != u"basic_auth_users")
                return problem(fileName, entry.line,
                               QStringLiteral("\"%1\" is not supported (only tls_server_config "
                                              "and basic_auth_users are)")
                                   .arg(section));
            continue;
        }
        if (section.isEmpty())
            return problem(fileName, entry.line, QStringLiteral("indented line outside a section"));
        if (!entry.hasValue)
            return problem(fileName, entry.line,
                           QStringLiteral("\"%1\" needs a value").arg(entry.key));
        if (section == u"basic_auth_users") {
            const QByteArray hash = entry.value.toUtf8();
            if (!(hash.startsWith("$2a$") || hash.startsWith("$2b$") || hash.startsWith("$2y$")))
                return problem(fileName, entry.line,
                               QStringLiteral("the password of user \"%1\" must be a bcrypt hash "
                                              "($2y$..., e.g. from htpasswd -nB %1)")
                                   .arg(entry.key));
            config.basicAuthUsers.insert(entry.key, hash);
        } else if (entry.key == u"cert_file") {
            config.certFile = path(entry.value);
        } else if (entry.key == u"key_file") {
            config.keyFile = path(entry.value);
        } else if (entry.key == u"client_ca_file") {
            config.clientCaFile = path(entry.value);
        } else if (entry.key == u"client_auth_type") {
            clientAuth = entry.value;
        } else {
            return problem(fileName, entry.line,
                           QStringLiteral("tls_server_config \"%1\" is not supported (cert_file, "
                                          "key_file, client_auth_type and client_ca_file are)")
                               .arg(entry.key));
        }
    }
    if (!clientAuth.isEmpty() && clientAuth != u"NoClientCert" &&
        clientAuth != u"RequireAndVerifyClientCert")
        return KafkaError::invalidArgument(
            QStringLiteral("%1: client_auth_type %2 is not supported: use "
                           "RequireAndVerifyClientCert or NoClientCert")
                .arg(fileName, clientAuth));
    config.requireClientCertificate = clientAuth == u"RequireAndVerifyClientCert";
    if (config.certFile.isEmpty() != config.keyFile.isEmpty() ||
        (!config.clientCaFile.isEmpty() && config.certFile.isEmpty()))
        return KafkaError::invalidArgument(
            QStringLiteral("%1: tls_server_config needs both cert_file and key_file")
                .arg(fileName));
    if (config.requireClientCertificate && config.clientCaFile.isEmpty())
        return KafkaError::invalidArgument(
            QStringLiteral("%1: RequireAndVerifyClientCert needs client_ca_file").arg(fileName));
    return config;
}

Result<WebConfig> WebConfig::load(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return KafkaError::invalidArgument(
            QStringLiteral("cannot read the web config %1: %2").arg(path, file.errorString()));
    return parse(file.read(64 * 1024), path);
}

bool bcryptMatches(const QByteArray& password, const QByteArray& hash) {
    if (!(hash.startsWith("$2a$") || hash.startsWith("$2b$") || hash.startsWith("$2y$")) ||
        password.contains('\0')) // crypt() would stop there: "right\0anything" must not pass
        return false;
    crypt_data data;
    std::memset(&data, 0, sizeof data);
    const char* computed = crypt_r(password.constData(), hash.constData(), &data);
    // A failure gives null or a string starting with '*', which never equals a hash.
    if (!computed || hash.size() != qsizetype(std::strlen(computed)))
        return false;
    // Compared in constant time: how much of a guess matched must not show in the timing.
    unsigned char difference = 0;
    for (qsizetype i = 0; i < hash.size(); ++i)
        difference |= static_cast<unsigned char>(computed[i] ^ hash[i]);
    return difference == 0;
}

} // namespace groupscope::exporter
