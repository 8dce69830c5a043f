// The rules of a reset plan, row by row, on cluster facts written by hand (no broker):
// clamping to the log as Kafka's tool does, shifts (with and without a commit, and one
// that overflows), timestamps before the first and after the last record, durations,
// to-current without a commit, partitions that cannot be planned, duplicates and origins.
#include "kafka/KafkaError.h"
#include "offsets/ResetRowResolution.h"

#include <QTest>

#include <limits>

using namespace groupscope;
using namespace groupscope::offsets;
using kafka::TopicPartition;

namespace {

const QString group = QStringLiteral("billing");
const TopicPartition orders0{QStringLiteral("orders"), 0};
const TopicPartition orders1{QStringLiteral("orders"), 1};
constexpr int64_t now = 1704110400000; // 2024-01-01T12:00:00.000Z

// "orders" has two partitions with leaders, its log 0 holding offsets 10..100 and log 1
// 0..5; the group has committed 50 on partition 0 and nothing on partition 1.
PlanFacts ordersFacts() {
    PlanFacts facts;
    facts.plannedAtMs = now;
    facts.leadersByTopic[orders0.topic] = {{0, 1}, {1, 2}};
    facts.logs.insert(orders0, {orders0, 10, 100, {}});
    facts.logs.insert(orders1, {orders1, 0, 5, {}});
    facts.committed.insert({group, orders0}, 50);
    return facts;
}

PlanRow resolve(const ResetSpec& spec, const TopicPartition& tp = orders0,
                const PlanFacts& facts = ordersFacts()) {
    return resolveResetRow({group, tp, spec}, facts);
}

std::optional<int64_t> offset(int64_t value) {
    return value;
}

} // namespace

class TestResetRowResolution : public QObject {
    Q_OBJECT
private slots:
    void toOffsetInsideTheLogIsTaken() {
        const PlanRow row = resolve(ResetSpec::toOffset(42));
        QCOMPARE(row.newOffset, offset(42));
        QVERIFY(row.warnings.isEmpty());
        QVERIFY(row.error.isEmpty());
        QCOMPARE(row.committedOffset, offset(50));
        QCOMPARE(row.delta(), offset(-8));
        QCOMPARE(row.logStartOffset, int64_t(10));
        QCOMPARE(row.logEndOffset, int64_t(100));
    }

    void toOffsetAfterTheLogEndIsClampedToIt() {
        const PlanRow row = resolve(ResetSpec::toOffset(1000));
        QCOMPARE(row.newOffset, offset(100));
        QCOMPARE(row.warnings,
                 QStringList{QStringLiteral("offset 1000 is after the log end; clamped to 100")});
        QVERIFY(row.error.isEmpty());
    }

    void toOffsetBeforeTheLogStartIsClampedToIt() {
        const PlanRow row = resolve(ResetSpec::toOffset(3));
        QCOMPARE(row.newOffset, offset(10));
        QCOMPARE(row.warnings,
                 QStringList{QStringLiteral("offset 3 is before the log start; clamped to 10")});
    }

    void theLogBoundsThemselvesAreNotClamped() {
        QCOMPARE(resolve(ResetSpec::toOffset(10)).newOffset, offset(10));
        QVERIFY(resolve(ResetSpec::toOffset(10)).warnings.isEmpty());
        QCOMPARE(resolve(ResetSpec::toOffset(100)).newOffset, offset(100));
        QVERIFY(resolve(ResetSpec::toOffset(100)).warnings.isEmpty());
    }

    void shiftMovesFromTheCommit() {
        const PlanRow back = resolve(ResetSpec::shiftBy(-15));
        QCOMPARE(back.newOffset, offset(35));
        QVERIFY(back.warnings.isEmpty());
        QCOMPARE(back.delta(), offset(-15));
        QCOMPARE(resolve(ResetSpec::shiftBy(7)).newOffset, offset(57));
    }

