#pragma once

namespace groupscope::consumer {

// Holds commits back while a COOPERATIVE group member is re-joining after a revoke.
//
// Why: librdkafka before 2.10 (confluentinc/librdkafka#4059, fixed by #4908) treats an
// OffsetCommit that the broker rejects with ILLEGAL_GENERATION as a lost assignment: it
// revokes every partition as lost and re-joins, and their processed positions are never
// committed, so whoever gets them next delivers again from the last commit. A commit
// sent with the old generation while the member's JoinGroup is completing gets exactly
// that answer. After a cooperative revoke librdkafka always re-joins (to hand the revoked
// partitions on), so from a revoke until that re-join's assignment arrives a commit is
// unsafe; with 2.0.2 the stress test lost assignments this way in most runs.
//
// The callbacks librdkafka makes tell where the member is:
//   revoke (normal) -> assign ("cooperative assign after revoke", maybe empty) -> re-join
//   -> assign (the new generation's assignment, maybe empty);
//   revoke (lost)   -> re-join -> assign.
// The gate closes at a revoke and opens at the assign that follows the re-join. Inside
// a rebalance callback the member has just synchronised with the group, so the commit a
// revoke makes for its own partitions is safe and is not held (see ConsumerSession).
//
// A re-join that starts without a revoke (another member joins; librdkafka learns it from
// a heartbeat) is invisible to the application. For that one the engine asks the
// coordinator right before each commit (GroupRebalanceProbe) and holds the commit while
// the group rebalances. What remains is a commit racing that JoinGroup in the moment
// between the coordinator's answer and the commit leaving: rare, but not impossible.
class RebalanceCommitGate {
public:
    void revoked(bool lost) {
        m_open = false;
        // A normal revoke is followed by the assign of the same rebalance before the
        // re-join; a lost assignment re-joins at once.
        m_assignsBeforeRejoin = lost ? 0 : 1;
    }
    void assigned() {
        if (m_open)
            return;
        if (m_assignsBeforeRejoin > 0)
            --m_assignsBeforeRejoin;
        else
            m_open = true;
    }
    bool isOpen() const { return m_open; }

private:
    bool m_open = true;
    int m_assignsBeforeRejoin = 0;
};

} // namespace groupscope::consumer
