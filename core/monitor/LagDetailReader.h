#pragma once

#include "kafka/AdminClient.h"
#include "snapshot/GroupSnapshot.h"

#include <QHash>
#include <QPair>

namespace groupscope::monitor {

// Reads what plain lag arithmetic cannot say (LagDetail: last stable offset, transaction
// markers, open transactions, the oldest unconsumed record) for the partitions of a poll,
// as few requests as possible:
// - only partitions with 0 < lag (committed between log start and log end) are asked about;
//   caught-up partitions, partitions without a commit and commits below the log start are
//   decided from the offsets alone;
// - their last stable offsets: one ListOffsets READ_COMMITTED per leader;
// - their first bytes after the commit (8 KiB up to a lag of 100, 1 KiB above: the oldest
//   record only): one read_committed Fetch per leader, for the
//   (partition, commit) pairs not read before. A read is kept while the commit stays and
//   reused while the log end stays too; with a lag above rereadLagLimit it is reused even
//   as the log grows (only the oldest record comes from it then).
// So a fleet of caught-up groups costs nothing, and a lagging one two requests per leader.
// Keep one reader per poller: the kept reads are what make the next poll cheap.
class LagDetailReader {
public:
    struct Options {
        // Up to smallLagLimit entries after the commit the read must cover them all (about
        // 100 markers fit in 8 KiB); above it only the oldest record is wanted, whose batch
        // header and first record fit in far less.
        int64_t smallLagLimit = 100;
        int32_t smallLagBytes = 8 * 1024;
        int32_t largeLagBytes = 1024;
        int64_t rereadLagLimit = 1000;
    };
    // The requests of the last fill(), by what they were for.
    struct Cost {
        int stableOffsetPartitions = 0; // asked in ListOffsets READ_COMMITTED
        int readPartitions = 0;         // asked in Fetch
        int reusedReads = 0;            // answered from an earlier read
    };

    LagDetailReader() = default;
    explicit LagDetailReader(Options options)
        : m_options(options) {}

    // Fills PartitionSnapshot::lagDetail of every partition of `groups`. Through the
    // librdkafka fallback (a profile the own protocol client does not speak) the figures
    // that need the log say so, with the fallback's note.
    void fill(kafka::AdminClient& admin, QList<GroupSnapshot>& groups);
    const Cost& lastCost() const { return m_cost; }

private:
    using ReadKey = QPair<kafka::TopicPartition, int64_t>; // partition, committed offset
    Options m_options;
    QHash<ReadKey, kafka::LogRead> m_reads;
    Cost m_cost;
};

} // namespace groupscope::monitor
