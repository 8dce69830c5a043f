// The write journal (SQLite through Qt SQL): entries recorded as intents and completed with
// their outcome, read newest first and in pages, the in-doubt ones found, the file private
// to its owner, the audit.jsonl of earlier versions imported once with its bad lines named,
// and a journal that is not SQLite or that another process holds locked refused with a
// message that says so, recording nothing; the offsets of its recent writes that landed.
#include "offsets/RecentCommits.h"
#include "offsets/WriteJournal.h"

#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace groupscope::offsets;

namespace {

JournalEntry entryAt(int second, const QString& group, JournalState state = JournalState::Done) {
    JournalEntry entry;
    entry.id = QStringLiteral("20261201T1000%1.000Z-0001").arg(second, 2, 10, QLatin1Char('0'));
    entry.time = QDateTime(QDate(2026, 12, 1), QTime(10, 0, second), Qt::UTC);
    entry.cluster = QStringLiteral("127.0.0.1:9092");
    entry.clusterId = QStringLiteral("cluster-a");
    entry.groupId = group;
    entry.description = QStringLiteral("shift by -5");
    entry.state = state;
    JournalPartition partition;
    partition.topicPartition = {QStringLiteral("orders"), 3};
    partition.before = 40;
    partition.beforeMetadata = QStringLiteral("consumer-1");
    partition.planned = 35;
    if (state != JournalState::InDoubt)
        partition.after = 35;
    entry.partitions.append(partition);
    return entry;
}

QByteArray legacyLine(const QString& id) {
    return QStringLiteral(R"({"id":"%1","time":"2026-11-30T09:00:00.000Z","cluster":"b:9092",)"
                          R"("group":"old","appliedBy":"me@host via groupscope-cli 0.1.0",)"
                          R"("description":"to-earliest","partitions":[{"topic":"t","partition":0,)"
                          R"("before":7,"after":0}]})")
        .arg(id)
        .toUtf8();
}

} // namespace

class TestWriteJournal : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_journals = 0;

    // A fresh journal path in a folder of its own (the legacy file is looked for beside it).
    QString newJournalPath() {
        const QString folder = m_dir.filePath(QString::number(++m_journals));
        return folder + QStringLiteral("/journal.sqlite");
    }

