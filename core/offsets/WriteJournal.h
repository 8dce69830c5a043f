#pragma once

#include "offsets/JournalEntry.h"

#include <QString>
#include <QStringList>

namespace groupscope::offsets {

// Which entries to read, newest first.
struct JournalQuery {
    QString groupId;   // empty: every group
    QString clusterId; // empty: every cluster
    QString olderThan; // an entry id: only entries before it (the next page); empty: newest
    int limit = -1;    // -1: all
};

// The write journal: every write Groupscope makes to a cluster, recorded before it is sent
// (the intent, with the offsets read just before) and again after (each partition's
// outcome). One SQLite database shared by every window and CLI process of the user:
// WAL mode so readers never wait for a writer, synchronous=FULL so a committed intent
// survives a crash or a power loss, a busy timeout so processes take turns, file mode 0600.
// An intent without an outcome is "in doubt" until JournalRecovery reads the truth back
// from the broker. Never holds secrets: entries carry the bootstrap list and cluster id only.
//
// The audit.jsonl of earlier versions, beside the database, is imported once when the
// database is created; lines that do not parse are skipped and named in importProblems().
//
// An instance opens its own database connection on first use and is used by one thread.
class WriteJournal {
public:
    // GROUPSCOPE_DATA_DIR, else the user's data directory (~/.local/share/groupscope).
    static QString defaultDirectory();
    static QString defaultPath(); // defaultDirectory() + "/journal.sqlite"

    explicit WriteJournal(QString path = defaultPath());
    ~WriteJournal();
    WriteJournal(const WriteJournal&) = delete;
    WriteJournal& operator=(const WriteJournal&) = delete;

    const QString& path() const { return m_path; }
    // Opens (and on first use creates) the database. Every other call opens it too; this
    // one is for saying early that the journal cannot be used.
    kafka::Status open();
    // Lines of audit.jsonl that the import skipped, with their line numbers.
    const QStringList& importProblems() const { return m_importProblems; }

    // Records a new entry (an intent: state InDoubt, partitions without outcome).
    kafka::Status insert(const JournalEntry& entry);
    // Replaces a recorded entry: its outcome, recovery or overwritten partitions.
    kafka::Status update(const JournalEntry& entry);

    kafka::Result<QList<JournalEntry>> entries(const JournalQuery& query = {});
    kafka::Result<int> count(const JournalQuery& query = {});
    kafka::Result<JournalEntry> find(const QString& id);
    // Entries whose outcome was never recorded, oldest first.
    kafka::Result<QList<JournalEntry>> inDoubt();

    static QString newEntryId();
    static QString currentUser(); // user@host

private:
    kafka::Status createSchema();
    kafka::Status importLegacyAuditLog();
    kafka::Status write(const QString& statement, const JournalEntry& entry);
    kafka::Result<QList<JournalEntry>> select(const QString& where, const QVariantList& values,
                                              const QString& order, int limit);
    kafka::KafkaError failure(const QString& what, const QString& reason) const;

    QString m_path;
    QString m_connectionName;
    bool m_open = false;
    QStringList m_importProblems;
};

} // namespace groupscope::offsets