    void shiftPastEitherEndIsClamped() {
        const PlanRow forward = resolve(ResetSpec::shiftBy(80));
        QCOMPARE(forward.newOffset, offset(100));
        QCOMPARE(forward.warnings,
                 QStringList{QStringLiteral("offset 130 is after the log end; clamped to 100")});
        const PlanRow back = resolve(ResetSpec::shiftBy(-60));
        QCOMPARE(back.newOffset, offset(10));
        QCOMPARE(back.warnings,
                 QStringList{QStringLiteral("offset -10 is before the log start; clamped to 10")});
    }

    void shiftWithoutACommitIsAnErrorOnItsRow() {
        const PlanRow row = resolve(ResetSpec::shiftBy(-1), orders1);
        QCOMPARE(row.newOffset, std::nullopt);
        QCOMPARE(row.committedOffset, std::nullopt);
        QCOMPARE(row.error,
                 QStringLiteral("cannot shift orders:1: the group has no committed offset there"));
        QVERIFY(!row.changes());
    }

    void shiftThatOverflowsIsAnErrorNotAWrap() {
        const int64_t huge = std::numeric_limits<int64_t>::max() - 10;
        const PlanRow row = resolve(ResetSpec::shiftBy(huge));
        QCOMPARE(row.newOffset, std::nullopt);
        QCOMPARE(row.error, QStringLiteral("shift by %1 overflows the offset range").arg(huge));
        // Just below the overflow the sum exists and is clamped to the log end.
        const PlanRow largest =
            resolve(ResetSpec::shiftBy(std::numeric_limits<int64_t>::max() - 50));
        QVERIFY(largest.error.isEmpty());
        QCOMPARE(largest.newOffset, offset(100));
    }

    void timestampBeforeTheFirstRecordLandsWhereTheBrokerSays() {
        // For a time before every record the broker answers the first offset of the log.
        const int64_t longAgo = now - 365LL * 24 * 3600 * 1000;
        PlanFacts facts = ordersFacts();
        facts.offsetsForTimes.insert({longAgo, orders0}, 10);
        const PlanRow row = resolve(ResetSpec::toTimestamp(longAgo), orders0, facts);
        QCOMPARE(row.newOffset, offset(10));
        QVERIFY(row.warnings.isEmpty());
        QCOMPARE(row.delta(), offset(-40));
    }

    void timestampInsideTheLogTakesTheFoundOffset() {
        PlanFacts facts = ordersFacts();
        facts.offsetsForTimes.insert({now - 1000, orders0}, 61);
        facts.offsetsForTimes.insert({now - 2000, orders0}, 55); // another time: not used
        QCOMPARE(resolve(ResetSpec::toTimestamp(now - 1000), orders0, facts).newOffset, offset(61));
    }

    void timestampAfterTheLastRecordFallsBackToTheLogEnd() {
        PlanFacts facts = ordersFacts();
        facts.offsetsForTimes.insert({now + 60000, orders0}, -1); // no record that new
        const PlanRow row = resolve(ResetSpec::toTimestamp(now + 60000), orders0, facts);
        QCOMPARE(row.newOffset, offset(100));
        QCOMPARE(row.warnings.size(), 1);
        QVERIFY2(row.warnings.first().startsWith(
                     QStringLiteral("no record at or after 2024-01-01T12:01:00.000")),
                 qPrintable(row.warnings.first()));
        QVERIFY(row.warnings.first().endsWith(QStringLiteral("falls back to the log end 100")));
    }

    void durationLooksUpBackFromThePlanningTime() {
        PlanFacts facts = ordersFacts();
        facts.offsetsForTimes.insert({now - 3600000, orders0}, 23);
        QCOMPARE(resolve(ResetSpec::byDuration(3600000), orders0, facts).newOffset, offset(23));
        // Planned a second later, the lookup is another timestamp: nothing was found there.
        facts.plannedAtMs = now + 1000;
        const PlanRow later = resolve(ResetSpec::byDuration(3600000), orders0, facts);
        QCOMPARE(later.newOffset, offset(100));
        QCOMPARE(later.warnings.size(), 1);
    }

