#include "monitor/GroupSparklines.h"

#include <QTest>

using groupscope::monitor::GroupSparklines;
using groupscope::monitor::LagSparkline;

namespace {

constexpr int64_t start = 1'700'000'000'000;
const QString orders = QStringLiteral("orders");
const QString billing = QStringLiteral("billing");

} // namespace

class TestGroupSparklines : public QObject {
    Q_OBJECT
private slots:
    // The newest samples, oldest first, each group its own.
    void keepsEachGroupsNewestPolls() {
        GroupSparklines sparklines(3);
        for (int poll = 0; poll < 5; ++poll) {
            QVERIFY(sparklines.record(orders, 100 + poll, start + 2'000 * poll));
            QVERIFY(sparklines.record(billing, 7, start + 2'000 * poll));
        }
        QCOMPARE(sparklines.recent(orders), (LagSparkline{102, 103, 104}));
        QCOMPARE(sparklines.recent(billing), (LagSparkline{7, 7, 7}));
        QVERIFY(sparklines.recent(QStringLiteral("unknown")).isEmpty());
        QCOMPARE(sparklines.groupCount(), 2);
        sparklines.removeGroup(orders);
        QVERIFY(sparklines.recent(orders).isEmpty());
        QCOMPARE(sparklines.groupCount(), 1);
    }

    // A view holds the list it was given while the next polls are recorded: it must keep
    // showing what it was made of.
    void aListHandedOutDoesNotChangeWithLaterPolls() {
        GroupSparklines sparklines(2);
        sparklines.record(orders, 10, start);
        sparklines.record(orders, 20, start + 2'000);
        const LagSparkline shown = sparklines.recent(orders);
        sparklines.record(orders, 30, start + 4'000);
        QCOMPARE(shown, (LagSparkline{10, 20}));
        QCOMPARE(sparklines.recent(orders), (LagSparkline{20, 30}));
    }

    // A poll older than the newest is ignored; one at the same moment is kept.
    void pollsOutOfOrderAreIgnored() {
        GroupSparklines sparklines(5);
        QVERIFY(sparklines.record(orders, 10, start + 2'000));
        QVERIFY(!sparklines.record(orders, 99, start));
        QVERIFY(sparklines.record(orders, 11, start + 2'000));
        QCOMPARE(sparklines.recent(orders), (LagSparkline{10, 11}));
    }
};

QTEST_GUILESS_MAIN(TestGroupSparklines)
#include "TestGroupSparklines.moc"
