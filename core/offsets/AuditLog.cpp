#include "offsets/AuditLog.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLockFile>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QSysInfo>

namespace groupscope::offsets {

using kafka::KafkaError;

namespace {
QJsonValue optionalOffset(const std::optional<int64_t>& offset) {
    return offset ? QJsonValue(qint64(*offset)) : QJsonValue(QJsonValue::Null);
}
std::optional<int64_t> readOptionalOffset(const QJsonValue& value) {
    if (value.isNull() || value.isUndefined())
        return std::nullopt;
    return int64_t(value.toInteger());
}
} // namespace

QJsonObject AuditEntry::toJson() const {
    QJsonArray array;
    for (const AuditPartition& partition : partitions) {
        QJsonObject object{{QStringLiteral("topic"), partition.topicPartition.topic},
                           {QStringLiteral("partition"), partition.topicPartition.partition},
                           {QStringLiteral("before"), optionalOffset(partition.before)},
                           {QStringLiteral("after"), optionalOffset(partition.after)}};
        if (!partition.error.isEmpty())
            object.insert(QStringLiteral("error"), partition.error);
        array.append(object);
    }
    QJsonObject object{{QStringLiteral("id"), id},
                       {QStringLiteral("time"), time.toUTC().toString(Qt::ISODateWithMs)},
                       {QStringLiteral("cluster"), cluster},
                       {QStringLiteral("group"), groupId},
                       {QStringLiteral("appliedBy"), appliedBy},
                       {QStringLiteral("description"), description},
                       {QStringLiteral("partitions"), array}};
    if (!undoOf.isEmpty())
        object.insert(QStringLiteral("undoOf"), undoOf);
    return object;
}

kafka::Result<AuditEntry> AuditEntry::fromJson(const QJsonObject& object) {
    AuditEntry entry;
    entry.id = object[QStringLiteral("id")].toString();
    entry.time =
        QDateTime::fromString(object[QStringLiteral("time")].toString(), Qt::ISODateWithMs);
    entry.cluster = object[QStringLiteral("cluster")].toString();
    entry.groupId = object[QStringLiteral("group")].toString();
    entry.appliedBy = object[QStringLiteral("appliedBy")].toString();
    entry.description = object[QStringLiteral("description")].toString();
    entry.undoOf = object[QStringLiteral("undoOf")].toString();
    if (entry.id.isEmpty() || entry.groupId.isEmpty() ||
        !object[QStringLiteral("partitions")].isArray())
        return KafkaError::invalidArgument(QStringLiteral("entry lacks id, group or partitions"));
    for (const QJsonValue& value : object[QStringLiteral("partitions")].toArray()) {
        const QJsonObject p = value.toObject();
        entry.partitions.append(
            {{p[QStringLiteral("topic")].toString(), p[QStringLiteral("partition")].toInt(-1)},
             readOptionalOffset(p[QStringLiteral("before")]),
             readOptionalOffset(p[QStringLiteral("after")]),
             p[QStringLiteral("error")].toString()});
    }
    return entry;
}

QString AuditLog::defaultPath() {
    QString dir = qEnvironmentVariable("GROUPSCOPE_DATA_DIR");
    if (dir.isEmpty())
        dir = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
              QStringLiteral("/groupscope");
    return dir + QStringLiteral("/audit.jsonl");
}

QString AuditLog::newEntryId() {
    return QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd'T'HHmmss.zzz'Z'")) +
           u'-' +
           QString::number(QRandomGenerator::global()->bounded(0x10000), 16)
               .rightJustified(4, u'0');
}

QString AuditLog::currentUser() {
    QString user = qEnvironmentVariable("USER");
    if (user.isEmpty())
        user = qEnvironmentVariable("LOGNAME", QStringLiteral("unknown"));
    return user + u'@' + QSysInfo::machineHostName();
}

kafka::Status AuditLog::append(const AuditEntry& entry) {
    const QFileInfo info(m_path);
    if (!QDir().mkpath(info.absolutePath()))
        return KafkaError::invalidArgument(
            QStringLiteral("cannot create %1").arg(info.absolutePath()));
    QLockFile lock(m_path + QStringLiteral(".lock"));
    if (!lock.tryLock(10'000))
        return KafkaError::invalidArgument(
            QStringLiteral("audit log %1 is locked by another process").arg(m_path));
    QFile file(m_path);
    if (!file.open(QIODevice::Append | QIODevice::WriteOnly))
        return KafkaError::invalidArgument(
            QStringLiteral("cannot write audit log %1: %2").arg(m_path, file.errorString()));
    const QByteArray line = QJsonDocument(entry.toJson()).toJson(QJsonDocument::Compact) + '\n';
    if (file.write(line) != line.size() || !file.flush())
        return KafkaError::invalidArgument(
            QStringLiteral("cannot write audit log %1: %2").arg(m_path, file.errorString()));
    return kafka::Done{};
}

kafka::Result<QList<AuditEntry>> AuditLog::readAll() const {
    QList<AuditEntry> entries;
    QFile file(m_path);
    if (!file.exists())
        return entries;
    if (!file.open(QIODevice::ReadOnly))
        return KafkaError::invalidArgument(
            QStringLiteral("cannot read audit log %1: %2").arg(m_path, file.errorString()));
    int lineNumber = 0;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine().trimmed();
        ++lineNumber;
        if (line.isEmpty())
            continue;
        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(line, &parseError);
        auto entry =
            document.isObject()
                ? AuditEntry::fromJson(document.object())
                : kafka::Result<AuditEntry>(KafkaError::invalidArgument(parseError.errorString()));
        if (!entry)
            return KafkaError::invalidArgument(
                QStringLiteral("%1:%2: %3").arg(m_path).arg(lineNumber).arg(entry.error().message));
        entries.append(std::move(entry).value());
    }
    return entries;
}

kafka::Result<AuditEntry> AuditLog::find(const QString& id) const {
    auto entries = readAll();
    if (!entries)
        return entries.error();
    for (const AuditEntry& entry : entries.value())
        if (entry.id == id)
            return entry;
    return KafkaError::invalidArgument(QStringLiteral("no audit entry %1 in %2").arg(id, m_path));
}

} // namespace groupscope::offsets