private slots:
    void intentThenOutcome() {
        WriteJournal journal(newJournalPath());
        JournalEntry entry = entryAt(1, QStringLiteral("orders"), JournalState::InDoubt);
        QVERIFY(journal.insert(entry));
        auto inDoubt = journal.inDoubt();
        QVERIFY(inDoubt);
        QCOMPARE(inDoubt.value().size(), 1);
        QCOMPARE(inDoubt.value().first().partitions.first().beforeMetadata,
                 QStringLiteral("consumer-1"));
        QVERIFY(!inDoubt.value().first().partitions.first().after);

        entry.state = JournalState::Done;
        entry.partitions[0].after = 35;
        QVERIFY(journal.update(entry));
        QVERIFY(journal.inDoubt().value().isEmpty());
        auto found = journal.find(entry.id);
        QVERIFY(found);
        QCOMPARE(found.value().toJson(), entry.toJson());
        // An id recorded once cannot be recorded again; an unknown one cannot be updated.
        QVERIFY(!journal.insert(entry));
        JournalEntry unknown = entryAt(2, QStringLiteral("orders"));
        QVERIFY(!journal.update(unknown));
        QVERIFY(!journal.find(unknown.id));
    }

    void newestFirstInPagesPerGroup() {
        WriteJournal journal(newJournalPath());
        for (int second = 0; second < 30; ++second)
            QVERIFY(journal.insert(
                entryAt(second, second % 3 == 0 ? QStringLiteral("a") : QStringLiteral("b"))));
        QCOMPARE(journal.count().value(), 30);
        JournalQuery query;
        query.groupId = QStringLiteral("a");
        QCOMPARE(journal.count(query).value(), 10);
        query.limit = 4;
        auto first = journal.entries(query);
        QVERIFY(first);
        QCOMPARE(first.value().size(), 4);
        QCOMPARE(first.value().first().time.time().second(), 27);
        query.olderThan = first.value().last().id;
        auto second = journal.entries(query);
        QCOMPARE(second.value().size(), 4);
        QCOMPARE(second.value().first().time.time().second(), 15);
        query.clusterId = QStringLiteral("another cluster");
        QVERIFY(journal.entries(query).value().isEmpty());
    }

    // What a look for recent commits counts as Groupscope's own: the offsets its recent
    // writes put there, not those of a write the broker refused, nor of an old one.
    void ownWritesAreTheRecentWritesThatWereNotRefused() {
        WriteJournal journal(newJournalPath());
        const QDateTime now = QDateTime::currentDateTimeUtc();
        JournalEntry applied = entryAt(1, QStringLiteral("orders"));
        applied.time = now;
        JournalEntry refused = entryAt(2, QStringLiteral("orders"));
        refused.time = now;
        refused.partitions[0].topicPartition.partition = 4;
        refused.partitions[0].after = 40;
        refused.partitions[0].error = QStringLiteral("refused: the group has members again");
        JournalEntry old = entryAt(0, QStringLiteral("orders")); // ids in time order
        old.time = now.addSecs(-3600);
        old.partitions[0].topicPartition.partition = 5;
        for (const JournalEntry& entry : {applied, refused, old})
            QVERIFY(journal.insert(entry));
        const auto own =
            RecentCommits::ownWritesOf(journal, QStringLiteral("orders"), std::chrono::seconds(30));
        QCOMPARE(own, (QSet<QPair<groupscope::kafka::TopicPartition, int64_t>>{
                          {{QStringLiteral("orders"), 3}, 35}}));
    }

    void fileIsPrivateToItsOwner() {
        const QString path = newJournalPath();
        WriteJournal journal(path);
        QVERIFY(journal.open());
        QCOMPARE(QFile::permissions(path) & (QFileDevice::ReadGroup | QFileDevice::ReadOther |
                                             QFileDevice::WriteGroup | QFileDevice::WriteOther),
                 QFileDevice::Permissions());
    }

    // A crash mid-append left half a line: the other entries stay, the line is named.
    void legacyAuditLogImportedOnceWithBadLinesNamed() {
        const QString path = newJournalPath();
        QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
        QFile legacy(QFileInfo(path).absolutePath() + QStringLiteral("/audit.jsonl"));
        QVERIFY(legacy.open(QIODevice::WriteOnly));
        legacy.write(legacyLine(QStringLiteral("e1")) + '\n' + legacyLine(QStringLiteral("e2")) +
                     "\n{\"id\":\"e3\",\"time\":\"2026-11-30T09:0\n" +
                     legacyLine(QStringLiteral("e4")) + '\n');
        legacy.close();
        {
            WriteJournal journal(path);
            QVERIFY(journal.open());
            QCOMPARE(journal.importProblems().size(), 1);
            QVERIFY2(journal.importProblems().first().contains(QStringLiteral("audit.jsonl:3:")),
                     qPrintable(journal.importProblems().first()));
            auto entries = journal.entries();
            QVERIFY(entries);
            QCOMPARE(entries.value().size(), 3);
            const JournalEntry e1 = journal.find(QStringLiteral("e1")).value();
            QCOMPARE(e1.state, JournalState::Done);
            QCOMPARE(e1.partitions.first().before, std::optional<int64_t>(7));
            QCOMPARE(e1.partitions.first().after, std::optional<int64_t>(0));
            QCOMPARE(e1.partitions.first().planned, std::optional<int64_t>(0));
        }
        // Imported once: a later open (another process) neither imports again nor complains.
        WriteJournal again(path);
        QVERIFY(again.open());
        QVERIFY(again.importProblems().isEmpty());
        QCOMPARE(again.count().value(), 3);
    }

    void notADatabaseIsRefusedClearly() {
        const QString path = newJournalPath();
        QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(4096, 'x'));
        file.close();
        WriteJournal journal(path);
        const auto inserted = journal.insert(entryAt(1, QStringLiteral("g")));
        QVERIFY(!inserted);
        QVERIFY2(inserted.error().message.contains(path) &&
                     inserted.error().message.contains(QStringLiteral("move it aside")),
                 qPrintable(inserted.error().message));
        QCOMPARE(QFileInfo(path).size(), 4096); // nothing written over it
    }

    // Another process holds SQLite's write lock past the busy timeout (10 s): the write is
    // refused, says why and records nothing; once the lock is gone, writes go through.
    void lockedJournalRefusesThenRecovers() {
        const QString path = newJournalPath();
        WriteJournal journal(path);
        QVERIFY(journal.open());
        {
            QSqlDatabase other = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"),
                                                           QStringLiteral("other-process"));
            other.setDatabaseName(path);
            QVERIFY(other.open());
            QSqlQuery lock(other);
            QVERIFY(lock.exec(QStringLiteral("BEGIN EXCLUSIVE")));
            const auto refused = journal.insert(entryAt(1, QStringLiteral("g")));
            QVERIFY(!refused);
            QVERIFY2(refused.error().message.contains(QStringLiteral("locked")),
                     qPrintable(refused.error().message));
            QVERIFY(lock.exec(QStringLiteral("COMMIT")));
            QVERIFY(journal.insert(entryAt(2, QStringLiteral("g"))));
            QCOMPARE(journal.count().value(), 1);
        }
        QSqlDatabase::removeDatabase(QStringLiteral("other-process"));
    }
};

QTEST_GUILESS_MAIN(TestWriteJournal)
#include "TestWriteJournal.moc"
