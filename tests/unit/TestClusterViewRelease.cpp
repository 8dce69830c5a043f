// monitor::releaseInBackground: a replaced view is freed on a pool thread; the pages that
// freeing emptied go back to the system at the pipeline's next returnFreedPages() (before it
// hands the next view over), even where live allocations lie between them, as the next
// polls' allocations do in the live pipeline.

#include "../bench/BenchFigures.h"
#include "monitor/ClusterView.h"

#include <QTest>
#include <QThreadPool>

using namespace groupscope;

using bench::residentKilobytes;

class TestClusterViewRelease : public QObject {
    Q_OBJECT
private slots:
    // The pool lets go of the view: a list it shared with the caller is the caller's alone.
    void theViewIsReleased() {
        monitor::ClusterView view;
        monitor::GroupSnapshot group;
        group.description.groupId = QStringLiteral("payments");
        view.cluster.groups.append(group);
        const QList<monitor::GroupSnapshot> kept = view.cluster.groups;
        QVERIFY(!kept.isDetached());
        monitor::releaseInBackground(std::move(view));
        QVERIFY(QThreadPool::globalInstance()->waitForDone(10'000));
        QVERIFY(kept.isDetached());
        QCOMPARE(kept.first().groupId(), QStringLiteral("payments"));
    }

    // 80 MB of commit metadata in 16 KiB strings, each followed by a small string that
    // stays alive: freed, the large ones leave holes that the allocator would keep
    // resident; released through releaseInBackground, most of their pages leave at the
    // next returnFreedPages().
    void freedPagesBetweenLiveAllocationsLeaveTheProcess() {
#if !defined(__GLIBC__)
        QSKIP("returning free pages inside the heap is glibc's malloc_trim");
#endif
#if defined(__SANITIZE_ADDRESS__) || (defined(__has_feature) && __has_feature(address_sanitizer))
        QSKIP("under AddressSanitizer its own allocator, not glibc's malloc, holds freed memory");
#endif
        constexpr int rows = 5'000;
        constexpr int charsPerRow = 8 * 1024; // 16 KiB each, well under mmap's threshold
        constexpr long viewKilobytes = long(rows) * charsPerRow * 2 / 1024;
        QStringList stayingAlive;
        stayingAlive.reserve(rows);
        monitor::ClusterView view;
        {
            monitor::GroupSnapshot group;
            group.description.groupId = QStringLiteral("payments");
            group.partitions.reserve(rows);
            for (int row = 0; row < rows; ++row) {
                monitor::PartitionSnapshot partition;
                partition.topicPartition = {QStringLiteral("orders"), row};
                partition.commitMetadata = QString(charsPerRow, QLatin1Char('a' + row % 26));
                group.partitions.append(partition);
                stayingAlive.append(QString::number(row)); // between this row and the next
            }
            view.cluster.groups.append(std::move(group));
        }
        const long withView = residentKilobytes();
        QVERIFY(withView > viewKilobytes);
        monitor::releaseInBackground(std::move(view));
        QVERIFY(QThreadPool::globalInstance()->waitForDone(10'000));
        monitor::returnFreedPages(); // as the pipeline's worker does after its next poll
        const long released = residentKilobytes();
        QVERIFY2(withView - released > viewKilobytes / 2,
                 qPrintable(QStringLiteral("%1 kB resident with the view, %2 kB after release "
                                           "(the view: %3 kB)")
                                .arg(withView)
                                .arg(released)
                                .arg(viewKilobytes)));
        QCOMPARE(stayingAlive.size(), rows);
    }
};

QTEST_GUILESS_MAIN(TestClusterViewRelease)
#include "TestClusterViewRelease.moc"
