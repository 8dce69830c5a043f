#include "offsets/WriteJournal.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QSysInfo>
#include <QUuid>

namespace groupscope::offsets {

using kafka::KafkaError;

namespace {

constexpr int busyTimeoutMs = 10'000;
const QString legacyFileName = QStringLiteral("audit.jsonl");
const QString importedKey = QStringLiteral("imported-audit-jsonl");

QString lastError(const QSqlQuery& query) {
    return query.lastError().text();
}

// A null QString binds as SQL NULL, which the NOT NULL columns refuse: bind "" instead.
QString notNull(const QString& text) {
    return text.isNull() ? QStringLiteral("") : text;
}

void bindEntry(QSqlQuery& query, const JournalEntry& entry) {
    query.bindValue(QStringLiteral(":id"), notNull(entry.id));
    query.bindValue(QStringLiteral(":time"), entry.time.toUTC().toString(Qt::ISODateWithMs));
    query.bindValue(QStringLiteral(":cluster_id"), notNull(entry.clusterId));
    query.bindValue(QStringLiteral(":group_id"), notNull(entry.groupId));
    query.bindValue(QStringLiteral(":state"), journalStateName(entry.state));
    query.bindValue(
        QStringLiteral(":body"),
        QString::fromUtf8(QJsonDocument(entry.toJson()).toJson(QJsonDocument::Compact)));
}

const QString insertStatement =
    QStringLiteral("INSERT %1 INTO entries (id, time, cluster_id, group_id, state, body) "
                   "VALUES (:id, :time, :cluster_id, :group_id, :state, :body)");

} // namespace

QString WriteJournal::defaultDirectory() {
    QString dir = qEnvironmentVariable("GROUPSCOPE_DATA_DIR");
    if (dir.isEmpty())
        dir = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
              QStringLiteral("/groupscope");
    return dir;
}

QString WriteJournal::defaultPath() {
    return defaultDirectory() + QStringLiteral("/journal.sqlite");
}

QString WriteJournal::newEntryId() {
    return QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd'T'HHmmss.zzz'Z'")) +
           u'-' +
           QString::number(QRandomGenerator::global()->bounded(0x10000), 16)
               .rightJustified(4, u'0');
}

QString WriteJournal::currentUser() {
    QString user = qEnvironmentVariable("USER");
    if (user.isEmpty())
        user = qEnvironmentVariable("LOGNAME", QStringLiteral("unknown"));
    return user + u'@' + QSysInfo::machineHostName();
}

WriteJournal::WriteJournal(QString path)
    : m_path(std::move(path))
    , m_connectionName(QStringLiteral("groupscope-journal-") +
                       QUuid::createUuid().toString(QUuid::WithoutBraces)) {}

WriteJournal::~WriteJournal() {
    if (QSqlDatabase::contains(m_connectionName)) {
        QSqlDatabase::database(m_connectionName, false).close();
        QSqlDatabase::removeDatabase(m_connectionName);
    }
}

KafkaError WriteJournal::failure(const QString& what, const QString& reason) const {
    return KafkaError::invalidArgument(
        QStringLiteral("the write journal %1: %2: %3").arg(m_path, what, reason));
}

kafka::Status WriteJournal::open() {
    if (m_open)
        return kafka::Done{};
    const QFileInfo info(m_path);
    if (!QDir().mkpath(info.absolutePath()))
        return failure(QStringLiteral("cannot create its folder"), info.absolutePath());
    // Created by hand first, so that the database (and the WAL and shared-memory files
    // SQLite gives the same mode) is readable by its owner only.
    if (!info.exists()) {
        QFile file(m_path);
        if (!file.open(QIODevice::WriteOnly) ||
            !file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner))
            return failure(QStringLiteral("cannot create it"), file.errorString());
    }
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")))
        return failure(QStringLiteral("cannot open it"),
                       QStringLiteral("Qt's SQLite driver is not installed "
                                      "(Debian: libqt6sql6-sqlite)"));
    QSqlDatabase database =
        QSqlDatabase::contains(m_connectionName)
            ? QSqlDatabase::database(m_connectionName, false)
            : QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
    database.setDatabaseName(m_path);
    database.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(busyTimeoutMs));
    if (!database.open())
        return failure(QStringLiteral("cannot open it"), database.lastError().text());
    QSqlQuery query(database);
    // journal_mode answers with a row; a file that is not SQLite fails here.
    if (!query.exec(QStringLiteral("PRAGMA journal_mode=WAL")) ||
        !query.exec(QStringLiteral("PRAGMA synchronous=FULL")))
        return failure(QStringLiteral("cannot use it (move it aside to start a new journal)"),
                       lastError(query));
    m_open = true;
    if (auto created = createSchema(); !created) {
        m_open = false;
        return created;
    }
    return importLegacyAuditLog();
}

