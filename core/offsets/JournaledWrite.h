#pragma once

#include "kafka/AdminClient.h"
#include "offsets/WriteJournal.h"

#include <functional>

namespace groupscope::offsets {

// Every write to a group's offsets, in the order that makes it recoverable:
//   1. begin(): the intent (the partitions with the offsets read just before and what is
//      to be written) is committed to the journal; if it cannot be, nothing is sent;
//   2. the caller sends the write;
//   3. finish(): the group's offsets are read back, and each partition's outcome is what
//      the broker holds, never assumed from the answer: a lost answer (timeout, dropped
//      connection) that did apply is recorded as applied, a refusal as unchanged, and
//      a commit found instead of the write as overwritten. The outcome is committed to the
//      journal. If the read-back fails the entry stays in doubt, and JournalRecovery
//      resolves it the next time a process connects to that cluster.
class JournaledWrite {
public:
    using Outcomes = kafka::Result<QList<kafka::PartitionOutcome>>;

    JournaledWrite(kafka::AdminClient& admin, WriteJournal& journal)
        : m_admin(admin)
        , m_journal(journal) {}

    // Fills the entry's id, time, cluster, cluster id and state (in doubt) and records it.
    kafka::Status begin(JournalEntry& entry, const QString& tool);
    // Reads back and records the outcome; `outcomes` is what the broker answered (or why
    // no answer came). Returns the journal's error when the outcome could not be recorded.
    kafka::Status finish(JournalEntry& entry, const Outcomes& outcomes);

    // Sets each partition's "after" (and error, and overwritten) from what the group holds
    // now (`committed`), given the broker's answer per partition where one came. Used by
    // finish() and by JournalRecovery.
    static void resolveFromReadBack(JournalEntry& entry,
                                    const QHash<kafka::TopicPartition, int64_t>& committed,
                                    const QHash<kafka::TopicPartition, kafka::KafkaError>& answers,
                                    bool answered);
    // The group's committed offsets now, keyed by partition.
    static kafka::Result<QHash<kafka::TopicPartition, int64_t>>
    readCommitted(kafka::AdminClient& admin, const QString& groupId);

private:
    kafka::AdminClient& m_admin;
    WriteJournal& m_journal;
};

// Resolves the journal's in-doubt entries of the cluster `admin` is connected to (by
// cluster id; by bootstrap servers for an entry without one) by reading each group's
// offsets back. Returns the entries it resolved, now in state Recovered.
kafka::Result<QList<JournalEntry>> recoverInDoubtEntries(kafka::AdminClient& admin,
                                                         WriteJournal& journal);

} // namespace groupscope::offsets