    void earliestAndLatestAreTheLogBounds() {
        QCOMPARE(resolve(ResetSpec::logical(ResetMode::ToEarliest)).newOffset, offset(10));
        QCOMPARE(resolve(ResetSpec::logical(ResetMode::ToLatest)).newOffset, offset(100));
        QCOMPARE(resolve(ResetSpec::logical(ResetMode::ToLatest)).delta(), offset(50));
        // A partition without a commit can still go to either end.
        QCOMPARE(resolve(ResetSpec::logical(ResetMode::ToEarliest), orders1).newOffset, offset(0));
        QCOMPARE(resolve(ResetSpec::logical(ResetMode::ToLatest), orders1).delta(), std::nullopt);
    }

    void toCurrentKeepsTheCommitOrTakesTheLogEnd() {
        const PlanRow kept = resolve(ResetSpec::logical(ResetMode::ToCurrent));
        QCOMPARE(kept.newOffset, offset(50));
        QVERIFY(!kept.changes());
        const PlanRow missing = resolve(ResetSpec::logical(ResetMode::ToCurrent), orders1);
        QCOMPARE(missing.newOffset, offset(5));
        QCOMPARE(missing.warnings, QStringList{QStringLiteral(
                                       "no committed offset; to-current takes the log end 5")});
    }

    // Copying another group: its commit, clamped to the log; where it has none, the row
    // stays where it is and says so.
    void toGroupTakesTheSourceGroupsCommit() {
        PlanFacts facts = ordersFacts();
        const QString source = QStringLiteral("billing-v1");
        facts.committed.insert({source, orders0}, 70);
        facts.committed.insert({source, orders1}, 9); // past the log end 5
        const PlanRow copied = resolve(ResetSpec::toGroup(source), orders0, facts);
        QCOMPARE(copied.newOffset, offset(70));
        QCOMPARE(copied.delta(), offset(20));
        QVERIFY(copied.warnings.isEmpty());
        const PlanRow clamped = resolve(ResetSpec::toGroup(source), orders1, facts);
        QCOMPARE(clamped.newOffset, offset(5));
        QCOMPARE(clamped.warnings.size(), 1);

        facts.committed.remove({source, orders1});
        const PlanRow untouched = resolve(ResetSpec::toGroup(source), orders0, ordersFacts());
        QCOMPARE(untouched.newOffset, offset(50));
        QVERIFY(!untouched.changes());
        QCOMPARE(untouched.warnings,
                 QStringList{QStringLiteral("group 'billing-v1' has no commit on orders:0; left "
                                            "unchanged")});
        QVERIFY(untouched.error.isEmpty());
        QVERIFY(!resolve(ResetSpec::toGroup(source), orders1, facts).newOffset.has_value());
    }

    void toGroupNeedsAGroup() {
        QVERIFY(!ResetSpec::parse(ResetMode::ToGroup, QStringLiteral("  ")).ok());
        const auto parsed = ResetSpec::parse(ResetMode::ToGroup, QStringLiteral(" billing-v1 "));
        QVERIFY(parsed.ok());
        QCOMPARE(parsed.value().sourceGroup, QStringLiteral("billing-v1"));
        QCOMPARE(parsed.value().describe(), QStringLiteral("to group billing-v1"));
    }

    void aCommitBeyondTheLogIsStillReportedAsCommitted() {
        PlanFacts facts = ordersFacts();
        facts.committed.insert({group, orders0}, 500); // e.g. the topic was recreated
        const PlanRow row = resolve(ResetSpec::toOffset(20), orders0, facts);
        QCOMPARE(row.committedOffset, offset(500));
        QCOMPARE(row.delta(), offset(-480));
    }

