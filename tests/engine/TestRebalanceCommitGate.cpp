// The sequence of rebalance callbacks librdkafka makes for a COOPERATIVE member, and when
// RebalanceCommitGate lets commits through (see its header for why it exists).

#include "consumer/RebalanceCommitGate.h"

#include <QTest>

using groupscope::consumer::RebalanceCommitGate;

class TestRebalanceCommitGate : public QObject {
    Q_OBJECT

private slots:
    void openUntilARevoke() {
        RebalanceCommitGate gate;
        QVERIFY(gate.isOpen());
        gate.assigned(); // a first assignment, or one that only adds partitions
        QVERIFY(gate.isOpen());
    }
    void normalRevokeHoldsUntilTheRejoinsAssignment() {
        RebalanceCommitGate gate;
        gate.revoked(false);
        QVERIFY(!gate.isOpen());
        gate.assigned(); // "cooperative assign after revoke": the re-join is still to come
        QVERIFY(!gate.isOpen());
        gate.assigned(); // the assignment of the new generation
        QVERIFY(gate.isOpen());
    }
    void lostAssignmentRejoinsAtOnce() {
        RebalanceCommitGate gate;
        gate.revoked(true);
        QVERIFY(!gate.isOpen());
        gate.assigned();
        QVERIFY(gate.isOpen());
    }
    void revokeAgainAfterTheRejoinStartsOver() {
        RebalanceCommitGate gate;
        gate.revoked(false);
        gate.assigned();
        gate.revoked(false); // the re-join's assignment took more partitions away
        gate.assigned();
        QVERIFY(!gate.isOpen());
        gate.assigned();
        QVERIFY(gate.isOpen());
    }
};

QTEST_GUILESS_MAIN(TestRebalanceCommitGate)
#include "TestRebalanceCommitGate.moc"
