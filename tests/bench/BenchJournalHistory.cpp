// The write journal at 100,000 entries (1,000 groups with 100 writes each, on two clusters,
// 10 partitions per entry): what the History tab and the CLI ask of it, timed. The History
// tab reads a page of 500 of one group on the connected cluster, then the next page ("Show
// Older"), and every write first looks for entries in doubt. The peer in the same run is the
// plain-text way of earlier versions: reading the same entries back from JSON lines (the
// journal's export format) and keeping the group's. Prints figures; does not pass or fail on
// them. The database is written on /dev/shm where it exists: 100,000 synchronous commits on
// a disk would time the disk.

#include "BenchFigures.h"

#include "offsets/WriteJournal.h"

#include <QDir>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

using namespace groupscope;
using offsets::JournalEntry;
using offsets::JournalQuery;

namespace {

constexpr int groupCount = 1000;
constexpr int writesPerGroup = 100;
constexpr int partitionsPerEntry = 10;
constexpr int pageSize = 500; // the History tab's

JournalEntry entry(int write, int group) {
    JournalEntry entry;
    const QDateTime time = QDateTime(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC)
                               .addSecs(qint64(write) * groupCount + group);
    entry.id = time.toString(QStringLiteral("yyyyMMdd'T'HHmmss.zzz'Z'")) +
               QStringLiteral("-%1").arg(group, 4, 10, QLatin1Char('0'));
    entry.time = time;
    entry.cluster = QStringLiteral("127.0.0.1:9092");
    entry.clusterId = group % 2 ? QStringLiteral("cluster-a") : QStringLiteral("cluster-b");
    entry.groupId = QStringLiteral("group-%1").arg(group, 4, 10, QLatin1Char('0'));
    entry.appliedBy = QStringLiteral("me@host via groupscope-cli");
    entry.description = QStringLiteral("shift by -5");
    for (int p = 0; p < partitionsPerEntry; ++p) {
        offsets::JournalPartition partition;
        partition.topicPartition = {QStringLiteral("orders"), p};
        partition.before = 1000 + write;
        partition.planned = 995 + write;
        partition.after = 995 + write;
        entry.partitions.append(partition);
    }
    return entry;
}

double msSince(const QElapsedTimer& timer) {
    return double(timer.nsecsElapsed()) / 1e6;
}

} // namespace

class BenchJournalHistory : public QObject {
    Q_OBJECT

private slots:
    void historyAtOneHundredThousandEntries() {
        QTemporaryDir dir(QDir(QStringLiteral("/dev/shm")).exists()
                              ? QStringLiteral("/dev/shm/groupscope-bench-XXXXXX")
                              : QDir::tempPath() + QStringLiteral("/groupscope-bench-XXXXXX"));
        QVERIFY(dir.isValid());
        offsets::WriteJournal journal(dir.filePath(QStringLiteral("journal.sqlite")));
        QVERIFY(journal.open());
        QByteArray lines; // the same entries as JSON lines, for the peer
        QElapsedTimer timer;
        timer.start();
        for (int write = 0; write < writesPerGroup; ++write)
            for (int group = 0; group < groupCount; ++group) {
                const JournalEntry one = entry(write, group);
                QVERIFY(journal.insert(one));
                lines += QJsonDocument(one.toJson()).toJson(QJsonDocument::Compact) + '\n';
            }
        const double insertMs = msSince(timer);

        const QString group = QStringLiteral("group-0501");
        const QString cluster = QStringLiteral("cluster-a");
        timer.restart();
        auto page = journal.entries({group, cluster, QString(), pageSize});
        const double firstPageMs = msSince(timer);
        QVERIFY(page);
        QCOMPARE(page.value().size(), writesPerGroup); // the group has 100: one page

        timer.restart();
        auto everyCluster = journal.entries({group, QString(), QString(), pageSize});
        const double everyClusterMs = msSince(timer);
        QVERIFY(everyCluster && everyCluster.value().size() == writesPerGroup);

        timer.restart();
        auto clusterPage = journal.entries({QString(), cluster, QString(), pageSize});
        const double clusterPageMs = msSince(timer);
        QVERIFY(clusterPage && clusterPage.value().size() == pageSize);
        timer.restart();
        auto older = journal.entries({QString(), cluster, clusterPage.value().last().id, pageSize});
        const double olderPageMs = msSince(timer);
        QVERIFY(older && older.value().size() == pageSize);
        QVERIFY(older.value().first().id < clusterPage.value().last().id);

        timer.restart();
        auto inDoubt = journal.inDoubt();
        const double inDoubtMs = msSince(timer);
        QVERIFY(inDoubt && inDoubt.value().isEmpty());

        timer.restart();
        QStringList problems;
        const QList<JournalEntry> parsed =
            offsets::parseJournalLines(lines, QStringLiteral("journal.jsonl"), &problems);
        int ofTheGroup = 0;
        for (const JournalEntry& one : parsed)
            ofTheGroup += one.groupId == group && one.clusterId == cluster;
        const double peerMs = msSince(timer);
        QCOMPARE(ofTheGroup, writesPerGroup);
        QVERIFY(problems.isEmpty());

        std::printf(
            "write journal at %d entries (%d groups, %d partitions each; written in %.1f s, "
            "%.0f MB of JSON lines): one group's page %.1f ms (on every cluster %.1f ms), the "
            "cluster's newest %d %.1f ms, "
            "the next %d %.1f ms, entries in doubt %.1f ms; the peer (the same entries read "
            "back from JSON lines, the group's kept) %.0f ms: %.0fx the group's page\n",
            groupCount * writesPerGroup, groupCount, partitionsPerEntry, insertMs / 1000,
            double(lines.size()) / 1e6, firstPageMs, everyClusterMs, pageSize, clusterPageMs,
            pageSize, olderPageMs, inDoubtMs, peerMs, peerMs / firstPageMs);
    }
};

QTEST_GUILESS_MAIN(BenchJournalHistory)
#include "BenchJournalHistory.moc"