kafka::Status WriteJournal::createSchema() {
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    // The indexed columns are what History filters and pages on; `body` is the whole entry
    // as JSON (JournalEntry::toJson), so new fields need no new columns.
    const QStringList statements{
        QStringLiteral("CREATE TABLE IF NOT EXISTS entries (id TEXT PRIMARY KEY, "
                       "time TEXT NOT NULL, cluster_id TEXT NOT NULL, group_id TEXT NOT NULL, "
                       "state TEXT NOT NULL, body TEXT NOT NULL)"),
        // A group's entries on one cluster (History's default) and on all of them: with only
        // (group_id, id) SQLite walked the cluster's index instead, 60 ms at 100,000 entries
        // (BenchJournalHistory).
        QStringLiteral("DROP INDEX IF EXISTS entries_by_group"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS entries_by_group_and_cluster "
                       "ON entries (group_id, cluster_id, id)"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS entries_by_cluster ON entries (cluster_id, id)"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS entries_by_state ON entries (state)"),
        QStringLiteral("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")};
    for (const QString& statement : statements)
        if (!query.exec(statement))
            return failure(QStringLiteral("cannot create its tables"), lastError(query));
    return kafka::Done{};
}

kafka::Status WriteJournal::importLegacyAuditLog() {
    const QString legacyPath = QFileInfo(m_path).absolutePath() + u'/' + legacyFileName;
    QSqlDatabase database = QSqlDatabase::database(m_connectionName, false);
    QSqlQuery query(database);
    // BEGIN IMMEDIATE takes the write lock, so two processes opening a new journal at once
    // import the file once between them.
    if (!query.exec(QStringLiteral("BEGIN IMMEDIATE")))
        return failure(QStringLiteral("is locked by another process"), lastError(query));
    query.prepare(QStringLiteral("SELECT value FROM meta WHERE key = ?"));
    query.addBindValue(importedKey);
    const bool done = query.exec() && query.next();
    query.finish();
    if (done || !QFile::exists(legacyPath)) {
        if (!done) {
            query.prepare(QStringLiteral("INSERT INTO meta (key, value) VALUES (?, ?)"));
            query.addBindValue(importedKey);
            query.addBindValue(QStringLiteral("no file"));
            query.exec();
        }
        query.exec(QStringLiteral("COMMIT"));
        return kafka::Done{};
    }
    QFile file(legacyPath);
    if (!file.open(QIODevice::ReadOnly)) {
        query.exec(QStringLiteral("ROLLBACK"));
        return failure(QStringLiteral("cannot import ") + legacyPath, file.errorString());
    }
    const QList<JournalEntry> entries =
        parseJournalLines(file.readAll(), legacyPath, &m_importProblems);
    for (const JournalEntry& entry : entries) {
        // An id already there (an entry imported by hand before) is kept as it is.
        query.prepare(insertStatement.arg(QStringLiteral("OR IGNORE")));
        bindEntry(query, entry);
        if (!query.exec()) {
            const QString reason = lastError(query);
            query.exec(QStringLiteral("ROLLBACK"));
            return failure(QStringLiteral("cannot import ") + legacyPath, reason);
        }
    }
    query.prepare(QStringLiteral("INSERT INTO meta (key, value) VALUES (?, ?)"));
    query.addBindValue(importedKey);
    query.addBindValue(QStringLiteral("%1 entries, %2 lines skipped")
                           .arg(entries.size())
                           .arg(m_importProblems.size()));
    if (!query.exec() || !query.exec(QStringLiteral("COMMIT"))) {
        const QString reason = lastError(query);
        query.exec(QStringLiteral("ROLLBACK"));
        return failure(QStringLiteral("cannot import ") + legacyPath, reason);
    }
    return kafka::Done{};
}