    void partitionsThatCannotBePlannedAreErrorsOnTheirRow() {
        PlanFacts facts = ordersFacts();
        const PlanRow unknown =
            resolve(ResetSpec::toOffset(1), {QStringLiteral("orders"), 9}, facts);
        QCOMPARE(unknown.error,
                 QStringLiteral("partition 9 does not exist (topic 'orders' has 2 partitions)"));
        QCOMPARE(unknown.newOffset, std::nullopt);

        facts.topicErrors.insert(QStringLiteral("gone"),
                                 QStringLiteral("topic 'gone' does not exist"));
        QCOMPARE(resolve(ResetSpec::toOffset(1), {QStringLiteral("gone"), 0}, facts).error,
                 QStringLiteral("topic 'gone' does not exist"));

        facts.leadersByTopic[orders0.topic][1] = -1;
        QCOMPARE(resolve(ResetSpec::toOffset(1), orders1, facts).error,
                 QStringLiteral("partition orders:1 has no leader"));

        facts = ordersFacts();
        facts.logs[orders1].error =
            kafka::KafkaError::invalidArgument(QStringLiteral("broker said no"));
        const PlanRow logError = resolve(ResetSpec::toOffset(1), orders1, facts);
        QCOMPARE(logError.error, QStringLiteral("broker said no"));
        QCOMPARE(logError.newOffset, std::nullopt);
    }

    void eachGroupHasItsOwnCommit() {
        PlanFacts facts = ordersFacts();
        facts.committed.insert({QStringLiteral("audit"), orders0}, 12);
        const ResetSpec shift = ResetSpec::shiftBy(5);
        QCOMPARE(resolveResetRow({group, orders0, shift}, facts).newOffset, offset(55));
        QCOMPARE(resolveResetRow({QStringLiteral("audit"), orders0, shift}, facts).newOffset,
                 offset(17));
    }

    void planMarksDuplicatesPrefixesOriginsAndSorts() {
        const QList<RowRequest> requests{
            {group, orders1, ResetSpec::toOffset(2), QStringLiteral("plan.csv:2")},
            {QStringLiteral("audit"), orders0, ResetSpec::toOffset(20),
             QStringLiteral("plan.csv:3")},
            {group, orders0, ResetSpec::shiftBy(-1), QStringLiteral("plan.csv:4")},
            {group, orders1, ResetSpec::toOffset(3), QStringLiteral("plan.csv:5")},
            {group,
             {QStringLiteral("orders"), 7},
             ResetSpec::toOffset(3),
             QStringLiteral("plan.csv:6")},
        };
        const ResetPlan plan = resolveResetPlan(requests, ordersFacts());
        QCOMPARE(plan.plannedAtMs, now);
        QCOMPARE(plan.rows.size(), 5);
        // Sorted by group, then topic and partition; the duplicate keeps its place after
        // the first row of its partition (a stable sort).
        QCOMPARE(plan.rows.at(0).groupId, QStringLiteral("audit"));
        QCOMPARE(plan.rows.at(1).topicPartition, orders0);
        QCOMPARE(plan.rows.at(1).newOffset, offset(49));
        QCOMPARE(plan.rows.at(2).topicPartition, orders1);
        QCOMPARE(plan.rows.at(2).newOffset, offset(2));
        QVERIFY(plan.rows.at(2).error.isEmpty());
        QCOMPARE(plan.rows.at(3).topicPartition, orders1);
        QCOMPARE(
            plan.rows.at(3).error,
            QStringLiteral("plan.csv:5: partition orders:1 appears twice for group 'billing'"));
        QCOMPARE(plan.rows.at(3).newOffset, std::nullopt);
        QCOMPARE(plan.rows.at(4).error,
                 QStringLiteral("plan.csv:6: partition 7 does not exist (topic 'orders' has 2 "
                                "partitions)"));
        QCOMPARE(plan.errorCount(), 2);
        // audit at 20 from no commit; billing 0: 50 -> 49 replays 1; billing 1: none.
        QCOMPARE(plan.messagesReplayed(), 1);
        QCOMPARE(plan.messagesSkipped(), 0);
    }
};

QTEST_GUILESS_MAIN(TestResetRowResolution)
#include "TestResetRowResolution.moc"
