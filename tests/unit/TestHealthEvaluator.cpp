#include "lag/HealthEvaluator.h"
#include "snapshot/GroupSnapshot.h"

#include <QTest>

#include <limits>

using namespace groupscope::lag;
using groupscope::kafka::TopicPartition;

namespace {

constexpr int64_t start = 1'700'000'000'000;
const QString group = QStringLiteral("payments");
const TopicPartition orders0{QStringLiteral("orders"), 0};
const TopicPartition orders1{QStringLiteral("orders"), 1};

using Commits = std::vector<CommitObservation>;

// Ten commits one minute apart; offsets and lags given per commit.
Commits commitsEveryMinute(const QList<int64_t>& offsets, const QList<int64_t>& lags) {
    Commits commits;
    for (int i = 0; i < offsets.size(); ++i)
        commits.push_back({offsets[i], lags[i], start + 60'000LL * i});
    return commits;
}

// A poll of the group with these partitions' lags (each with a commit at offset 1).
groupscope::monitor::GroupSnapshot
pollWithLags(const QList<std::pair<TopicPartition, int64_t>>& lags) {
    groupscope::monitor::GroupSnapshot snapshot;
    snapshot.description.groupId = group;
    for (const auto& [partition, lag] : lags) {
        groupscope::monitor::PartitionSnapshot row;
        row.topicPartition = partition;
        row.committedOffset = 1;
        row.logEndOffset = 1 + lag;
        row.lag = lag;
        snapshot.partitions.append(row);
    }
    return snapshot;
}

const QList<int64_t> advancing{100, 200, 300, 400, 500, 600, 700, 800, 900, 1000};
const QList<int64_t> shrinkingLag{900, 850, 800, 750, 700, 650, 600, 550, 500, 450};
const QList<int64_t> growingLag{100, 120, 140, 160, 180, 200, 220, 240, 260, 280};
// Nine minutes from the first commit to the last.
constexpr int64_t lastCommit = start + 9 * 60'000;

} // namespace

Q_DECLARE_METATYPE(Commits)
Q_DECLARE_METATYPE(PartitionStatus)

class TestHealthEvaluator : public QObject {
    Q_OBJECT
private slots:
    void burrowRules_data() {
        QTest::addColumn<Commits>("commits");
        QTest::addColumn<qint64>("currentLag");
        QTest::addColumn<qint64>("now");
        QTest::addColumn<PartitionStatus>("expected");

        QTest::newRow("no commits yet")
            << Commits() << qint64(500) << qint64(lastCommit) << PartitionStatus::Ok;
        QTest::newRow("consuming, lag shrinking")
            << commitsEveryMinute(advancing, shrinkingLag) << qint64(450)
            << qint64(lastCommit + 1000) << PartitionStatus::Ok;
        QTest::newRow("consuming but lag never decreases: WARN")
            << commitsEveryMinute(advancing, growingLag) << qint64(280) << qint64(lastCommit + 1000)
            << PartitionStatus::Warning;
        QTest::newRow("flat lag counts as not decreasing: WARN")
            << commitsEveryMinute(advancing, QList<int64_t>(10, 50)) << qint64(50)
            << qint64(lastCommit + 1000) << PartitionStatus::Warning;
        QTest::newRow("same offset with lag: STALL")
            << commitsEveryMinute(QList<int64_t>(10, 100), growingLag) << qint64(300)
            << qint64(lastCommit + 1000) << PartitionStatus::Stall;
        QTest::newRow("no commit for longer than the window spans: STOP")
            << commitsEveryMinute(advancing, shrinkingLag) << qint64(450)
            << qint64(lastCommit + 9 * 60'000 + 1) << PartitionStatus::Stop;
        QTest::newRow("exactly the window span: not yet STOP")
            << commitsEveryMinute(advancing, shrinkingLag) << qint64(450)
            << qint64(lastCommit + 9 * 60'000) << PartitionStatus::Ok;
        QTest::newRow("offset went backwards: REWIND")
            << commitsEveryMinute({100, 200, 300, 250, 500, 600, 700, 800, 900, 1000}, shrinkingLag)
            << qint64(450) << qint64(lastCommit + 1000) << PartitionStatus::Rewind;
        QTest::newRow("REWIND outranks STOP")
            << commitsEveryMinute({100, 200, 300, 250, 500, 600, 700, 800, 900, 1000}, shrinkingLag)
            << qint64(450) << qint64(lastCommit + 3'600'000) << PartitionStatus::Rewind;
        QTest::newRow("STOP outranks STALL")
            << commitsEveryMinute(QList<int64_t>(10, 100), growingLag) << qint64(300)
            << qint64(lastCommit + 3'600'000) << PartitionStatus::Stop;
        QTest::newRow("slow topic: offset still, no lag")
            << commitsEveryMinute(QList<int64_t>(10, 100), QList<int64_t>(10, 0)) << qint64(0)
            << qint64(lastCommit + 3'600'000) << PartitionStatus::Ok;
        QTest::newRow("current lag zero overrides a stalled-looking window")
            << commitsEveryMinute(QList<int64_t>(10, 100), growingLag) << qint64(0)
            << qint64(lastCommit + 3'600'000) << PartitionStatus::Ok;
        QTest::newRow("lag was zero once in the window")
            << commitsEveryMinute(QList<int64_t>(10, 100), {0, 10, 20, 30, 40, 50, 60, 70, 80, 90})
            << qint64(90) << qint64(lastCommit + 3'600'000) << PartitionStatus::Ok;
        QTest::newRow("window not full: rules still apply")
            << commitsEveryMinute({100, 200, 300}, {300, 350, 400}) << qint64(400)
            << qint64(start + 120'000 + 1000) << PartitionStatus::Warning;
        // A window just opened: two commits a second apart, the consumer commits every
        // 1.5 s. Between its commits it is stalled, not stopped; after 10 s of silence it is.
        const Commits justOpened{{100, 90, start}, {100, 90, start + 1000}};
        QTest::newRow("short window, a commit interval of silence: STALL, not STOP")
            << justOpened << qint64(90) << qint64(start + 2500) << PartitionStatus::Stall;
        QTest::newRow("short window, ten seconds of silence: STOP")
            << justOpened << qint64(90) << qint64(start + 1000 + 10'000) << PartitionStatus::Stop;
        QTest::newRow("single commit with lag: too early to judge")
            << commitsEveryMinute({100}, {400}) << qint64(400) << qint64(start + 3'600'000)
            << PartitionStatus::Ok;
    }
    void burrowRules() {
        QFETCH(Commits, commits);
        QFETCH(qint64, currentLag);
        QFETCH(qint64, now);
        QFETCH(PartitionStatus, expected);
        QString reason;
        const PartitionStatus status =
            HealthEvaluator::evaluateCommits(commits, currentLag, now, &reason);
        QVERIFY2(status == expected,
                 qPrintable(partitionStatusName(status) + QStringLiteral(": ") + reason));
        QVERIFY(!reason.isEmpty());
    }

    void statusNamesAreBurrows() {
        QCOMPARE(partitionStatusName(PartitionStatus::Stall), QStringLiteral("STALL"));
        QCOMPARE(partitionStatusName(PartitionStatus::Rewind), QStringLiteral("REWIND"));
        QCOMPARE(partitionStatusName(PartitionStatus::Warning), QStringLiteral("WARN"));
        QCOMPARE(groupStatusName(GroupStatus::Error), QStringLiteral("ERR"));
        QCOMPARE(groupStatusName(GroupStatus::NotFound), QStringLiteral("NOTFOUND"));
    }

    void commitWindowKeepsTheLastNApart() {
        const CommitWindowOptions three{3, 1000};
        CommitWindow window;
        QVERIFY(window.add({1, 10, start}, three));
        QVERIFY(window.add({2, 10, start + 500}, three)); // too close: replaces the previous one
        QCOMPARE(window.commits().size(), size_t(1));
        QCOMPARE(window.commits().back().offset, int64_t(2));
        QVERIFY(!window.add({3, 10, start - 1}, three)); // older than the newest: ignored
        window.add({4, 10, start + 2000}, three);
        window.add({5, 10, start + 4000}, three);
        QVERIFY(window.isFull(three));
        QCOMPARE(window.complete(three), 1.0);
        window.add({6, 10, start + 6000}, three);
        QCOMPARE(window.commits().size(), size_t(3));
        QCOMPARE(window.commits().front().offset, int64_t(4));
    }

    // The window keeps its older commits as differences from the next: any values come back
    // exactly, the extremes of int64 included, in order, and so does a replaced newest one.
    void packedCommitsComeBackExactly() {
        const CommitWindowOptions ten{10, 1000};
        constexpr int64_t most = std::numeric_limits<int64_t>::max();
        constexpr int64_t least = std::numeric_limits<int64_t>::min();
        const std::vector<CommitObservation> added{
            {most, 0, start},          {0, most, start + 1000},
            {least, -3, start + 2000}, {-1, least, start + 3000 + 3'000'000'000LL},
            {5, 1, most - 5000},       {most - 1, 0, most - 2000},
        };
        CommitWindow window;
        for (const CommitObservation& commit : added)
            QVERIFY(window.add(commit, ten));
        QCOMPARE(window.commits(), added);
        QCOMPARE(window.newest(), added.back());
        QVERIFY(window.add({7, 70, most - 1999}, ten)); // within the slot: replaces the newest
        std::vector<CommitObservation> replaced = added;
        replaced.back() = {7, 70, most - 1999};
        QCOMPARE(window.commits(), replaced);
    }

    // A consumer stuck on one record that commits the same offset every 0.5 s while the lag
    // grows: the slots open a second apart (measured from each slot's first commit), so
    // the window fills and the partition is STALL. Measured from the latest commit, as
    // Burrow does, the window kept one slot for ever and said OK.
    void frequentCommitsOfTheSameOffsetAreStall() {
        CommitWindow window;
        for (int i = 0; i < 40; ++i)
            window.add({7, 10 + i, start + 500LL * i}, CommitWindowOptions{10, 1000});
        QCOMPARE(window.commits().size(), size_t(10));
        QString reason;
        QCOMPARE(
            HealthEvaluator::evaluateCommits(window.commits(), 60, start + 500LL * 40, &reason),
            PartitionStatus::Stall);
    }

    // The clock decides STOP: the same commits are OK now and STOP later.
    void stopFollowsTheClock() {
        ManualClock clock(start);
        HealthEvaluator evaluator(clock);
        for (int i = 0; i < 10; ++i) {
            clock.setNowMs(start + 60'000LL * i);
            evaluator.observeCommit(group, orders0, {advancing[i], shrinkingLag[i], clock.nowMs()});
        }
        PartitionHealth health = evaluator.evaluatePartition(group, orders0, 450);
        QCOMPARE(health.status, PartitionStatus::Ok);
        QCOMPARE(health.complete, 1.0);
        QCOMPARE(health.start->offset, int64_t(100));
        QCOMPARE(health.end->offset, int64_t(1000));
        QCOMPARE(health.currentLag, std::optional<int64_t>(450));

        clock.advance(std::chrono::minutes(10));
        health = evaluator.evaluatePartition(group, orders0, 450);
        QCOMPARE(health.status, PartitionStatus::Stop);
        const auto stillBehind = pollWithLags({{orders0, 450}});
        QCOMPARE(evaluator.evaluateGroup(group, &stillBehind).status, GroupStatus::Error);

        // It catches up while stopped (log end reached): no lag, no problem.
        QCOMPARE(evaluator.evaluatePartition(group, orders0, 0).status, PartitionStatus::Ok);
        const auto caughtUp = pollWithLags({{orders0, 0}});
        QCOMPARE(evaluator.evaluateGroup(group, &caughtUp).status, GroupStatus::Ok);
    }

    void groupTakesTheWorstPartition() {
        ManualClock clock(lastCommit + 1000);
        HealthEvaluator evaluator(clock);
        QCOMPARE(evaluator.evaluateGroup(group).status, GroupStatus::NotFound);
        // A partition of the poll with a lag and no commit yet is judged, from the poll alone:
        // the evaluator keeps nothing for it.
        const auto lagOnly = pollWithLags({{orders0, 450}});
        const GroupHealth judgedOnLag = evaluator.evaluateGroup(group, &lagOnly);
        QCOMPARE(judgedOnLag.status, GroupStatus::Ok);
        QCOMPARE(judgedOnLag.partitions.size(), 1);
        QCOMPARE(judgedOnLag.partitions[0].reason, QStringLiteral("no commits yet"));
        QCOMPARE(judgedOnLag.totalLag, int64_t(450));
        QCOMPARE(evaluator.groupCount(), 0);

        for (const CommitObservation& commit : commitsEveryMinute(advancing, shrinkingLag))
            evaluator.observeCommit(group, orders0, commit);
        auto poll = pollWithLags({{orders0, 450}});
        GroupHealth health = evaluator.evaluateGroup(group, &poll);
        QCOMPARE(health.status, GroupStatus::Ok);

        for (const CommitObservation& commit : commitsEveryMinute(advancing, growingLag))
            evaluator.observeCommit(group, orders1, commit);
        poll = pollWithLags({{orders1, 280}, {orders0, 450}});
        health = evaluator.evaluateGroup(group, &poll);
        QCOMPARE(health.status, GroupStatus::Warning);
        QCOMPARE(health.partitions.size(), 2);
        QCOMPARE(health.partitions[1].status, PartitionStatus::Warning);
        QCOMPARE(health.totalLag, int64_t(730));
        QCOMPARE(health.maxLag->topicPartition, orders0);
        QCOMPARE(health.complete, 1.0);

        const TopicPartition audit{QStringLiteral("audit"), 0};
        evaluator.observeCommit(group, audit, {5, 9, lastCommit - 60'000});
        evaluator.observeCommit(group, audit, {4, 9, lastCommit});
        health = evaluator.evaluateGroup(group, &poll);
        QCOMPARE(health.status, GroupStatus::Error);
        QCOMPARE(health.partitions[0].topicPartition, audit); // sorted by topic
        QCOMPARE(health.partitions[0].status, PartitionStatus::Rewind);
        QVERIFY(health.complete < 1.0); // audit has 2 of 10 commits
        // Without a log-end reading, the newest commit's lag stands in.
        QCOMPARE(health.partitions[0].currentLag, std::optional<int64_t>(9));
    }

    void unknownPartitionHasNoCommitsYet() {
        HealthEvaluator evaluator(SystemClock::instance());
        const PartitionHealth health = evaluator.evaluatePartition(group, orders0);
        QCOMPARE(health.status, PartitionStatus::Ok);
        QCOMPARE(health.complete, 0.0);
        QVERIFY(!health.end.has_value());
        QCOMPARE(health.reason, QStringLiteral("no commits yet"));
    }

    // Polling sees only committed offsets; an unchanged offset is not a new commit, so a
    // consumer that stopped shows as STOP once the silence outlasts the window's span.
    void pollingRecordsOnlyChangedOffsets() {
        ManualClock clock(start);
        HealthEvaluator evaluator(clock);
        groupscope::monitor::GroupSnapshot snapshot; // the last poll
        const auto judged = [&] {
            return evaluator.evaluateGroup(group, &snapshot).partitions.at(0);
        };
        auto poll = [&](int64_t committed, int64_t logEnd) {
            snapshot = {};
            snapshot.description.groupId = group;
            groupscope::monitor::PartitionSnapshot partition;
            partition.topicPartition = orders0;
            partition.committedOffset = committed;
            partition.logEndOffset = logEnd;
            partition.lag = logEnd - committed;
            snapshot.partitions = {partition};
            evaluator.observeSnapshot(snapshot, clock.nowMs());
            clock.advance(std::chrono::seconds(2));
        };
        for (int i = 0; i < 5; ++i)
            poll(100 + 10 * i, 200 + 5 * i); // catching up
        PartitionHealth health = judged();
        QCOMPARE(health.status, PartitionStatus::Ok);
        QCOMPARE(health.end->offset, int64_t(140));
        for (int i = 0; i < 3; ++i)
            poll(140, 230);
        health = judged();
        QCOMPARE(health.end->timestampMs, start + 8000);         // still the last change
        QCOMPARE(health.end->lag, int64_t(80));                  // as it was then
        QCOMPARE(health.currentLag, std::optional<int64_t>(90)); // the last poll's
        QCOMPARE(health.status, PartitionStatus::Ok);
        for (int i = 0; i < 2; ++i)
            poll(140, 240);
        QCOMPARE(judged().status, PartitionStatus::Stop);
    }

    // A group caught up on a transactional topic: the log ends in a commit marker, so the
    // plain lag stays 1 while the group commits the same offset (Burrow#651 calls that
    // STALL). The records say nothing is left to consume: the verdict follows them.
    void transactionMarkerAtTheEndIsNotAStall() {
        ManualClock clock(start);
        HealthEvaluator evaluator(clock);
        groupscope::monitor::GroupSnapshot snapshot; // the last poll
        const auto judged = [&] {
            return evaluator.evaluateGroup(group, &snapshot).partitions.at(0);
        };
        auto poll = [&](std::optional<int64_t> effectiveLag) {
            snapshot = {};
            snapshot.description.groupId = group;
            groupscope::monitor::PartitionSnapshot partition;
            partition.topicPartition = orders0;
            partition.committedOffset = 99;
            partition.logEndOffset = 100;
            partition.lag = 1;
            partition.lagDetail.edit().effectiveLag = effectiveLag;
            snapshot.partitions = {partition};
            evaluator.observeSnapshot(snapshot, clock.nowMs());
            clock.advance(std::chrono::seconds(2));
        };
        for (int i = 0; i < 12; ++i)
            poll(0);
        PartitionHealth health = judged();
        QCOMPARE(health.currentLag, std::optional<int64_t>(0));
        QCOMPARE(health.status, PartitionStatus::Ok);
        // Undecided (lag detail not read): the plain lag is all there is.
        poll(std::nullopt);
        health = judged();
        QCOMPARE(health.currentLag, std::optional<int64_t>(1));
    }
};

QTEST_GUILESS_MAIN(TestHealthEvaluator)
#include "TestHealthEvaluator.moc"