kafka::Status WriteJournal::write(const QString& statement, const JournalEntry& entry) {
    if (auto opened = open(); !opened)
        return opened;
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(statement);
    bindEntry(query, entry);
    if (!query.exec())
        return failure(QStringLiteral("cannot record entry ") + entry.id, lastError(query));
    if (query.numRowsAffected() != 1)
        return failure(QStringLiteral("cannot record entry ") + entry.id,
                       QStringLiteral("no such entry"));
    return kafka::Done{};
}

kafka::Status WriteJournal::insert(const JournalEntry& entry) {
    return write(insertStatement.arg(QString()), entry);
}

kafka::Status WriteJournal::update(const JournalEntry& entry) {
    return write(QStringLiteral("UPDATE entries SET time = :time, cluster_id = :cluster_id, "
                                "group_id = :group_id, state = :state, body = :body "
                                "WHERE id = :id"),
                 entry);
}

kafka::Result<QList<JournalEntry>> WriteJournal::select(const QString& where,
                                                        const QVariantList& values,
                                                        const QString& order, int limit) {
    if (auto opened = open(); !opened)
        return opened.error();
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.setForwardOnly(true);
    QString statement = QStringLiteral("SELECT id, body FROM entries");
    if (!where.isEmpty())
        statement += QStringLiteral(" WHERE ") + where;
    statement += QStringLiteral(" ORDER BY id ") + order;
    if (limit >= 0)
        statement += QStringLiteral(" LIMIT %1").arg(limit);
    query.prepare(statement);
    for (const QVariant& value : values)
        query.addBindValue(value);
    if (!query.exec())
        return failure(QStringLiteral("cannot read it"), lastError(query));
    QList<JournalEntry> entries;
    while (query.next()) {
        const QJsonDocument document = QJsonDocument::fromJson(query.value(1).toByteArray());
        auto entry = JournalEntry::fromJson(document.object());
        // One bad record never hides the others: it is shown as what is left of it.
        if (!entry) {
            JournalEntry unreadable;
            unreadable.id = query.value(0).toString();
            unreadable.note = QStringLiteral("unreadable record: ") + entry.error().message;
            entries.append(unreadable);
            continue;
        }
        entries.append(std::move(entry).value());
    }
    return entries;
}

namespace {
// The WHERE clause and its values for a query.
QString whereOf(const JournalQuery& query, QVariantList& values) {
    QStringList conditions;
    if (!query.groupId.isEmpty()) {
        conditions.append(QStringLiteral("group_id = ?"));
        values.append(query.groupId);
    }
    if (!query.clusterId.isEmpty()) {
        conditions.append(QStringLiteral("cluster_id = ?"));
        values.append(query.clusterId);
    }
    if (!query.olderThan.isEmpty()) {
        conditions.append(QStringLiteral("id < ?"));
        values.append(query.olderThan);
    }
    return conditions.join(QStringLiteral(" AND "));
}
} // namespace

kafka::Result<QList<JournalEntry>> WriteJournal::entries(const JournalQuery& query) {
    QVariantList values;
    const QString where = whereOf(query, values);
    return select(where, values, QStringLiteral("DESC"), query.limit);
}

kafka::Result<int> WriteJournal::count(const JournalQuery& journalQuery) {
    if (auto opened = open(); !opened)
        return opened.error();
    QVariantList values;
    JournalQuery all = journalQuery;
    all.olderThan.clear();
    const QString where = whereOf(all, values);
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("SELECT COUNT(*) FROM entries") +
                  (where.isEmpty() ? QString() : QStringLiteral(" WHERE ") + where));
    for (const QVariant& value : values)
        query.addBindValue(value);
    if (!query.exec() || !query.next())
        return failure(QStringLiteral("cannot read it"), lastError(query));
    return query.value(0).toInt();
}

kafka::Result<JournalEntry> WriteJournal::find(const QString& id) {
    auto found = select(QStringLiteral("id = ?"), {id}, QStringLiteral("ASC"), 1);
    if (!found)
        return found.error();
    if (found.value().isEmpty())
        return KafkaError::invalidArgument(
            QStringLiteral("no journal entry %1 in %2").arg(id, m_path));
    return found.value().first();
}

kafka::Result<QList<JournalEntry>> WriteJournal::inDoubt() {
    return select(QStringLiteral("state = ?"), {journalStateName(JournalState::InDoubt)},
                  QStringLiteral("ASC"), -1);
}

} // namespace groupscope::offsets
